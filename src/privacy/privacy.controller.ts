import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { MessageDto, SUCCESS } from '../common/http/message.dto';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { ExternalIdParam } from '../common/validation/external-id';
import { AbsentPathParameters, GroupIdParam } from '../common/validation/path-params';
import { GroupErrors } from '../groups/groups.errors';
import { ParticipantErrors } from '../participants/participants.errors';
import { PrivacyRequestDto } from './dto/privacy-request.dto';
import { PrivacyErrors } from './privacy.errors';
import { PrivacyService } from './privacy.service';

@ApiTags('Privacy requests')
@Controller('configure')
@AbsentPathParameters(
  { method: 'POST', path: 'groups//privacy', missing: 'groupID' },
  { method: 'POST', path: 'participants//privacy', missing: 'externalID' },
)
export class PrivacyController {
  constructor(private readonly privacy: PrivacyService) {}

  @Post('groups/:groupID/privacy')
  @HttpCode(200)
  @ApiOperation({
    summary: "Ask a group's participants for a privacy level",
    description:
      'Participants whose level is below the request see a review notice at their next check-in; ' +
      "they may keep their level. Echoed as the group's `requestedPrivacyLevel`.",
  })
  @ApiOkResponse({ type: MessageDto })
  @ApiEndpointErrors([
    GroupErrors.GroupIdMissing,
    GroupErrors.GroupIdNotNumber,
    PrivacyErrors.RequestedPrivacyLevelMissing,
    PrivacyErrors.RequestedPrivacyLevelInvalid,
    GroupErrors.NotFound,
    GroupErrors.NotAssociated,
  ])
  async requestForGroup(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
    @Body() body: PrivacyRequestDto,
  ): Promise<MessageDto> {
    await this.privacy.requestForGroup(enterpriseId, groupId, body.requestedPrivacyLevel);
    return SUCCESS;
  }

  @Post('participants/:externalID/privacy')
  @HttpCode(200)
  @ApiOperation({
    summary: "Ask one participant for a privacy level (overrides their groups' requests)",
  })
  @ApiOkResponse({ type: MessageDto })
  @ApiEndpointErrors([
    ParticipantErrors.ExternalIdMissing,
    PrivacyErrors.RequestedPrivacyLevelMissing,
    PrivacyErrors.RequestedPrivacyLevelInvalid,
    ParticipantErrors.NotFound,
  ])
  async requestForParticipant(
    @ExternalIdParam() externalId: string,
    @EnterpriseId() enterpriseId: string,
    @Body() body: PrivacyRequestDto,
  ): Promise<MessageDto> {
    await this.privacy.requestForParticipant(enterpriseId, externalId, body.requestedPrivacyLevel);
    return SUCCESS;
  }
}

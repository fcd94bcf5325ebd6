import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { MessageDto, SUCCESS } from '../common/http/message.dto';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { ExternalIdParam } from '../common/validation/external-id';
import { AbsentPathParameters, GroupIdParam } from '../common/validation/path-params';
import { GroupErrors } from '../groups/groups.errors';
import { ParticipantErrors } from '../participants/participants.errors';
import { InteractErrors } from './interact.errors';
import { InteractService } from './interact.service';
import { SendEmailDto } from './send-email.dto';

@ApiTags('Emails')
@Controller('interact')
@AbsentPathParameters(
  { method: 'POST', path: 'groups//email', missing: 'groupID' },
  { method: 'POST', path: 'participants//email', missing: 'externalID' },
)
export class InteractController {
  constructor(private readonly interact: InteractService) {}

  @Post('groups/:groupID/email')
  @HttpCode(200)
  @ApiOperation({
    summary: "Email a group's participants (those with that email preference on)",
    description: 'Answers as soon as the mails are queued; they are sent in the background.',
  })
  @ApiOkResponse({ type: MessageDto })
  @ApiEndpointErrors([
    GroupErrors.GroupIdMissing,
    GroupErrors.GroupIdNotNumber,
    InteractErrors.EmailTypeMissing,
    InteractErrors.EmailTypeInvalid,
    GroupErrors.NotFound,
    GroupErrors.NotAssociated,
  ])
  async emailGroup(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
    @Body() body: SendEmailDto,
  ): Promise<MessageDto> {
    await this.interact.emailGroup(enterpriseId, groupId, body.emailType);
    return SUCCESS;
  }

  @Post('participants/:externalID/email')
  @HttpCode(200)
  @ApiOperation({ summary: 'Email one participant (if that email preference is on)' })
  @ApiOkResponse({ type: MessageDto })
  @ApiEndpointErrors([
    ParticipantErrors.ExternalIdMissing,
    InteractErrors.EmailTypeMissing,
    InteractErrors.EmailTypeInvalid,
    ParticipantErrors.NotFound,
  ])
  async emailParticipant(
    @ExternalIdParam() externalId: string,
    @EnterpriseId() enterpriseId: string,
    @Body() body: SendEmailDto,
  ): Promise<MessageDto> {
    await this.interact.emailParticipant(enterpriseId, externalId, body.emailType);
    return SUCCESS;
  }
}

import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { EXAMPLE_IDS } from '../common/swagger/examples';
import { ExternalIdParam } from '../common/validation/external-id';
import { AbsentPathParameters } from '../common/validation/path-params';
import { ConsentRecordDto } from './dto/consent-record.dto';
import { ParticipantDto } from './dto/participant.dto';
import { ParticipantErrors } from './participants.errors';
import { ParticipantsService } from './participants.service';

const PARTICIPANT_ERRORS = [ParticipantErrors.ExternalIdMissing, ParticipantErrors.NotFound];

@ApiTags('Participants')
@Controller('participants')
@AbsentPathParameters(
  { method: 'GET', path: '', missing: 'externalID' },
  { method: 'GET', path: '//sessions', missing: 'externalID' },
  { method: 'GET', path: '//consents', missing: 'externalID' },
)
export class ParticipantsController {
  constructor(private readonly participants: ParticipantsService) {}

  @Get(':externalID')
  @ApiOperation({ summary: 'A participant and their group memberships' })
  @ApiOkResponse({ type: ParticipantDto })
  @ApiEndpointErrors(PARTICIPANT_ERRORS)
  get(
    @ExternalIdParam() externalId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<ParticipantDto> {
    return this.participants.get(enterpriseId, externalId);
  }

  @Get(':externalID/consents')
  @ApiOperation({
    summary: "The participant's consent records, oldest first",
    description:
      'Every consent, privacy-level and email-preference change the participant made, and where ' +
      '(`checkin` page, `settings` page, `unsubscribe` link). Only the participant makes these ' +
      'changes. Email preferences apply to all their groups: `groupID` is the group whose page ' +
      'changed them, null from an unsubscribe link.',
  })
  @ApiOkResponse({ type: ConsentRecordDto, isArray: true })
  @ApiEndpointErrors(PARTICIPANT_ERRORS)
  listConsents(
    @ExternalIdParam() externalId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<ConsentRecordDto[]> {
    return this.participants.listConsents(enterpriseId, externalId);
  }

  @Get(':externalID/sessions')
  @ApiOperation({ summary: "IDs of the participant's sessions, oldest first" })
  @ApiOkResponse({
    schema: { type: 'array', items: { type: 'string', example: EXAMPLE_IDS.sessionId } },
  })
  @ApiEndpointErrors(PARTICIPANT_ERRORS)
  listSessions(
    @ExternalIdParam() externalId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<string[]> {
    return this.participants.listSessions(enterpriseId, externalId);
  }
}

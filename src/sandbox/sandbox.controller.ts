import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IngestionErrors, RESULT_BODY_ERRORS } from '../ingestion/ingestion.errors';
import { SessionResultDto } from '../ingestion/session-result.dto';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiEndpointErrors, ApiErrorStatus } from '../common/swagger/api-errors.decorator';
import { OptionalBodyPipe } from '../common/validation/optional-body.pipe';
import { AbsentPathParameters } from '../common/validation/path-params';
import { SessionDto } from '../sessions/dto/session.dto';
import { SandboxEmailDto } from './dto/sandbox-email.dto';
import { SandboxEnterpriseGuard } from './sandbox-enterprise.guard';
import { SANDBOX_EMAILS_LIMIT, SandboxErrors } from './sandbox.errors';
import { SandboxService } from './sandbox.service';

const NOT_A_SANDBOX: ApiErrorStatus = {
  status: 404,
  description:
    'The enterprise is not a sandbox: every `/sandbox/*` route answers as an unknown route does, ' +
    'and nothing changes.',
  messages: [SandboxErrors.NotASandbox],
};

const FOR_SANDBOXES =
  'Sandbox enterprises only (test mode, created with `enterprises:create --sandbox`); any other ' +
  'enterprise gets `404 {"error":"Not found"}`, as for an unknown route.';

@ApiTags('Sandbox')
@Controller('sandbox')
@UseGuards(SandboxEnterpriseGuard)
@AbsentPathParameters({ method: 'POST', path: 'sessions//complete', missing: 'sessionID' })
export class SandboxController {
  constructor(private readonly sandbox: SandboxService) {}

  @Post('sessions/:sessionID/complete')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Complete a session without the analysis engine (sandbox)',
    description:
      `${FOR_SANDBOXES}\n\n` +
      'Completes one of your sessions through the real ingestion path, as if the engine had ' +
      'posted its result: percentiles, metrics, one credit deducted from the group, and a ' +
      '`user.session.result` webhook. The body is optional: a result exactly as the engine posts ' +
      'it (validated the same way, with the same messages); without one (no body, or `{}`) a ' +
      'synthetic result is made up. The session is flagged synthetic either way.\n\n' +
      'Answers the session exactly as `GET /sessions/{sessionID}` shows it to you: the fields ' +
      "of the participant's privacy level, so a level-0 participant's result stays hidden.\n\n" +
      'Posting the same result again changes nothing and answers 200; any other completion of a ' +
      'completed session (a synthetic one, or a different result) is `409 Session already ' +
      "completed`. Another enterprise's session, an unknown or a malformed ID is `Session not " +
      "found`, as on `GET /sessions/{sessionID}`. In a group that requires consent, a member's " +
      'session without consent is refused with 409, as ingestion refuses it.',
  })
  @ApiBody({ type: SessionResultDto, required: false })
  @ApiOkResponse({ type: SessionDto })
  @ApiEndpointErrors(
    [SandboxErrors.SessionIdMissing, ...RESULT_BODY_ERRORS, SandboxErrors.SessionNotFound],
    [
      NOT_A_SANDBOX,
      {
        status: 409,
        description:
          'The session is already completed (with another result), its group requires ' +
          'consent the participant has not given, or the body names a `handoff` (no sandbox ' +
          'session is handed off to an engine). Nothing changed.',
        messages: [
          SandboxErrors.AlreadyCompleted,
          IngestionErrors.ConsentMissing,
          IngestionErrors.HandoffMismatch,
        ],
      },
    ],
  )
  complete(
    @Param('sessionID') sessionId: string,
    @EnterpriseId() enterpriseId: string,
    @Body(new OptionalBodyPipe(SessionResultDto)) result: SessionResultDto | undefined,
  ): Promise<SessionDto> {
    return this.sandbox.complete(enterpriseId, sessionId, result);
  }

  @Get('emails')
  @ApiOperation({
    summary: 'The mails your sandbox captured instead of sending them',
    description:
      `${FOR_SANDBOXES}\n\n` +
      'A sandbox sends no mail: every mail (reminders, privacy requests, privacy notices) is ' +
      'rendered exactly as it would have been sent and kept here instead, its links working. ' +
      `Newest first, at most the ${SANDBOX_EMAILS_LIMIT} newest. A participant's mails go with ` +
      'them when they are erased.',
  })
  @ApiOkResponse({ type: [SandboxEmailDto] })
  @ApiEndpointErrors([], [NOT_A_SANDBOX])
  emails(@EnterpriseId() enterpriseId: string): Promise<SandboxEmailDto[]> {
    return this.sandbox.emails(enterpriseId);
  }
}

import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CommonErrors, missingPathParameter } from '../common/errors/common.errors';
import { Public } from '../common/auth/public.decorator';
import { MessageDto, SUCCESS } from '../common/http/message.dto';
import {
  ApiBadRequestMessages,
  ApiClientAddressLimits,
  ApiErrorResponse,
} from '../common/swagger/api-errors.decorator';
import { AbsentPathParameters } from '../common/validation/path-params';
import { EngineTokenGuard } from './engine-token.guard';
import { IngestionErrors, RESULT_BODY_ERRORS } from './ingestion.errors';
import { IngestionService } from './ingestion.service';
import { SessionResultDto } from './session-result.dto';

@ApiTags('Internal: analysis engine')
@Controller('internal/sessions')
@AbsentPathParameters({ method: 'POST', path: '//result', missing: 'sessionID' })
@Public()
@UseGuards(EngineTokenGuard)
export class IngestionController {
  constructor(private readonly ingestion: IngestionService) {}

  @Post(':sessionID/result')
  @HttpCode(200)
  @ApiBearerAuth('engine-token')
  @ApiOperation({
    summary: 'Record the result of a check-in (analysis engine only)',
    description:
      'Authenticated with `Authorization: Bearer <ENGINE_TOKEN>`; enterprise API keys are refused. ' +
      'Posting the same result again is a no-op; a different result for a completed session is 409. ' +
      'In a group that requires consent, a result for a member who has not consented (or has ' +
      'withdrawn consent) is refused with 409 and stored nowhere, and so is a result for a ' +
      "sandbox enterprise's session (sandboxes complete theirs with " +
      '`POST /sandbox/sessions/{sessionID}/complete`).\n\n' +
      'Hand-off (docs/checkin-flow.md): the check-in page sends the participant to `ENGINE_URL` ' +
      'with `sessionID` and `handoff`, a one-time token. Before the check-in starts, send the ' +
      'browser to `GET {PUBLIC_BASE_URL}/checkin/confirm?handoff=<token>`: only the browser that ' +
      'handed off passes, and comes back to the same address with `confirmed=1` added. Post the ' +
      'token back as `handoff`. A result counts at the level the participant handed off at only ' +
      'for a confirmed hand-off; any other result (no page handed it off, or it was never ' +
      'confirmed) is recorded at level 0 and stays there. A `handoff` that is not the ' +
      "session's current hand-off (another session's, or one a later hand-off replaced) is 409.\n\n" +
      'Biometric inference (docs/compliance.md): a hand-off adds `biometric=off` when the ' +
      "session's enterprise declared an `eu` programme for `wellbeing` (EU AI Act art. 5(1)(f)). " +
      'For such a session send `subscores` with `transcript` and `assessment` only, and only ' +
      'features named `transcript.*` or `assessment.*`; a result with anything inferred from ' +
      'voice or face is refused with 422 and nothing is stored. The same holds when the ' +
      "enterprise's declaration turns it off after the hand-off. Otherwise all four subscores " +
      'are required, as before.',
  })
  @ApiOkResponse({ type: MessageDto })
  @ApiBadRequestMessages([
    missingPathParameter('sessionID'),
    ...RESULT_BODY_ERRORS,
    IngestionErrors.SessionNotFound,
  ])
  @ApiErrorResponse(401, 'Missing or wrong engine token.', [CommonErrors.Unauthorized])
  @ApiClientAddressLimits()
  @ApiErrorResponse(
    409,
    'A different result was already recorded for this session; the check-in requires consent the ' +
      "participant has not given (or has withdrawn); the handoff token is not this session's " +
      "current hand-off; or the session is a sandbox enterprise's. Nothing was stored.",
    [
      IngestionErrors.DifferentResult,
      IngestionErrors.ConsentMissing,
      IngestionErrors.HandoffMismatch,
      IngestionErrors.SandboxSession,
    ],
  )
  @ApiErrorResponse(
    422,
    'Biometric inference is off for this session and the result carries a value inferred from ' +
      'voice or face. Nothing was stored.',
    [IngestionErrors.BiometricOff],
  )
  async record(
    @Param('sessionID') sessionId: string,
    @Body() result: SessionResultDto,
  ): Promise<MessageDto> {
    await this.ingestion.ingest(sessionId, result);
    return SUCCESS;
  }
}

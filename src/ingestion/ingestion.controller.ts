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
      '`POST /sandbox/sessions/{sessionID}/complete`).',
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
    'A different result was already recorded for this session; the group requires consent the ' +
      "participant has not given (or has withdrawn); or the session is a sandbox enterprise's. " +
      'Nothing was stored.',
    [
      IngestionErrors.DifferentResult,
      IngestionErrors.ConsentMissing,
      IngestionErrors.SandboxSession,
    ],
  )
  async record(
    @Param('sessionID') sessionId: string,
    @Body() result: SessionResultDto,
  ): Promise<MessageDto> {
    await this.ingestion.ingest(sessionId, result);
    return SUCCESS;
  }
}

import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiExcludeEndpoint,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { missingPathParameterError } from '../common/validation/path-params';
import { CreateSessionDto, SessionCreatedDto } from './dto/create-session.dto';
import { SessionErrors } from './sessions.errors';
import { SessionsService } from './sessions.service';

@ApiTags('Sessions')
@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Post('session/create')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a session and get the check-in address for the participant',
    description:
      'First session: `userIdentifier` is the email (a new participant, announced by `user.created`). ' +
      "Later sessions: the participant's `ok_` external ID. An optional `Idempotency-Key` header " +
      'replays the first response for 24 h.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: '1–255 visible ASCII characters',
  })
  @ApiOkResponse({ type: SessionCreatedDto })
  @ApiConflictResponse({ description: SessionErrors.IdempotencyKeyReused })
  @ApiEndpointErrors([
    SessionErrors.GroupIdMissing,
    SessionErrors.GroupIdNotNumber,
    SessionErrors.GroupKeyMissing,
    SessionErrors.GroupKeyNotString,
    SessionErrors.UserIdentifierMissing,
    SessionErrors.UserIdentifierNotString,
    SessionErrors.ReturnUrlMissing,
    SessionErrors.ReturnUrlNotString,
    SessionErrors.ReturnUrlNotHttps,
    SessionErrors.IdempotencyKeyInvalid,
    SessionErrors.GroupNotFound,
    SessionErrors.InvalidGroupKey,
    SessionErrors.IdentifierInvalid,
    'User <externalID> is not part of group <groupID>',
    'This user already exists for the email and groupID provided, their externalID is <externalID>',
  ])
  create(
    @EnterpriseId() enterpriseId: string,
    @Body() body: CreateSessionDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<SessionCreatedDto> {
    return this.sessions.create(enterpriseId, body, idempotencyKey);
  }

  @Get('sessions/:sessionID')
  @ApiOperation({
    summary: 'A session, with the fields its participant currently allows',
    description:
      'Level 0: externalID, sessionID, timestamp, groupID, version; 1: + mhci, subscores; ' +
      '2: + groupPercentiles; 3: + userPercentiles; 4: + transcript; 5: + features. ' +
      'A session without a result yet shows level 0.',
  })
  @ApiOkResponse({
    schema: {
      type: 'object',
      example: {
        externalID: 'ok_5f0c…',
        sessionID: 'ses_1a2B3c4D5e6F7g8H9i0JkLmN',
        timestamp: '2026-11-22T09:42:10.000Z',
        groupID: 12,
        version: 'v1.4.0',
        mhci: 71.5,
        subscores: { vision: 64, audio: 70, transcript: 77, assessment: 73 },
      },
    },
  })
  @ApiEndpointErrors([SessionErrors.SessionIdMissing, SessionErrors.NotFound])
  get(
    @Param('sessionID') sessionId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<Record<string, unknown>> {
    return this.sessions.get(enterpriseId, sessionId);
  }

  // "Absent" sessionID: `GET /sessions/` (the router ignores the trailing slash).
  @Get('sessions')
  @ApiExcludeEndpoint()
  getWithoutId(): never {
    throw missingPathParameterError('sessionID');
  }
}

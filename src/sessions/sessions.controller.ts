import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { AbsentPathParameters } from '../common/validation/path-params';
import { describeSessionFields } from '../common/privacy-model';
import { CreateSessionDto, SessionCreatedDto } from './dto/create-session.dto';
import { SessionDto } from './dto/session.dto';
import { SessionErrorPatterns, SessionErrors } from './sessions.errors';
import { SessionsService } from './sessions.service';

@ApiTags('Sessions')
@Controller()
// `GET /sessions/` (the router ignores the trailing slash).
@AbsentPathParameters({ method: 'GET', path: 'sessions', missing: 'sessionID' })
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
  // Lower case, as @Headers() names it: one optional parameter in the document, not two.
  @ApiHeader({
    name: 'idempotency-key',
    required: false,
    description: '1–255 visible ASCII characters',
  })
  @ApiOkResponse({ type: SessionCreatedDto })
  @ApiEndpointErrors(
    [
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
      SessionErrorPatterns.NotInGroup,
      SessionErrorPatterns.AlreadyExists,
    ],
    [
      {
        status: 409,
        description:
          'The `Idempotency-Key` was used before with a different request (within 24 h); ' +
          'nothing was created.',
        messages: [SessionErrors.IdempotencyKeyReused],
      },
    ],
  )
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
    description: `${describeSessionFields()}. A session without a result yet shows level 0.`,
  })
  @ApiOkResponse({ type: SessionDto })
  @ApiEndpointErrors([SessionErrors.SessionIdMissing, SessionErrors.NotFound])
  get(
    @Param('sessionID') sessionId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<SessionDto> {
    return this.sessions.get(enterpriseId, sessionId);
  }
}

/**
 * The sandbox routes' messages (docs/integrating.md). A session of another enterprise is `Session not
 * found`, as `GET /sessions/{sessionID}` says; an enterprise that is not a sandbox gets the unknown
 * route's `Not found` on every `/sandbox/*` route.
 */
import { CommonErrors, missingPathParameter } from '../common/errors/common.errors';
import { SANDBOX_EMAILS_KEPT } from '../interact/sandbox-email.entity';
import { SessionErrors } from '../sessions/sessions.errors';

export const SandboxErrors = {
  SessionIdMissing: missingPathParameter('sessionID'),
  SessionNotFound: SessionErrors.NotFound,
  AlreadyCompleted: 'Session already completed',
  NotASandbox: CommonErrors.NotFound,
} as const;

/** `GET /sandbox/emails` answers at most this many mails, the newest: all a sandbox keeps. */
export const SANDBOX_EMAILS_LIMIT = SANDBOX_EMAILS_KEPT;

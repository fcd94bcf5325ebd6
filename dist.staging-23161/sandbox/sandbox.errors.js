"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SANDBOX_EMAILS_LIMIT = exports.SandboxErrors = void 0;
/**
 * The sandbox routes' messages (docs/integrating.md). A session of another enterprise is `Session not
 * found`, as `GET /sessions/{sessionID}` says; an enterprise that is not a sandbox gets the unknown
 * route's `Not found` on every `/sandbox/*` route.
 */
const common_errors_1 = require("../common/errors/common.errors");
const sandbox_email_entity_1 = require("../interact/sandbox-email.entity");
const sessions_errors_1 = require("../sessions/sessions.errors");
exports.SandboxErrors = {
    SessionIdMissing: (0, common_errors_1.missingPathParameter)('sessionID'),
    SessionNotFound: sessions_errors_1.SessionErrors.NotFound,
    AlreadyCompleted: 'Session already completed',
    NotASandbox: common_errors_1.CommonErrors.NotFound,
};
/** `GET /sandbox/emails` answers at most this many mails, the newest: all a sandbox keeps. */
exports.SANDBOX_EMAILS_LIMIT = sandbox_email_entity_1.SANDBOX_EMAILS_KEPT;
//# sourceMappingURL=sandbox.errors.js.map
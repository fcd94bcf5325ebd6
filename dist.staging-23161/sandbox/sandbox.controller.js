"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SandboxController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const ingestion_errors_1 = require("../ingestion/ingestion.errors");
const session_result_dto_1 = require("../ingestion/session-result.dto");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const optional_body_pipe_1 = require("../common/validation/optional-body.pipe");
const path_params_1 = require("../common/validation/path-params");
const session_dto_1 = require("../sessions/dto/session.dto");
const sandbox_email_dto_1 = require("./dto/sandbox-email.dto");
const sandbox_enterprise_guard_1 = require("./sandbox-enterprise.guard");
const sandbox_errors_1 = require("./sandbox.errors");
const sandbox_service_1 = require("./sandbox.service");
const NOT_A_SANDBOX = {
    status: 404,
    description: 'The enterprise is not a sandbox: every `/sandbox/*` route answers as an unknown route does, ' +
        'and nothing changes.',
    messages: [sandbox_errors_1.SandboxErrors.NotASandbox],
};
const FOR_SANDBOXES = 'Sandbox enterprises only (test mode, created with `enterprises:create --sandbox`); any other ' +
    'enterprise gets `404 {"error":"Not found"}`, as for an unknown route.';
let SandboxController = class SandboxController {
    sandbox;
    constructor(sandbox) {
        this.sandbox = sandbox;
    }
    complete(sessionId, enterpriseId, result) {
        return this.sandbox.complete(enterpriseId, sessionId, result);
    }
    emails(enterpriseId) {
        return this.sandbox.emails(enterpriseId);
    }
};
exports.SandboxController = SandboxController;
__decorate([
    (0, common_1.Post)('sessions/:sessionID/complete'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({
        summary: 'Complete a session without the analysis engine (sandbox)',
        description: `${FOR_SANDBOXES}\n\n` +
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
    }),
    (0, swagger_1.ApiBody)({ type: session_result_dto_1.SessionResultDto, required: false }),
    (0, swagger_1.ApiOkResponse)({ type: session_dto_1.SessionDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([sandbox_errors_1.SandboxErrors.SessionIdMissing, ...ingestion_errors_1.RESULT_BODY_ERRORS, sandbox_errors_1.SandboxErrors.SessionNotFound], [
        NOT_A_SANDBOX,
        {
            status: 409,
            description: 'The session is already completed (with another result), its group requires ' +
                'consent the participant has not given, or the body names a `handoff` (no sandbox ' +
                'session is handed off to an engine). Nothing changed.',
            messages: [
                sandbox_errors_1.SandboxErrors.AlreadyCompleted,
                ingestion_errors_1.IngestionErrors.ConsentMissing,
                ingestion_errors_1.IngestionErrors.HandoffMismatch,
            ],
        },
    ]),
    __param(0, (0, common_1.Param)('sessionID')),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Body)(new optional_body_pipe_1.OptionalBodyPipe(session_result_dto_1.SessionResultDto))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String, Object]),
    __metadata("design:returntype", Promise)
], SandboxController.prototype, "complete", null);
__decorate([
    (0, common_1.Get)('emails'),
    (0, swagger_1.ApiOperation)({
        summary: 'The mails your sandbox captured instead of sending them',
        description: `${FOR_SANDBOXES}\n\n` +
            'A sandbox sends no mail: every mail (reminders, privacy requests, privacy notices) is ' +
            'rendered exactly as it would have been sent and kept here instead, its links working. ' +
            `Newest first, at most the ${sandbox_errors_1.SANDBOX_EMAILS_LIMIT} newest. A participant's mails go with ` +
            'them when they are erased.',
    }),
    (0, swagger_1.ApiOkResponse)({ type: [sandbox_email_dto_1.SandboxEmailDto] }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([], [NOT_A_SANDBOX]),
    __param(0, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Promise)
], SandboxController.prototype, "emails", null);
exports.SandboxController = SandboxController = __decorate([
    (0, swagger_1.ApiTags)('Sandbox'),
    (0, common_1.Controller)('sandbox'),
    (0, common_1.UseGuards)(sandbox_enterprise_guard_1.SandboxEnterpriseGuard),
    (0, path_params_1.AbsentPathParameters)({ method: 'POST', path: 'sessions//complete', missing: 'sessionID' }),
    __metadata("design:paramtypes", [sandbox_service_1.SandboxService])
], SandboxController);
//# sourceMappingURL=sandbox.controller.js.map
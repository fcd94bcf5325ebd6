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
exports.IngestionController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const common_errors_1 = require("../common/errors/common.errors");
const public_decorator_1 = require("../common/auth/public.decorator");
const message_dto_1 = require("../common/http/message.dto");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const path_params_1 = require("../common/validation/path-params");
const engine_token_guard_1 = require("./engine-token.guard");
const ingestion_errors_1 = require("./ingestion.errors");
const ingestion_service_1 = require("./ingestion.service");
const session_result_dto_1 = require("./session-result.dto");
let IngestionController = class IngestionController {
    ingestion;
    constructor(ingestion) {
        this.ingestion = ingestion;
    }
    async record(sessionId, result) {
        await this.ingestion.ingest(sessionId, result);
        return message_dto_1.SUCCESS;
    }
};
exports.IngestionController = IngestionController;
__decorate([
    (0, common_1.Post)(':sessionID/result'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiBearerAuth)('engine-token'),
    (0, swagger_1.ApiOperation)({
        summary: 'Record the result of a check-in (analysis engine only)',
        description: 'Authenticated with `Authorization: Bearer <ENGINE_TOKEN>`; enterprise API keys are refused. ' +
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
            "session's current hand-off (another session's, or one a later hand-off replaced) is 409.",
    }),
    (0, swagger_1.ApiOkResponse)({ type: message_dto_1.MessageDto }),
    (0, api_errors_decorator_1.ApiBadRequestMessages)([
        (0, common_errors_1.missingPathParameter)('sessionID'),
        ...ingestion_errors_1.RESULT_BODY_ERRORS,
        ingestion_errors_1.IngestionErrors.SessionNotFound,
    ]),
    (0, api_errors_decorator_1.ApiErrorResponse)(401, 'Missing or wrong engine token.', [common_errors_1.CommonErrors.Unauthorized]),
    (0, api_errors_decorator_1.ApiClientAddressLimits)(),
    (0, api_errors_decorator_1.ApiErrorResponse)(409, 'A different result was already recorded for this session; the check-in requires consent the ' +
        "participant has not given (or has withdrawn); the handoff token is not this session's " +
        "current hand-off; or the session is a sandbox enterprise's. Nothing was stored.", [
        ingestion_errors_1.IngestionErrors.DifferentResult,
        ingestion_errors_1.IngestionErrors.ConsentMissing,
        ingestion_errors_1.IngestionErrors.HandoffMismatch,
        ingestion_errors_1.IngestionErrors.SandboxSession,
    ]),
    __param(0, (0, common_1.Param)('sessionID')),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, session_result_dto_1.SessionResultDto]),
    __metadata("design:returntype", Promise)
], IngestionController.prototype, "record", null);
exports.IngestionController = IngestionController = __decorate([
    (0, swagger_1.ApiTags)('Internal: analysis engine'),
    (0, common_1.Controller)('internal/sessions'),
    (0, path_params_1.AbsentPathParameters)({ method: 'POST', path: '//result', missing: 'sessionID' }),
    (0, public_decorator_1.Public)(),
    (0, common_1.UseGuards)(engine_token_guard_1.EngineTokenGuard),
    __metadata("design:paramtypes", [ingestion_service_1.IngestionService])
], IngestionController);
//# sourceMappingURL=ingestion.controller.js.map
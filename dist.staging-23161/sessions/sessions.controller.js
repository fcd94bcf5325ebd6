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
exports.SessionsController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const path_params_1 = require("../common/validation/path-params");
const privacy_model_1 = require("../common/privacy-model");
const create_session_dto_1 = require("./dto/create-session.dto");
const session_dto_1 = require("./dto/session.dto");
const sessions_errors_1 = require("./sessions.errors");
const sessions_service_1 = require("./sessions.service");
let SessionsController = class SessionsController {
    sessions;
    constructor(sessions) {
        this.sessions = sessions;
    }
    create(enterpriseId, body, idempotencyKey) {
        return this.sessions.create(enterpriseId, body, idempotencyKey);
    }
    get(sessionId, enterpriseId) {
        return this.sessions.get(enterpriseId, sessionId);
    }
};
exports.SessionsController = SessionsController;
__decorate([
    (0, common_1.Post)('session/create'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({
        summary: 'Create a session and get the check-in address for the participant',
        description: 'First session: `userIdentifier` is the email (a new participant, announced by `user.created`). ' +
            "Later sessions: the participant's `ok_` external ID. An optional `Idempotency-Key` header " +
            'replays the first response for 24 h.',
    })
    // Lower case, as @Headers() names it: one optional parameter in the document, not two.
    ,
    (0, swagger_1.ApiHeader)({
        name: 'idempotency-key',
        required: false,
        description: '1–255 visible ASCII characters',
    }),
    (0, swagger_1.ApiOkResponse)({ type: create_session_dto_1.SessionCreatedDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        sessions_errors_1.SessionErrors.GroupIdMissing,
        sessions_errors_1.SessionErrors.GroupIdNotNumber,
        sessions_errors_1.SessionErrors.GroupKeyMissing,
        sessions_errors_1.SessionErrors.GroupKeyNotString,
        sessions_errors_1.SessionErrors.UserIdentifierMissing,
        sessions_errors_1.SessionErrors.UserIdentifierNotString,
        sessions_errors_1.SessionErrors.ReturnUrlMissing,
        sessions_errors_1.SessionErrors.ReturnUrlNotString,
        sessions_errors_1.SessionErrors.ReturnUrlNotHttps,
        sessions_errors_1.SessionErrors.IdempotencyKeyInvalid,
        sessions_errors_1.SessionErrors.GroupNotFound,
        sessions_errors_1.SessionErrors.InvalidGroupKey,
        sessions_errors_1.SessionErrors.IdentifierInvalid,
        sessions_errors_1.SessionErrorPatterns.NotInGroup,
        sessions_errors_1.SessionErrorPatterns.AlreadyExists,
    ], [
        {
            status: 409,
            description: 'The `Idempotency-Key` was used before with a different request (within 24 h); ' +
                'nothing was created.',
            messages: [sessions_errors_1.SessionErrors.IdempotencyKeyReused],
        },
    ]),
    __param(0, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(1, (0, common_1.Body)()),
    __param(2, (0, common_1.Headers)('idempotency-key')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, create_session_dto_1.CreateSessionDto, String]),
    __metadata("design:returntype", Promise)
], SessionsController.prototype, "create", null);
__decorate([
    (0, common_1.Get)('sessions/:sessionID'),
    (0, swagger_1.ApiOperation)({
        summary: 'A session, with the fields its participant currently allows',
        description: `${(0, privacy_model_1.describeSessionFields)()}. A session without a result yet shows level 0.`,
    }),
    (0, swagger_1.ApiOkResponse)({ type: session_dto_1.SessionDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([sessions_errors_1.SessionErrors.SessionIdMissing, sessions_errors_1.SessionErrors.NotFound]),
    __param(0, (0, common_1.Param)('sessionID')),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String]),
    __metadata("design:returntype", Promise)
], SessionsController.prototype, "get", null);
exports.SessionsController = SessionsController = __decorate([
    (0, swagger_1.ApiTags)('Sessions'),
    (0, common_1.Controller)()
    // `GET /sessions/` (the router ignores the trailing slash).
    ,
    (0, path_params_1.AbsentPathParameters)({ method: 'GET', path: 'sessions', missing: 'sessionID' }),
    __metadata("design:paramtypes", [sessions_service_1.SessionsService])
], SessionsController);
//# sourceMappingURL=sessions.controller.js.map
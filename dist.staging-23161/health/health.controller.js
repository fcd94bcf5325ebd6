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
Object.defineProperty(exports, "__esModule", { value: true });
exports.HealthController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const database_1 = require("../database/database");
const public_decorator_1 = require("../common/auth/public.decorator");
const api_error_1 = require("../common/errors/api-error");
const common_errors_1 = require("../common/errors/common.errors");
const shutdown_state_1 = require("../common/lifecycle/shutdown-state");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const public_rate_limit_guard_1 = require("../common/rate-limit/public-rate-limit.guard");
/**
 * Readiness for load balancers and orchestrators: answers 200 only when PostgreSQL answers and
 * the process is not shutting down. Not limited per address: a load balancer polls it from one.
 */
let HealthController = class HealthController {
    db;
    shutdown;
    constructor(db, shutdown) {
        this.db = db;
        this.shutdown = shutdown;
    }
    async check() {
        if (this.shutdown.draining)
            throw new api_error_1.ApiError(503, common_errors_1.CommonErrors.ServiceUnavailable);
        await this.db.rows('SELECT 1');
        return { status: 'ok' };
    }
};
exports.HealthController = HealthController;
__decorate([
    (0, common_1.Get)(),
    (0, public_decorator_1.Public)(),
    (0, public_rate_limit_guard_1.SkipPublicRateLimit)(),
    (0, swagger_1.ApiOperation)({
        summary: 'Readiness: 200 when the API can reach PostgreSQL and is not draining, else 503',
    })
    // Public: an empty requirement says so (no key, no token), as linters ask of every operation.
    ,
    (0, swagger_1.ApiSecurity)({}),
    (0, swagger_1.ApiOkResponse)({
        schema: {
            type: 'object',
            required: ['status'],
            properties: { status: { type: 'string', enum: ['ok'] } },
            example: { status: 'ok' },
        },
    }),
    (0, api_errors_decorator_1.ApiErrorResponse)(503, 'PostgreSQL does not answer (then with `Retry-After`, seconds), or the process is draining ' +
        'before it stops.', [common_errors_1.CommonErrors.ServiceUnavailable], {
        headers: {
            'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
        },
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], HealthController.prototype, "check", null);
exports.HealthController = HealthController = __decorate([
    (0, swagger_1.ApiTags)('Operations'),
    (0, common_1.Controller)('health'),
    __metadata("design:paramtypes", [database_1.Database,
        shutdown_state_1.ShutdownState])
], HealthController);
//# sourceMappingURL=health.controller.js.map
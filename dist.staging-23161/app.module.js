"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var AppModule_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.AppModule = exports.DASHBOARD_QUEUES = void 0;
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const shutdown_state_1 = require("./common/lifecycle/shutdown-state");
const all_exceptions_filter_1 = require("./common/http/all-exceptions.filter");
const public_rate_limit_guard_1 = require("./common/rate-limit/public-rate-limit.guard");
const rate_limit_guard_1 = require("./common/rate-limit/rate-limit.guard");
const rate_limit_module_1 = require("./common/rate-limit/rate-limit.module");
const spec_validation_pipe_1 = require("./common/validation/spec-validation.pipe");
const config_1 = require("./config/config");
const core_module_1 = require("./core.module");
const data_keys_module_1 = require("./data-at-rest/data-keys.module");
const api_key_guard_1 = require("./enterprises/api-key.guard");
const enterprises_module_1 = require("./enterprises/enterprises.module");
const groups_module_1 = require("./groups/groups.module");
const participants_module_1 = require("./participants/participants.module");
const erasure_module_1 = require("./erasure/erasure.module");
const sessions_module_1 = require("./sessions/sessions.module");
const checkin_pages_module_1 = require("./pages/checkin-pages.module");
const privacy_module_1 = require("./privacy/privacy.module");
const ingestion_api_module_1 = require("./ingestion/ingestion-api.module");
const health_module_1 = require("./health/health.module");
const metrics_module_1 = require("./metrics/metrics.module");
const operations_module_1 = require("./operations/operations.module");
const bull_root_1 = require("./queues/bull-root");
const queue_dashboard_1 = require("./queues/queue-dashboard");
const webhooks_module_1 = require("./webhooks/webhooks.module");
const interact_module_1 = require("./interact/interact.module");
const sandbox_module_1 = require("./sandbox/sandbox.module");
const worker_module_1 = require("./worker.module");
/** The queues the operators' dashboard (/admin/queues, with ADMIN_TOKEN) shows: every one. */
exports.DASHBOARD_QUEUES = worker_module_1.WORKER_QUEUES;
/**
 * The HTTP API process. The guard, pipe and filter are registered here (not in
 * main.ts) so a test app built from this module gets exactly what production gets. The queue
 * consumers run here too only with RUN_WORKERS=true (the default, so one command serves a laptop).
 */
let AppModule = AppModule_1 = class AppModule {
    static register(config) {
        return {
            module: AppModule_1,
            imports: [
                core_module_1.CoreModule.register(config),
                shutdown_state_1.LifecycleModule,
                rate_limit_module_1.RateLimitModule,
                enterprises_module_1.EnterprisesModule,
                groups_module_1.GroupsModule,
                participants_module_1.ParticipantsModule,
                erasure_module_1.ErasureModule,
                sessions_module_1.SessionsModule,
                checkin_pages_module_1.CheckinPagesModule,
                privacy_module_1.PrivacyModule,
                ingestion_api_module_1.IngestionApiModule,
                webhooks_module_1.WebhooksModule,
                interact_module_1.InteractModule,
                metrics_module_1.MetricsModule,
                sandbox_module_1.SandboxModule,
                health_module_1.HealthModule,
                data_keys_module_1.DataKeysModule,
                (0, bull_root_1.bullRoot)(config),
                ...(config.adminToken ? [queue_dashboard_1.QueueDashboardModule.register(exports.DASHBOARD_QUEUES)] : []),
                ...(config.runWorkers ? worker_module_1.WORKER_MODULES : []),
                // What the operations port serves (docs/operations.md), while it is on.
                ...((0, config_1.opsPortOf)(config, 'api') !== 0 ? [operations_module_1.OperationsModule] : []),
            ],
            providers: [
                // Guards run in this order: authenticate (refusing addresses over the authentication
                // failure limit), then count the request against the key's limit, or, on a public route,
                // against its client address's limit (before the route's own guards).
                { provide: core_1.APP_GUARD, useClass: api_key_guard_1.ApiKeyGuard },
                { provide: core_1.APP_GUARD, useClass: rate_limit_guard_1.RateLimitGuard },
                { provide: core_1.APP_GUARD, useClass: public_rate_limit_guard_1.PublicRateLimitGuard },
                { provide: core_1.APP_PIPE, useClass: spec_validation_pipe_1.SpecValidationPipe },
                { provide: core_1.APP_FILTER, useClass: all_exceptions_filter_1.AllExceptionsFilter },
            ],
        };
    }
};
exports.AppModule = AppModule;
exports.AppModule = AppModule = AppModule_1 = __decorate([
    (0, common_1.Module)({})
], AppModule);
//# sourceMappingURL=app.module.js.map
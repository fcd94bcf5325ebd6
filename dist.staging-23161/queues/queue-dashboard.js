"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var QueueDashboardModule_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.QueueDashboardModule = exports.QueueDashboardErrors = exports.QUEUE_DASHBOARD_PATH = void 0;
exports.dashboardRefusal = dashboardRefusal;
exports.dashboardPolicy = dashboardPolicy;
exports.presentedAdminToken = presentedAdminToken;
exports.setupQueueDashboard = setupQueueDashboard;
/**
 * Bull Board, the queue dashboard, at /admin/queues for operators (docs/operations.md, "The queue
 * dashboard"). Off unless ADMIN_TOKEN is set; then every request under it must present the token,
 * as a bearer token or as the password of HTTP basic auth (any user name). It is outside the
 * enterprise API and its API keys. Which queues it shows is the composition root's choice
 * (app.module.ts): this layer knows none.
 *
 * It says and does no more than it must: read-only unless ADMIN_DASHBOARD_WRITE=true (Bull
 * Board's read-only mode hides the buttons and its handlers refuse; in front of them, every
 * request but GET and HEAD is refused here, so a write route a later Bull Board adds is refused
 * too), and never Redis's INFO (version, OS, memory, port) nor its CLIENT LIST (the workers'
 * addresses), in either mode. Its HTML page gets a Content-Security-Policy of its own
 * ({@link dashboardPolicy}): it shares the host with the participant pages and runs script.
 */
const api_1 = require("@bull-board/api");
const bullAdapter_1 = require("@bull-board/api/bullAdapter");
const fastify_1 = require("@bull-board/fastify");
const bull_1 = require("@nestjs/bull");
const common_1 = require("@nestjs/common");
const secrets_1 = require("../common/crypto/secrets");
const common_errors_1 = require("../common/errors/common.errors");
const swagger_ui_headers_1 = require("../common/swagger/swagger-ui-headers");
exports.QUEUE_DASHBOARD_PATH = '/admin/queues';
exports.QueueDashboardErrors = {
    ReadOnly: 'The queue dashboard is read-only (ADMIN_DASHBOARD_WRITE)',
};
/**
 * Bull Board's routes that read Redis itself rather than the queues: `INFO` (redis/stats) and
 * `CLIENT LIST` (a queue's workers). Not found, whatever the mode.
 */
const HIDDEN_ROUTES = [/^\/api\/redis\/stats\/?$/, /^\/api\/queues\/[^/]+\/workers\/?$/];
/** What the dashboard answers to a request, past the token; null: Bull Board answers it. */
function dashboardRefusal(method, url, write) {
    const path = url.split('?')[0].slice(exports.QUEUE_DASHBOARD_PATH.length);
    if (HIDDEN_ROUTES.some((route) => route.test(path))) {
        return { status: 404, error: common_errors_1.CommonErrors.NotFound };
    }
    if (!write && method !== 'GET' && method !== 'HEAD') {
        return { status: 403, error: exports.QueueDashboardErrors.ReadOnly };
    }
    return null;
}
/**
 * The dashboard page's policy (docs/operations.md, "The queue dashboard"): its scripts and
 * stylesheet from this origin only, no inline script and no eval; exactly the inline styles of
 * Bull Board's page (its loading screen), by hash; requests to this origin only (so the Google
 * Fonts stylesheet its page links is not fetched: the system font is used, and no third party
 * learns who opens the dashboard); its `<base href>` kept to this origin; no forms, no framing.
 * Bull Board's page is the same for every request, so the policy is computed once per page text.
 */
function dashboardPolicy(html) {
    return [
        "default-src 'none'",
        "script-src 'self'",
        ['style-src', "'self'", ...(0, swagger_ui_headers_1.inlineStyleSources)(html)].join(' '),
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'self'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ].join('; ');
}
/** The token from `Authorization: Bearer <token>` or `Basic base64(user:token)`. */
function presentedAdminToken(header) {
    if (!header)
        return null;
    const bearer = /^Bearer (\S+)$/i.exec(header);
    if (bearer)
        return bearer[1];
    const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
    if (!basic)
        return null;
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : null;
}
/** The queues the dashboard shows, registered in the API process (workers may run elsewhere). */
let QueueDashboardModule = QueueDashboardModule_1 = class QueueDashboardModule {
    static register(queueNames) {
        const queues = bull_1.BullModule.registerQueue(...queueNames.map((name) => ({ name })));
        return { module: QueueDashboardModule_1, imports: [queues], exports: [queues] };
    }
};
exports.QueueDashboardModule = QueueDashboardModule;
exports.QueueDashboardModule = QueueDashboardModule = QueueDashboardModule_1 = __decorate([
    (0, common_1.Module)({})
], QueueDashboardModule);
async function setupQueueDashboard(app, config, queueNames) {
    if (!config.adminToken)
        return;
    const expected = (0, secrets_1.sha256)(config.adminToken);
    const serverAdapter = new fastify_1.FastifyAdapter();
    serverAdapter.setBasePath(exports.QUEUE_DASHBOARD_PATH);
    const write = config.adminDashboardWrite;
    (0, api_1.createBullBoard)({
        queues: queueNames.map((name) => new bullAdapter_1.BullAdapter(app.get((0, bull_1.getQueueToken)(name), { strict: false }), {
            readOnlyMode: !write,
        })),
        serverAdapter,
        options: { uiConfig: { hideRedisDetails: true, showWorkers: false } },
    });
    const fastify = app.getHttpAdapter().getInstance();
    await fastify.register(async (scope) => {
        scope.addHook('onRequest', (request, reply, done) => {
            const token = presentedAdminToken(request.headers.authorization);
            if (token === null || !(0, secrets_1.sameSecret)(token, expected)) {
                void reply
                    .code(401)
                    .header('www-authenticate', 'Basic realm="queues"')
                    .send({ error: common_errors_1.CommonErrors.Unauthorized });
                return;
            }
            const refusal = dashboardRefusal(request.method, request.url, write);
            if (!refusal)
                return done();
            void reply.code(refusal.status).send({ error: refusal.error });
        });
        const policies = new Map();
        scope.addHook('onSend', (_request, reply, payload, done) => {
            void reply.headers({
                'x-frame-options': 'DENY',
                'referrer-policy': 'no-referrer',
                'x-content-type-options': 'nosniff',
            });
            const type = String(reply.getHeader('content-type') ?? '');
            if (type.startsWith('text/html') && typeof payload === 'string') {
                const policy = policies.get(payload) ?? dashboardPolicy(payload);
                if (policies.size < 8)
                    policies.set(payload, policy);
                void reply.header('content-security-policy', policy);
            }
            done(null, payload);
        });
        await scope.register(serverAdapter.registerPlugin(), { prefix: exports.QUEUE_DASHBOARD_PATH });
    });
}
//# sourceMappingURL=queue-dashboard.js.map
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
import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { FastifyAdapter as BullBoardFastifyAdapter } from '@bull-board/fastify';
import { BullModule, getQueueToken } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bull';
import type { FastifyInstance } from 'fastify';
import { sameSecret, sha256 } from '../common/crypto/secrets';
import { CommonErrors } from '../common/errors/common.errors';
import { inlineStyleSources } from '../common/swagger/swagger-ui-headers';
import type { AppConfig } from '../config/config';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

export const QueueDashboardErrors = {
  ReadOnly: 'The queue dashboard is read-only (ADMIN_DASHBOARD_WRITE)',
} as const;

/**
 * Bull Board's routes that read Redis itself rather than the queues: `INFO` (redis/stats) and
 * `CLIENT LIST` (a queue's workers). Not found, whatever the mode.
 */
const HIDDEN_ROUTES = [/^\/api\/redis\/stats\/?$/, /^\/api\/queues\/[^/]+\/workers\/?$/];

/** What the dashboard answers to a request, past the token; null: Bull Board answers it. */
export function dashboardRefusal(
  method: string,
  url: string,
  write: boolean,
): { status: number; error: string } | null {
  const path = url.split('?')[0].slice(QUEUE_DASHBOARD_PATH.length);
  if (HIDDEN_ROUTES.some((route) => route.test(path))) {
    return { status: 404, error: CommonErrors.NotFound };
  }
  if (!write && method !== 'GET' && method !== 'HEAD') {
    return { status: 403, error: QueueDashboardErrors.ReadOnly };
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
export function dashboardPolicy(html: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    ['style-src', "'self'", ...inlineStyleSources(html)].join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The token from `Authorization: Bearer <token>` or `Basic base64(user:token)`. */
export function presentedAdminToken(header: string | undefined): string | null {
  if (!header) return null;
  const bearer = /^Bearer (\S+)$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : null;
}

/** The queues the dashboard shows, registered in the API process (workers may run elsewhere). */
@Module({})
export class QueueDashboardModule {
  static register(queueNames: readonly string[]): DynamicModule {
    const queues = BullModule.registerQueue(...queueNames.map((name) => ({ name })));
    return { module: QueueDashboardModule, imports: [queues], exports: [queues] };
  }
}

export async function setupQueueDashboard(
  app: NestFastifyApplication,
  config: AppConfig,
  queueNames: readonly string[],
): Promise<void> {
  if (!config.adminToken) return;
  const expected = sha256(config.adminToken);
  const serverAdapter = new BullBoardFastifyAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
  const write = config.adminDashboardWrite;
  createBullBoard({
    queues: queueNames.map(
      (name) =>
        new BullAdapter(app.get<Queue>(getQueueToken(name), { strict: false }), {
          readOnlyMode: !write,
        }),
    ),
    serverAdapter,
    options: { uiConfig: { hideRedisDetails: true, showWorkers: false } },
  });
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(async (scope: FastifyInstance) => {
    scope.addHook('onRequest', (request, reply, done) => {
      const token = presentedAdminToken(request.headers.authorization);
      if (token === null || !sameSecret(token, expected)) {
        void reply
          .code(401)
          .header('www-authenticate', 'Basic realm="queues"')
          .send({ error: CommonErrors.Unauthorized });
        return;
      }
      const refusal = dashboardRefusal(request.method, request.url, write);
      if (!refusal) return done();
      void reply.code(refusal.status).send({ error: refusal.error });
    });
    const policies = new Map<string, string>();
    scope.addHook('onSend', (_request, reply, payload, done) => {
      void reply.headers({
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      });
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('text/html') && typeof payload === 'string') {
        const policy = policies.get(payload) ?? dashboardPolicy(payload);
        if (policies.size < 8) policies.set(payload, policy);
        void reply.header('content-security-policy', policy);
      }
      done(null, payload);
    });
    await scope.register(serverAdapter.registerPlugin() as never, { prefix: QUEUE_DASHBOARD_PATH });
  });
}

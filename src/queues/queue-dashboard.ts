/**
 * Bull Board, the queue dashboard, at /admin/queues for operators. Off unless ADMIN_TOKEN is
 * set; then every request under it must present the token, as a bearer token or as the password
 * of HTTP basic auth (any user name). It is outside the enterprise API and its API keys. Which
 * queues it shows is the composition root's choice (app.module.ts): this layer knows none.
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
import type { AppConfig } from '../config/config';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

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
  createBullBoard({
    queues: queueNames.map(
      (name) => new BullAdapter(app.get<Queue>(getQueueToken(name), { strict: false })),
    ),
    serverAdapter,
  });
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(async (scope: FastifyInstance) => {
    scope.addHook('onRequest', (request, reply, done) => {
      const token = presentedAdminToken(request.headers.authorization);
      if (token !== null && sameSecret(token, expected)) return done();
      void reply
        .code(401)
        .header('www-authenticate', 'Basic realm="queues"')
        .send({ error: CommonErrors.Unauthorized });
    });
    await scope.register(serverAdapter.registerPlugin() as never, { prefix: QUEUE_DASHBOARD_PATH });
  });
}

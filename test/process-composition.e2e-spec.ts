/**
 * What each process loads (docs/design.md): the worker process runs the queue consumers and serves
 * nothing; the API process runs them too only with RUN_WORKERS=true.
 */
import { ModulesContainer, NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '../src/config/config';
import { EmailProcessor } from '../src/interact/sending/email.processor';
import { EmailSweeper } from '../src/interact/sending/email.sweeper';
import { DeliveryProcessor } from '../src/webhooks/delivery/delivery.processor';
import { DeliverySweeper } from '../src/webhooks/delivery/delivery.sweeper';
import { RetentionSweeper } from '../src/data-at-rest/retention.sweeper';
import { WorkerModule } from '../src/worker.module';
import { createTestDatabase, databaseUrl, dropDatabase } from './support/databases';
import { startTestApp } from './support/test-app';

const CONSUMERS = [
  DeliveryProcessor,
  DeliverySweeper,
  EmailProcessor,
  EmailSweeper,
  RetentionSweeper,
];

/** The names of every controller, and every provider class, the process has loaded. */
function loaded(app: INestApplicationContext): { controllers: string[]; providers: unknown[] } {
  const modules = [...app.get(ModulesContainer).values()];
  return {
    controllers: modules.flatMap((module) =>
      [...module.controllers.values()].map((wrapper) => String(wrapper.name)),
    ),
    providers: modules.flatMap((module) => [...module.providers.keys()]),
  };
}

const has = (app: INestApplicationContext, consumer: (typeof CONSUMERS)[number]): boolean =>
  loaded(app).providers.includes(consumer);

describe('process composition', () => {
  it('the worker process loads every queue consumer and no controller', async () => {
    const databaseName = await createTestDatabase();
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl(databaseName),
      QUEUE_PREFIX: databaseName,
    });
    const worker = await NestFactory.createApplicationContext(WorkerModule.register(config), {
      logger: false,
    });
    try {
      expect(loaded(worker).controllers).toEqual([]);
      for (const consumer of CONSUMERS) expect(has(worker, consumer)).toBe(true);
    } finally {
      await worker.close();
      await dropDatabase(databaseName);
    }
  });

  it('the API process runs the consumers only with RUN_WORKERS=true', async () => {
    const api = await startTestApp({ RUN_WORKERS: 'false' });
    try {
      expect(loaded(api.app).controllers).toContain('GroupsController');
      for (const consumer of CONSUMERS) expect(has(api.app, consumer)).toBe(false);
    } finally {
      await api.close();
    }
    const all = await startTestApp({ RUN_WORKERS: 'true' });
    try {
      for (const consumer of CONSUMERS) expect(has(all.app, consumer)).toBe(true);
    } finally {
      await all.close();
    }
  });
});

import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { CryptoModule } from './common/crypto/crypto.module';
import { buildLoggerOptions } from './common/logging/logger-options';
import type { AppConfig } from './config/config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { buildDataSourceOptions } from './database/typeorm-options';
import { bullRoot } from './queues/bull-root';
import { WebhooksModule } from './webhooks/webhooks.module';
import { InteractModule } from './interact/interact.module';

/** The worker process: queue processors and the delivery sweeper, no HTTP. */
@Module({})
export class WorkerModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        AppConfigModule.register(config),
        LoggerModule.forRoot(buildLoggerOptions(config)),
        TypeOrmModule.forRoot(buildDataSourceOptions(config)),
        DatabaseModule,
        CryptoModule,
        bullRoot(config),
        WebhooksModule.register({ workers: true }),
        InteractModule.register({ workers: true }),
      ],
    };
  }
}

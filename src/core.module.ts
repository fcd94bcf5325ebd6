import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { CryptoModule } from './common/crypto/crypto.module';
import { MeasurementsModule } from './common/measurements/measurements';
import { TracingShutdown } from './common/telemetry/tracing-shutdown';
import { buildLoggerOptions } from './common/logging/logger-options';
import type { AppConfig } from './config/config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';

/**
 * What every process (API, worker, CLI) is built on, each piece global: the validated
 * configuration, PostgreSQL, the PII cipher, the registry of measurements (docs/operations.md)
 * and, except for the CLI, structured logs; and the last spans sent at shutdown when tracing is
 * on (docs/operations.md, "Traces").
 */
@Module({})
export class CoreModule {
  static register(
    config: AppConfig,
    options: { logs?: boolean; poolSize?: number } = {},
  ): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        AppConfigModule.register(config),
        ...(options.logs === false ? [] : [LoggerModule.forRoot(buildLoggerOptions(config))]),
        DatabaseModule.forRoot(config, { poolSize: options.poolSize }),
        CryptoModule,
        MeasurementsModule,
      ],
      providers: [TracingShutdown],
    };
  }
}

import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { ApiKeyGuard } from './common/auth/api-key.guard';
import { LifecycleModule } from './common/lifecycle/shutdown-state';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { AllExceptionsFilter } from './common/http/all-exceptions.filter';
import { buildLoggerOptions } from './common/logging/logger-options';
import { SpecValidationPipe } from './common/validation/spec-validation.pipe';
import { AppConfig } from './config/config';
import { AppConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { buildDataSourceOptions } from './database/typeorm-options';
import { EnterprisesModule } from './enterprises/enterprises.module';
import { GroupsModule } from './groups/groups.module';
import { ParticipantsModule } from './participants/participants.module';
import { SessionsModule } from './sessions/sessions.module';
import { CheckinPagesModule } from './checkin/pages/checkin-pages.module';
import { PrivacyModule } from './privacy/privacy.module';
import { IngestionModule } from './checkin/ingestion/ingestion.module';
import { CryptoModule } from './common/crypto/crypto.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { bullRoot } from './queues/bull-root';
import { WebhooksModule } from './webhooks/webhooks.module';
import { InteractModule } from './interact/interact.module';

/**
 * The HTTP API process. The guard, pipe and filter are registered here (not in
 * main.ts) so a test app built from this module gets exactly what production gets.
 */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.register(config),
        LoggerModule.forRoot(buildLoggerOptions(config)),
        LifecycleModule,
        TypeOrmModule.forRoot(buildDataSourceOptions(config)),
        DatabaseModule,
        RateLimitModule,
        EnterprisesModule,
        CryptoModule,
        GroupsModule,
        ParticipantsModule,
        SessionsModule,
        CheckinPagesModule,
        PrivacyModule,
        IngestionModule,
        bullRoot(config),
        WebhooksModule.register({ workers: config.runWorkers }),
        InteractModule.register({ workers: config.runWorkers }),
        MetricsModule,
        HealthModule,
      ],
      providers: [
        // Guards run in this order: authenticate, then count the request against the key's limit.
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_PIPE, useClass: SpecValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}

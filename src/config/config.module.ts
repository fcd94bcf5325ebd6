import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './config';

/** Injection token for the typed configuration: `@Inject(APP_CONFIG) config: AppConfig`. */
export const APP_CONFIG = Symbol('APP_CONFIG');

/**
 * Provides the already-validated configuration to every module. The process entry points
 * (main.ts, worker.ts, cli.ts) load it once from process.env; tests pass their own.
 */
@Global()
@Module({})
export class AppConfigModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}

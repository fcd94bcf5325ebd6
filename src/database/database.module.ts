import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import { Database } from './database';
import { buildDataSourceOptions } from './typeorm-options';

/** The `pg` pool inside TypeORM's PostgreSQL driver. */
const poolOf = (dataSource: DataSource): Pool =>
  (dataSource.driver as unknown as { master: Pool }).master;

/**
 * PostgreSQL for every process: TypeORM's DataSource (entities, pool) and the `Database` that
 * repositories inject. Each process entry module imports `DatabaseModule.forRoot(config)`.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig, overrides: { poolSize?: number } = {}): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot(buildDataSourceOptions(config, overrides))],
      providers: [
        {
          provide: Database,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => new Database(poolOf(dataSource)),
        },
      ],
      exports: [Database],
    };
  }
}

import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/config';
import { ENTITIES } from './entities';

/**
 * Compiled (dist/database/*.js) the migrations are dist/migrations/*.js; from source (jest,
 * src/database/*.ts) they are the top-level migrations/*.ts.
 */
const MIGRATIONS_GLOB = __filename.endsWith('.ts')
  ? join(__dirname, '..', '..', 'migrations', '*.ts')
  : join(__dirname, '..', 'migrations', '*.js');

export function buildDataSourceOptions(config: AppConfig): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.database.url,
    entities: ENTITIES,
    migrations: [MIGRATIONS_GLOB],
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: config.database.poolSize,
      connectionTimeoutMillis: 5_000,
      application_name: 'checkin-service',
    },
  };
}

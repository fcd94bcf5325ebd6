/**
 * The DataSource the TypeORM CLI uses (`npm run migration:generate|run|revert`), from the compiled
 * output: `typeorm -d dist/database/data-source.js …`.
 */
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/config';
import { withLocalSecrets } from '../config/local-secrets';
import { buildDataSourceOptions } from './typeorm-options';

export default new DataSource(
  buildDataSourceOptions(loadConfig(withLocalSecrets(process.env).env)),
);

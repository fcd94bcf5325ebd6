/**
 * The DataSource the TypeORM CLI uses (`npm run migration:generate|run|revert`), from the compiled
 * output: `typeorm -d dist/database/data-source.js …`. A configuration the service would refuse is
 * refused here in one line on stderr, exit code 1 (what to set, as the service says it), not in
 * TypeORM's stack trace of a data source it could not open.
 */
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../config/config';
import { withLocalSecrets } from '../config/local-secrets';
import { buildDataSourceOptions } from './typeorm-options';

function options() {
  try {
    return buildDataSourceOptions(loadConfig(withLocalSecrets(process.env).env, 'migrations'));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

export default new DataSource(options());

"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * The DataSource the TypeORM CLI uses (`npm run migration:generate|run|revert`), from the compiled
 * output: `typeorm -d dist/database/data-source.js …`. A configuration the service would refuse is
 * refused here in one line on stderr, exit code 1 (what to set, as the service says it), not in
 * TypeORM's stack trace of a data source it could not open.
 */
const typeorm_1 = require("typeorm");
const config_1 = require("../config/config");
const local_secrets_1 = require("../config/local-secrets");
const typeorm_options_1 = require("./typeorm-options");
function options() {
    try {
        return (0, typeorm_options_1.buildDataSourceOptions)((0, config_1.loadConfig)((0, local_secrets_1.withLocalSecrets)(process.env).env, 'migrations'));
    }
    catch (error) {
        if (!(error instanceof config_1.ConfigError))
            throw error;
        console.error(error.message);
        process.exit(1);
    }
}
exports.default = new typeorm_1.DataSource(options());
//# sourceMappingURL=data-source.js.map
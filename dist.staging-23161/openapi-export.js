"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COMMITTED_SERVER_URL = void 0;
exports.committedOpenApiDocument = committedOpenApiDocument;
/**
 * The committed OpenAPI document (docs/integrating.md): `npm run openapi` writes `openapi.json` and the
 * typed client's `clients/typescript/src/schema.ts` from it (scripts/openapi.js), and CI fails
 * when either is stale. The document is built from the same modules and the same builder as the
 * one the API serves at /docs-json, with Nest's preview mode: controllers and their metadata are
 * read, no provider is instantiated, so neither PostgreSQL nor Redis is needed.
 */
require("reflect-metadata");
const core_1 = require("@nestjs/core");
const platform_fastify_1 = require("@nestjs/platform-fastify");
const app_module_1 = require("./app.module");
const openapi_1 = require("./common/swagger/openapi");
const config_1 = require("./config/config");
/** The server the committed document names (what `npm start` serves). */
exports.COMMITTED_SERVER_URL = 'http://localhost:3000';
async function committedOpenApiDocument() {
    // Placeholders only: in preview mode nothing connects or reads a secret.
    const config = (0, config_1.loadConfig)({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: 'postgres://127.0.0.1:5432/openapi-preview',
        PUBLIC_BASE_URL: exports.COMMITTED_SERVER_URL,
    });
    const app = await core_1.NestFactory.create(app_module_1.AppModule.register(config), new platform_fastify_1.FastifyAdapter(), {
        preview: true,
        logger: false,
        abortOnError: false,
    });
    return (0, openapi_1.buildOpenApiDocument)(app, exports.COMMITTED_SERVER_URL);
}
//# sourceMappingURL=openapi-export.js.map
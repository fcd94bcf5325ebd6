"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.serviceVersion = serviceVersion;
exports.buildOpenApiDocument = buildOpenApiDocument;
exports.setupOpenApi = setupOpenApi;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const swagger_1 = require("@nestjs/swagger");
const enterprise_decorator_1 = require("../auth/enterprise.decorator");
const api_errors_decorator_1 = require("./api-errors.decorator");
const body_answers_1 = require("./body-answers");
const named_schemas_1 = require("./named-schemas");
const swagger_ui_headers_1 = require("./swagger-ui-headers");
const DESCRIPTION = `Wellbeing check-ins for enterprises.

Every endpoint needs the header \`x-api-key\` with your enterprise's API key; a missing, unknown or
revoked key is answered \`401 {"error":"Unauthorized"}\` before anything else is checked.

Errors are always \`{"error": "<message>"}\`. A 400 carries the first failing check's message, in
the order each endpoint lists them.

Each API key has a rate limit shared by every endpoint; answers carry \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (seconds). Past it: \`429
{"error":"Too many requests"}\` with \`Retry-After\` (seconds). The same 429 answers a request with
a missing or wrong key from a client address that sent too many of them within a minute, until
that minute is over; a valid key is never refused for other clients' failures.

To try a whole flow without participants, use a sandbox enterprise's key: \`POST
/sandbox/sessions/{sessionID}/complete\` completes a session through the real ingestion path and
\`GET /sandbox/emails\` lists the mails it captured instead of sending them. This document is
also committed as \`openapi.json\`, and a typed TypeScript client generated from it lives in
\`clients/typescript/\`.`;
/**
 * The service's version, `version` of its package.json (the document's `info.version`). Three
 * folders up from this file, in `src/` (ts-jest) as in `dist/`.
 */
function serviceVersion() {
    const manifest = (0, node_path_1.join)(__dirname, '..', '..', '..', 'package.json');
    const { version } = JSON.parse((0, node_fs_1.readFileSync)(manifest, 'utf8'));
    if (typeof version !== 'string' || version === '') {
        throw new Error(`${manifest} has no version`);
    }
    return version;
}
function buildOpenApiDocument(app, publicBaseUrl) {
    const config = new swagger_1.DocumentBuilder()
        .setTitle('Check-in Integration Service')
        .setDescription(DESCRIPTION)
        .setVersion(serviceVersion())
        .addServer(publicBaseUrl)
        .addApiKey({
        type: 'apiKey',
        in: 'header',
        name: enterprise_decorator_1.API_KEY_HEADER,
        description: 'Enterprise API key (ck_…)',
    }, api_errors_decorator_1.API_KEY_SECURITY)
        .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ENGINE_TOKEN (analysis engine only)' }, 'engine-token')
        .build();
    const document = swagger_1.SwaggerModule.createDocument(app, config);
    document.components = {
        ...document.components,
        schemas: { ...document.components?.schemas, ...(0, named_schemas_1.namedSchemas)() },
    };
    (0, body_answers_1.completeOperations)(document);
    return document;
}
/**
 * Swagger UI at /docs, with a Content-Security-Policy of its own (swagger-ui-headers.ts), and the
 * JSON document at /docs-json (both public).
 */
function setupOpenApi(app, publicBaseUrl) {
    (0, swagger_ui_headers_1.installSwaggerUiHeaders)(app.getHttpAdapter().getInstance(), '/docs', publicBaseUrl);
    swagger_1.SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, publicBaseUrl), {
        jsonDocumentUrl: 'docs-json',
        yamlDocumentUrl: 'docs-yaml',
        // Without the standalone top bar: its Swagger logo is an SVG with a <style> element, which
        // the policy would refuse, and its spec-URL box is hidden by the page anyway.
        swaggerOptions: { layout: 'BaseLayout' },
    });
}
//# sourceMappingURL=openapi.js.map
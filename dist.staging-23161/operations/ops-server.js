"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.OpsServer = exports.OpsPortInUseError = void 0;
const node_http_1 = require("node:http");
const common_errors_1 = require("../common/errors/common.errors");
/** The operations port is taken: the process stops with this one line (docs/operations.md). */
class OpsPortInUseError extends Error {
    constructor(host, port) {
        super(`OPS_PORT ${port} is already in use on ${host}: another process listens there. Give each ` +
            'process its own OPS_PORT (OPS_PORT=0 turns the operations port off).');
        this.name = 'OpsPortInUseError';
    }
}
exports.OpsPortInUseError = OpsPortInUseError;
const JSON_TYPE = 'application/json; charset=utf-8';
/** A `{"error": …}` body with one of the shared messages (docs/api.md). */
const errorBody = (message) => JSON.stringify({ error: message });
/**
 * The operations port of the API and the worker (docs/operations.md, "Monitoring"): `GET /metrics`
 * (Prometheus text), `/livez` and `/readyz`, and nothing else — unknown paths are 404, and none of
 * it is on the API port, whose `/metrics/…` routes are the product's.
 *
 * Plain `node:http` rather than a second Fastify instance: three fixed GET routes need no router,
 * body parsing, hooks or plugins, and a server of its own shares none of the API's (its guards,
 * rate limits, access log and request-duration hook): a scrape is never counted as API traffic,
 * never limited and never logged, and the port works the same in the worker, which has no HTTP
 * server. It listens before the application is loaded, so a port already in use stops the process
 * before any worker has leased anything; until {@link serve} is called `/livez` answers 200 and
 * `/readyz` and `/metrics` 503 (starting).
 */
class OpsServer {
    server;
    targets = null;
    constructor(server) {
        this.server = server;
    }
    /** Listens on host:port; rejects with OpsPortInUseError when the port is taken. */
    static listen(host, port) {
        return new Promise((resolve, reject) => {
            const server = (0, node_http_1.createServer)();
            const ops = new OpsServer(server);
            server.on('request', (request, response) => {
                void ops.answer(request, response);
            });
            server.once('error', (error) => reject(error.code === 'EADDRINUSE' ? new OpsPortInUseError(host, port) : error));
            server.listen({ host, port }, () => resolve(ops));
        });
    }
    /** host:port it listens on. */
    get address() {
        const { address, port } = this.server.address();
        return `${address.includes(':') ? `[${address}]` : address}:${port}`;
    }
    /** The application is up: serve its figures and its readiness. */
    serve(targets) {
        this.targets = targets;
    }
    /** Stops listening and closes every connection (the process is stopping). */
    close() {
        return new Promise((resolve) => {
            this.server.close(() => resolve());
            this.server.closeAllConnections();
        });
    }
    async answer(request, response) {
        const path = (request.url ?? '/').split('?')[0];
        if (path !== '/metrics' && path !== '/livez' && path !== '/readyz') {
            return send(response, 404, JSON_TYPE, errorBody(common_errors_1.CommonErrors.NotFound));
        }
        if (request.method !== 'GET' && request.method !== 'HEAD') {
            response.setHeader('allow', 'GET, HEAD');
            return send(response, 405, JSON_TYPE, errorBody(common_errors_1.CommonErrors.MethodNotAllowed));
        }
        if (path === '/livez')
            return send(response, 200, JSON_TYPE, '{"status":"ok"}');
        const targets = this.targets;
        if (!targets)
            return send(response, 503, JSON_TYPE, '{"status":"starting"}');
        try {
            if (path === '/metrics') {
                return send(response, 200, targets.registry.contentType, await targets.registry.metrics());
            }
            const report = await targets.readiness();
            const status = report.status === 'ready' ? 200 : 503;
            return send(response, status, JSON_TYPE, JSON.stringify(report));
        }
        catch {
            return send(response, 500, JSON_TYPE, errorBody(common_errors_1.CommonErrors.InternalServerError));
        }
    }
}
exports.OpsServer = OpsServer;
function send(response, status, type, body) {
    response.writeHead(status, {
        'content-type': type,
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
    });
    response.end(response.req.method === 'HEAD' ? undefined : body);
}
//# sourceMappingURL=ops-server.js.map
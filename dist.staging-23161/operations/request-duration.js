"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UNMATCHED_ROUTE = void 0;
exports.installRequestDuration = installRequestDuration;
const fast_histogram_1 = require("../common/measurements/fast-histogram");
/** The route label of a request no route matched (404s, unroutable URLs). */
exports.UNMATCHED_ROUTE = 'unmatched';
/** OpenTelemetry's advice for http.server.request.duration, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/**
 * `http_server_request_duration_seconds` (docs/operations.md, "Metrics"): every answer of the API
 * by route template (`/sessions/:sessionID`, never the URL: no identifier reaches a label; no
 * route: `unmatched`), method and status code. One `onResponse` hook reading the time Fastify
 * already measured (`reply.elapsedTime`); the labelled series are looked up in nested maps keyed
 * by strings the request already holds, so a request allocates no label object or key, and an
 * observation is a few additions (FastHistogram; prom-client's own `observe` cost about 4 % of
 * the API's CPU under load). Installed only while the operations port is on (OPS_PORT=0: no hook
 * at all).
 */
function installRequestDuration(fastify, measurements) {
    const histogram = new fast_histogram_1.FastHistogram('http_server_request_duration_seconds', 'Duration of the API answers, from routing to the last byte, by route template, method and status code.', BUCKETS, measurements.registry);
    const series = new Map();
    const seriesOf = (route, method, status) => {
        let byMethod = series.get(route);
        if (!byMethod)
            series.set(route, (byMethod = new Map()));
        let byStatus = byMethod.get(method);
        if (!byStatus)
            byMethod.set(method, (byStatus = new Map()));
        let child = byStatus.get(status);
        if (!child) {
            child = histogram.series({ route, method, status_code: String(status) });
            byStatus.set(status, child);
        }
        return child;
    };
    fastify.addHook('onResponse', (request, reply, done) => {
        seriesOf(request.routeOptions.url ?? exports.UNMATCHED_ROUTE, request.method, reply.statusCode).observe(reply.elapsedTime / 1_000);
        done();
    });
}
//# sourceMappingURL=request-duration.js.map
import type { FastifyInstance } from 'fastify';
import type { Histogram } from 'prom-client';
import { Measurements } from '../common/measurements/measurements';

/** The route label of a request no route matched (404s, unroutable URLs). */
export const UNMATCHED_ROUTE = 'unmatched';

/** OpenTelemetry's advice for http.server.request.duration, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

type Child = Histogram.Internal<'route' | 'method' | 'status_code'>;

/**
 * `http_server_request_duration_seconds` (docs/operations.md, "Metrics"): every answer of the API
 * by route template (`/sessions/:sessionID`, never the URL: no identifier reaches a label; no
 * route: `unmatched`), method and status code. One `onResponse` hook reading the time Fastify
 * already measured (`reply.elapsedTime`); the labelled series are looked up in nested maps keyed
 * by strings the request already holds, so a request allocates no label object or key. Installed
 * only while the operations port is on (OPS_PORT=0: no hook at all).
 */
export function installRequestDuration(fastify: FastifyInstance, measurements: Measurements): void {
  const histogram = measurements.histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of the API answers, from routing to the last byte, by route template, method and status code.',
    labelNames: ['route', 'method', 'status_code'],
    buckets: BUCKETS,
  });
  const series = new Map<string, Map<string, Map<number, Child>>>();
  const seriesOf = (route: string, method: string, status: number): Child => {
    let byMethod = series.get(route);
    if (!byMethod) series.set(route, (byMethod = new Map<string, Map<number, Child>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, Child>()));
    let child = byStatus.get(status);
    if (!child) {
      child = histogram.labels({ route, method, status_code: String(status) });
      byStatus.set(status, child);
    }
    return child;
  };
  fastify.addHook('onResponse', (request, reply, done) => {
    seriesOf(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode).observe(
      reply.elapsedTime / 1_000,
    );
    done();
  });
}

import { Histogram, Registry } from 'prom-client';
import { FastHistogram } from './fast-histogram';

describe('FastHistogram', () => {
  const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 10];
  const LABELS = [
    { route: '/groups', method: 'GET', status_code: '200' },
    { route: '/sessions/:sessionID', method: 'GET', status_code: '400' },
    { route: 'unmatched', method: 'POST', status_code: '404' },
    { route: '/a "quoted" \\ route\n', method: 'GET', status_code: '200' },
  ];

  it('exposes exactly what prom-client’s Histogram exposes for the same observations', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const histogram = new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration.',
      labelNames: ['route', 'method', 'status_code'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const fast = new FastHistogram(
      'http_server_request_duration_seconds',
      'Duration.',
      BOUNDS,
      ours,
    );
    // Series are made on their first observation, as request-duration.ts makes them: prom-client
    // lists series in the order they were first observed.
    const series: ReturnType<FastHistogram['series']>[] = [];
    const values = [0, 0.005, 0.0051, 0.3, 1, 7.5, 10, 10.01, 1e6, 0.025, 0.00001];
    values.forEach((value, i) => {
      for (let s = 0; s < LABELS.length; s++) {
        if ((i + s) % 3 === 0) continue; // series see different values
        histogram.observe(LABELS[s], value);
        (series[s] ??= fast.series(LABELS[s])).observe(value);
      }
    });
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'http_server_request_duration_seconds_bucket{le="+Inf",route="/groups",method="GET",status_code="200"} 7',
    );

    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toContain(
      'http_server_request_duration_seconds_count{route="/groups",method="GET",status_code="200"} 0',
    );
  });
});

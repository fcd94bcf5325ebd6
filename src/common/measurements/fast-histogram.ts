import type { Metric, Registry } from 'prom-client';

/** One labelled series: its label values, a count per bucket (not cumulative), sum and count. */
export interface FastHistogramSeries {
  observe(value: number): void;
}

interface Series extends FastHistogramSeries {
  readonly labels: Readonly<Record<string, string>>;
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram for the hot path (docs/operations.md, "Metrics": the request-duration
 * histogram, observed on every API answer). prom-client's `Histogram#observe` validates and hashes
 * the labels and converts the bucket's bound to a property name on every call: about 4 % of the
 * API's CPU under load in a profile; the request-duration hook is now about 0.6 % (`node
 * bench/run.js instrumentation`, `node bench/profile.js groups`; docs/performance.md, "Headline
 * figures"). Here a series is resolved once by its caller and an observation is a loop over the
 * bounds and three additions; the exposition is prom-client's own, from the same values its
 * Histogram would give it (`get()`), so `/metrics` reads the same (`fast-histogram.spec.ts`
 * compares both, byte for byte).
 */
export class FastHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly bounds: Float64Array;
  private readonly all: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    bounds: readonly number[],
    registry: Registry,
  ) {
    this.bounds = Float64Array.from([...bounds].sort((a, b) => a - b));
    // prom-client formats any object with `name`, `help`, `type` and `get()`; its types only name
    // its own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  /** A new series with these label values (the caller keeps it: one per label combination). */
  series(labels: Record<string, string>): FastHistogramSeries {
    const bounds = this.bounds;
    const series: Series = {
      labels: { ...labels },
      counts: new Float64Array(bounds.length),
      sum: 0,
      count: 0,
      observe(value: number) {
        let i = 0;
        while (i < bounds.length && value > bounds[i]) i++;
        if (i < bounds.length) this.counts[i] += 1;
        this.sum += value;
        this.count += 1;
      },
    };
    this.all.push(series);
    return series;
  }

  /** What prom-client's Histogram would answer for the same observations. */
  get(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    aggregator: 'sum';
    values: { labels: Record<string, string | number>; value: number; metricName: string }[];
  }> {
    const values = [];
    for (const series of this.all) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += series.counts[i];
        values.push({
          labels: { le: this.bounds[i], ...series.labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      }
      values.push(
        {
          labels: { le: '+Inf', ...series.labels },
          value: series.count,
          metricName: `${this.name}_bucket`,
        },
        { labels: { ...series.labels }, value: series.sum, metricName: `${this.name}_sum` },
        { labels: { ...series.labels }, value: series.count, metricName: `${this.name}_count` },
      );
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    });
  }

  /** prom-client's `Registry#resetMetrics`. */
  reset(): void {
    for (const series of this.all) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}

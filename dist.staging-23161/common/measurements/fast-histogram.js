"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FastHistogram = void 0;
/**
 * A Prometheus histogram for the hot path (docs/operations.md, "Metrics": the request-duration
 * histogram, observed on every API answer). prom-client's `Histogram#observe` validates and hashes
 * the labels and converts the bucket's bound to a property name on every call: about 4 % of the
 * API's CPU under load in a profile (bench/RESULTS.md, instrumentation). Here a series is resolved
 * once by its caller and an observation is a loop over the bounds and three additions; the
 * exposition is prom-client's own, from the same values its Histogram would give it (`get()`), so
 * `/metrics` reads the same (`fast-histogram.spec.ts` compares both, byte for byte).
 */
class FastHistogram {
    name;
    help;
    type = 'histogram';
    aggregator = 'sum';
    bounds;
    all = [];
    constructor(name, help, bounds, registry) {
        this.name = name;
        this.help = help;
        this.bounds = Float64Array.from([...bounds].sort((a, b) => a - b));
        // prom-client formats any object with `name`, `help`, `type` and `get()`; its types only name
        // its own classes.
        registry.registerMetric(this);
    }
    /** A new series with these label values (the caller keeps it: one per label combination). */
    series(labels) {
        const bounds = this.bounds;
        const series = {
            labels: { ...labels },
            counts: new Float64Array(bounds.length),
            sum: 0,
            count: 0,
            observe(value) {
                let i = 0;
                while (i < bounds.length && value > bounds[i])
                    i++;
                if (i < bounds.length)
                    this.counts[i] += 1;
                this.sum += value;
                this.count += 1;
            },
        };
        this.all.push(series);
        return series;
    }
    /** What prom-client's Histogram would answer for the same observations. */
    get() {
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
            values.push({
                labels: { le: '+Inf', ...series.labels },
                value: series.count,
                metricName: `${this.name}_bucket`,
            }, { labels: { ...series.labels }, value: series.sum, metricName: `${this.name}_sum` }, { labels: { ...series.labels }, value: series.count, metricName: `${this.name}_count` });
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
    reset() {
        for (const series of this.all) {
            series.counts.fill(0);
            series.sum = 0;
            series.count = 0;
        }
    }
}
exports.FastHistogram = FastHistogram;
//# sourceMappingURL=fast-histogram.js.map
import { Global, Injectable, Module } from '@nestjs/common';
import {
  Counter,
  type CounterConfiguration,
  Gauge,
  type GaugeConfiguration,
  Histogram,
  type HistogramConfiguration,
  type Metric,
  Registry,
} from 'prom-client';

type Config<C> = Omit<C, 'registers'>;

/**
 * This process's Prometheus registry (docs/operations.md, "Metrics"), served as `GET /metrics`
 * on the operations port. One per application: each module registers the figures of what it does
 * when the process loads it (the API its requests, a worker its deliveries and mails), so a
 * process exposes what it runs and nothing else. No figure is labelled with a tenant,
 * participant, group or other identifier: labels take a few fixed values each.
 */
@Injectable()
export class Measurements {
  readonly registry = new Registry();

  counter<L extends string>(config: Config<CounterConfiguration<L>>): Counter<L> {
    return (
      this.registered(config.name, Counter) ??
      new Counter({ ...config, registers: [this.registry] })
    );
  }

  gauge<L extends string>(config: Config<GaugeConfiguration<L>>): Gauge<L> {
    return (
      this.registered(config.name, Gauge) ?? new Gauge({ ...config, registers: [this.registry] })
    );
  }

  histogram<L extends string>(config: Config<HistogramConfiguration<L>>): Histogram<L> {
    return (
      this.registered(config.name, Histogram) ??
      new Histogram({ ...config, registers: [this.registry] })
    );
  }

  /** The figure of that name a module sharing it registered first (one registry, one name). */
  private registered<M extends Metric>(
    name: string,
    kind: abstract new (...args: never[]) => M,
  ): M | undefined {
    const existing = this.registry.getSingleMetric(name);
    if (existing === undefined) return undefined;
    if (!(existing instanceof kind)) throw new Error(`${name} is registered as another kind`);
    return existing;
  }
}

/** The registry, for every module of the process (imported by CoreModule). */
@Global()
@Module({ providers: [Measurements], exports: [Measurements] })
export class MeasurementsModule {}

/**
 * A reading taken when Prometheus scrapes (in gauges' `collect()`), shared by the gauges that
 * show parts of it: prom-client collects every figure of a scrape at once, so they all receive
 * the one query in flight. A reading that fails or takes longer than `timeoutMs` yields null —
 * the gauges then show NaN — instead of failing the whole scrape: a PostgreSQL outage is what
 * /readyz and `checkin_dependency_up` report.
 */
export function scrapeReading<T>(
  read: () => Promise<T>,
  timeoutMs = 3_000,
): () => Promise<T | null> {
  let inFlight: Promise<T | null> | null = null;
  const take = async (): Promise<T | null> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    try {
      return await Promise.race([read(), late]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
      inFlight = null;
    }
  };
  return () => (inFlight ??= take());
}

import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { Measurements } from '../measurements/measurements';

/** Which limit refused a request (docs/api.md): per API key, per client address, auth failures. */
export type RateLimit = 'api_key' | 'client_address' | 'auth_failures';
const LIMITS: readonly RateLimit[] = ['api_key', 'client_address', 'auth_failures'];

/**
 * `checkin_rate_limit_refusals_total{limit}` (docs/operations.md, "Metrics"): requests answered
 * 429 by each limit. Never labelled with the key, the enterprise or the address.
 */
@Injectable()
export class RateLimitRefusals {
  private readonly counter: Counter<'limit'>;

  constructor(measurements: Measurements) {
    this.counter = measurements.counter({
      name: 'checkin_rate_limit_refusals_total',
      help: 'Requests refused with 429, by limit: api_key (RATE_LIMIT_REQUESTS), client_address (PUBLIC_RATE_LIMIT_REQUESTS), auth_failures (AUTH_FAILURE_LIMIT).',
      labelNames: ['limit'],
    });
    for (const limit of LIMITS) this.counter.inc({ limit }, 0);
  }

  refused(limit: RateLimit): void {
    this.counter.inc({ limit });
  }
}

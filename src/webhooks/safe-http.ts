/**
 * Outgoing webhook requests (docs/webhooks.md), sent with undici (the HTTP client Node's own
 * `fetch` is built on): a pool of keep-alive connections per endpoint origin, at a fraction of
 * `http.request`'s work a request (docs/performance.md, "Fifth pass"). The SSRF guard resolves the
 * host itself, refuses every address that is not public unicast (common/net/public-address.ts:
 * loopback, private, link-local, CGNAT, metadata, multicast, reserved; IPv4, IPv6, IPv4-mapped
 * and IPv4-compatible IPv6), and connects to the address it checked — every new connection's
 * socket is given that address through `lookup`, so there is no second resolution to race, and a
 * kept-alive connection is one that was checked when it opened. Redirects are never followed; the
 * response body is read up to 64 KiB. Errors keep their codes (Node's ECONNREFUSED, ENOTFOUND, …
 * and undici's UND_ERR_*): delivery-errors.ts turns them into the texts the API shows.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { LRUCache } from 'lru-cache';
import type { Pool } from 'undici';
import { isPublicAddress } from '../common/net/public-address';
import { isAllowedWebhookUrl } from './webhook-url';

export { isAllowedWebhookUrl, isPublicAddress };

type Undici = typeof import('undici');
let loaded: Undici | undefined;
/**
 * undici, loaded at the first request rather than with this module: the API process imports the
 * worker's modules but, unless it runs the workers, sends nothing; with undici's 110 modules and
 * 5 MB of heap loaded, `GET /groups` measured 2–20 % more CPU a request in six A/B pairs
 * (docs/performance.md, "Fifth pass").
 */
function undici(): Undici {
  loaded ??= require('undici') as Undici;
  return loaded;
}

export const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * The URL names, or its host resolves only to, addresses that are not public. Its message names
 * the host: for the worker's log only (the deliveries API says `address not allowed`,
 * delivery-errors.ts).
 */
export class BlockedAddressError extends Error {
  constructor(host: string) {
    super(`refused: ${host} resolves to a private or reserved address`);
    this.name = 'BlockedAddressError';
  }
}

/** The attempt took longer than the timeout (connecting, sending and reading together). */
export class RequestTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

export interface PostResult {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The first 64 KiB of the body, as text. */
  body: string;
}

export interface PostOptions {
  timeoutMs: number;
  /** Development/tests: allow http:// and private addresses. */
  allowPrivate: boolean;
  /**
   * The endpoint's keep-alive connections (EndpointPools: one pool per endpoint origin); every
   * new connection goes through the guarded lookup.
   */
  pool: Pool;
}

/**
 * Keep-alive connection pools, one per endpoint origin (`https://hooks.example.com:443`), so a
 * worker sending many deliveries to one receiver reuses its connections instead of a TCP (and
 * TLS) handshake each. At most `maxOrigins` are kept; the least recently used is closed beyond
 * that (gracefully: a request in flight on it finishes).
 */
export class EndpointPools {
  private readonly pools: LRUCache<string, Pool>;

  constructor(
    private readonly options: {
      connectionsPerOrigin: number;
      timeoutMs: number;
      allowPrivate: boolean;
      maxOrigins?: number;
    },
  ) {
    this.pools = new LRUCache<string, Pool>({
      max: options.maxOrigins ?? 500,
      dispose: (pool, _origin, reason) => {
        if (reason === 'evict') void pool.close().catch(() => undefined);
      },
    });
  }

  for(rawUrl: string): Pool {
    const origin = new URL(rawUrl).origin;
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new (undici().Pool)(origin, {
        connections: this.options.connectionsPerOrigin,
        // Idle connections close after 4 s (or 1 s before the receiver's own `Keep-Alive:
        // timeout=`), before the usual 5 s of servers, so a request is not sent on a connection
        // the receiver is closing.
        keepAliveTimeout: 4_000,
        keepAliveMaxTimeout: 4_000,
        keepAliveTimeoutThreshold: 1_000,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        connect: {
          timeout: this.options.timeoutMs,
          ...(this.options.allowPrivate ? {} : { lookup: guardedLookup }),
        },
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /** Closes every connection, cutting what is still in flight. */
  async destroy(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
  }
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const allowed = (addresses as { address: string; family: number }[]).filter((candidate) =>
      isPublicAddress(candidate.address),
    );
    if (allowed.length === 0) return callback(new BlockedAddressError(hostname), '', 0);
    if ((options as { all?: boolean }).all) {
      return (callback as unknown as (e: null, a: typeof allowed) => void)(null, allowed);
    }
    callback(null, allowed[0].address, allowed[0].family);
  });
};

/**
 * POSTs a body and reads the answer (its first 64 KiB). Sent with undici's `dispatch`, whose
 * callbacks take the answer as it arrives: no stream or promise per response beyond this one.
 */
export function postJson(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
  const url = new URL(rawUrl);
  if (!isAllowedWebhookUrl(rawUrl, options.allowPrivate)) {
    return Promise.reject(new BlockedAddressError(url.hostname));
  }
  return new Promise<PostResult>((resolve, reject) => {
    let settled = false;
    let request: { abort: (reason: Error) => void } | null = null;
    let statusCode = 0;
    let responseHeaders: PostResult['headers'] = {};
    const chunks: Buffer[] = [];
    let received = 0;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (error) return reject(error);
      resolve({
        statusCode,
        headers: responseHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      });
    };
    // One deadline for waiting for a connection, connecting, sending and reading together.
    const deadline = setTimeout(() => {
      const timedOut = new RequestTimeoutError(options.timeoutMs);
      settle(timedOut);
      request?.abort(timedOut);
    }, options.timeoutMs);
    options.pool.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body).toString(),
          'user-agent': 'checkin-webhooks/1.0',
        },
        body,
      },
      {
        onRequestStart(controller) {
          request = controller;
          // Timed out while waiting for a connection: never sent.
          if (settled) controller.abort(new RequestTimeoutError(options.timeoutMs));
        },
        onResponseStart(_controller, status, headers) {
          statusCode = status;
          responseHeaders = headers;
        },
        onResponseData(controller, chunk) {
          if (settled) return;
          chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - received));
          received += chunk.length;
          if (received >= MAX_RESPONSE_BYTES) {
            // The rest is not read: the connection is closed rather than drained.
            settle(null);
            controller.abort(new Error('response body past 64 KiB: not read'));
          }
        },
        onResponseEnd() {
          settle(null);
        },
        onResponseError(_controller, error) {
          settle(error);
        },
      },
    );
  });
}

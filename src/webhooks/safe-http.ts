/**
 * Outgoing webhook requests (docs/webhooks.md). The SSRF guard resolves the host itself, refuses every
 * address that is not public unicast (common/net/public-address.ts: loopback, private,
 * link-local, CGNAT, metadata, multicast, reserved; IPv4, IPv6, IPv4-mapped and IPv4-compatible
 * IPv6), and connects to the address it checked — the
 * socket is given that address through `lookup`, so there is no second resolution to race.
 * Redirects are never followed; the response body is read up to 64 KiB. Errors keep Node's codes
 * (ECONNREFUSED, ENOTFOUND, …): delivery-errors.ts turns them into the texts the API shows.
 */
import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { isPublicAddress } from '../common/net/public-address';

export { isPublicAddress };

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
  headers: http.IncomingHttpHeaders;
  /** The first 64 KiB of the body, as text. */
  body: string;
}

export interface PostOptions {
  timeoutMs: number;
  /** Development/tests: allow http:// and private addresses. */
  allowPrivate: boolean;
  /**
   * Keep-alive connections to reuse (EndpointAgents: one agent per endpoint origin). Every new
   * connection still goes through the guarded lookup; without an agent each request opens its own.
   */
  agent?: http.Agent;
}

/**
 * Keep-alive agents, one per endpoint origin (`https://hooks.example.com:443`), so a worker
 * sending many deliveries to one receiver reuses its connections instead of a TCP (and TLS)
 * handshake each. At most `maxOrigins` are kept; the least recently used is closed beyond that.
 */
export class EndpointAgents {
  private readonly agents = new Map<string, http.Agent>();

  constructor(
    private readonly maxSocketsPerOrigin: number,
    private readonly maxOrigins = 500,
  ) {}

  for(rawUrl: string): http.Agent {
    const url = new URL(rawUrl);
    const key = url.origin;
    let agent = this.agents.get(key);
    if (agent) {
      // Most recently used last.
      this.agents.delete(key);
    } else {
      // Idle sockets close after 4 s, before the usual 5 s keep-alive timeout of servers, so a
      // request is not sent on a connection the receiver is closing.
      const options = {
        keepAlive: true,
        maxSockets: this.maxSocketsPerOrigin,
        scheduling: 'lifo' as const,
        timeout: 4_000,
      };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    }
    this.agents.set(key, agent);
    if (this.agents.size > this.maxOrigins) {
      const [oldest, evicted] = this.agents.entries().next().value as [string, http.Agent];
      this.agents.delete(oldest);
      evicted.destroy();
    }
    return agent;
  }

  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
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

/** Whether a URL may be registered: http(s), with a host, and not a literal private address. */
export function isAllowedWebhookUrl(raw: string, allowPrivate: boolean): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password || !url.hostname) return false;
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return false;
  if (allowPrivate) return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  return isIP(host) === 0 || isPublicAddress(host);
}

export function postJson(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const url = new URL(rawUrl);
    if (!isAllowedWebhookUrl(rawUrl, options.allowPrivate)) {
      return reject(new BlockedAddressError(url.hostname));
    }
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body).toString(),
          'user-agent': 'checkin-webhooks/1.0',
        },
        lookup: options.allowPrivate ? undefined : guardedLookup,
        timeout: options.timeoutMs,
        agent: options.agent ?? false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        const finish = () =>
          resolve({
            statusCode: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        response.on('data', (chunk: Buffer) => {
          if (received >= MAX_RESPONSE_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - received));
          received += chunk.length;
          if (received >= MAX_RESPONSE_BYTES) {
            response.destroy();
            finish();
          }
        });
        response.on('end', finish);
        response.on('error', reject);
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new RequestTimeoutError(options.timeoutMs)),
      options.timeoutMs,
    );
    request.on('timeout', () => request.destroy(new RequestTimeoutError(options.timeoutMs)));
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}

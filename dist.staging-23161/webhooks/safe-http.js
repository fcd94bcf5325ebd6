"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EndpointPools = exports.RequestTimeoutError = exports.BlockedAddressError = exports.MAX_RESPONSE_BYTES = exports.isPublicAddress = exports.isAllowedWebhookUrl = void 0;
exports.postJson = postJson;
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
const node_dns_1 = require("node:dns");
const lru_cache_1 = require("lru-cache");
const public_address_1 = require("../common/net/public-address");
Object.defineProperty(exports, "isPublicAddress", { enumerable: true, get: function () { return public_address_1.isPublicAddress; } });
const webhook_url_1 = require("./webhook-url");
Object.defineProperty(exports, "isAllowedWebhookUrl", { enumerable: true, get: function () { return webhook_url_1.isAllowedWebhookUrl; } });
let loaded;
/**
 * undici, loaded at the first request rather than with this module: the API process imports the
 * worker's modules but, unless it runs the workers, sends nothing; with undici's 110 modules and
 * 5 MB of heap loaded, `GET /groups` measured 2–20 % more CPU a request in six A/B pairs
 * (docs/performance.md, "Fifth pass").
 */
function undici() {
    loaded ??= require('undici');
    return loaded;
}
exports.MAX_RESPONSE_BYTES = 64 * 1024;
/**
 * The URL names, or its host resolves only to, addresses that are not public. Its message names
 * the host: for the worker's log only (the deliveries API says `address not allowed`,
 * delivery-errors.ts).
 */
class BlockedAddressError extends Error {
    constructor(host) {
        super(`refused: ${host} resolves to a private or reserved address`);
        this.name = 'BlockedAddressError';
    }
}
exports.BlockedAddressError = BlockedAddressError;
/** The attempt took longer than the timeout (connecting, sending and reading together). */
class RequestTimeoutError extends Error {
    code = 'ETIMEDOUT';
    constructor(timeoutMs) {
        super(`timed out after ${timeoutMs} ms`);
        this.name = 'RequestTimeoutError';
    }
}
exports.RequestTimeoutError = RequestTimeoutError;
/**
 * Keep-alive connection pools, one per endpoint origin (`https://hooks.example.com:443`), so a
 * worker sending many deliveries to one receiver reuses its connections instead of a TCP (and
 * TLS) handshake each. At most `maxOrigins` are kept; the least recently used is closed beyond
 * that (gracefully: a request in flight on it finishes).
 */
class EndpointPools {
    options;
    pools;
    constructor(options) {
        this.options = options;
        this.pools = new lru_cache_1.LRUCache({
            max: options.maxOrigins ?? 500,
            dispose: (pool, _origin, reason) => {
                if (reason === 'evict')
                    void pool.close().catch(() => undefined);
            },
        });
    }
    for(rawUrl) {
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
    async destroy() {
        const pools = [...this.pools.values()];
        this.pools.clear();
        await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
    }
}
exports.EndpointPools = EndpointPools;
const guardedLookup = (hostname, options, callback) => {
    (0, node_dns_1.lookup)(hostname, { ...options, all: true }, (error, addresses) => {
        if (error)
            return callback(error, '', 0);
        const allowed = addresses.filter((candidate) => (0, public_address_1.isPublicAddress)(candidate.address));
        if (allowed.length === 0)
            return callback(new BlockedAddressError(hostname), '', 0);
        if (options.all) {
            return callback(null, allowed);
        }
        callback(null, allowed[0].address, allowed[0].family);
    });
};
/**
 * POSTs a body and reads the answer (its first 64 KiB). Sent with undici's `dispatch`, whose
 * callbacks take the answer as it arrives: no stream or promise per response beyond this one.
 */
function postJson(rawUrl, body, headers, options) {
    const url = new URL(rawUrl);
    if (!(0, webhook_url_1.isAllowedWebhookUrl)(rawUrl, options.allowPrivate)) {
        return Promise.reject(new BlockedAddressError(url.hostname));
    }
    return new Promise((resolve, reject) => {
        let settled = false;
        let request = null;
        let statusCode = 0;
        let responseHeaders = {};
        const chunks = [];
        let received = 0;
        const settle = (error) => {
            if (settled)
                return;
            settled = true;
            clearTimeout(deadline);
            if (error)
                return reject(error);
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
        options.pool.dispatch({
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
        }, {
            onRequestStart(controller) {
                request = controller;
                // Timed out while waiting for a connection: never sent.
                if (settled)
                    controller.abort(new RequestTimeoutError(options.timeoutMs));
            },
            onResponseStart(_controller, status, headers) {
                statusCode = status;
                responseHeaders = headers;
            },
            onResponseData(controller, chunk) {
                if (settled)
                    return;
                chunks.push(chunk.subarray(0, exports.MAX_RESPONSE_BYTES - received));
                received += chunk.length;
                if (received >= exports.MAX_RESPONSE_BYTES) {
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
        });
    });
}
//# sourceMappingURL=safe-http.js.map
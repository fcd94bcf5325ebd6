"use strict";
/**
 * What the deliveries API says about an attempt that got no HTTP answer (docs/webhooks.md,
 * "What an attempt's error says"): one of a few fixed texts, never a resolved host, an address,
 * an internal name or a library's message. An enterprise chooses its endpoints' URLs, so a
 * detailed reason would let it map our network (`refused: vm resolves to a private…` against
 * `getaddrinfo ENOTFOUND vm.`). The detail goes to the worker's log instead (DeliveryService).
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.DELIVERY_ERRORS = void 0;
exports.deliveryErrorFor = deliveryErrorFor;
exports.deliveryErrorDetail = deliveryErrorDetail;
/** Every text an attempt's `error` may hold. */
exports.DELIVERY_ERRORS = [
    'address not allowed',
    'DNS lookup failed',
    'connection refused',
    'connection reset',
    'connection failed',
    'timeout',
    'TLS error',
    'invalid response',
    'internal error',
];
/** getaddrinfo's failures (dns.lookup, which every request resolves through). */
const DNS_CODES = new Set([
    'ENOTFOUND',
    'EAI_AGAIN',
    'EAI_FAIL',
    'EAI_NONAME',
    'EAI_NODATA',
    'EAI_ADDRFAMILY',
    'ENODATA',
    'ESERVFAIL',
]);
/** UND_ERR_SOCKET: undici's "other side closed", a connection closed before the answer ended. */
const RESET_CODES = new Set([
    'ECONNRESET',
    'EPIPE',
    'ECONNABORTED',
    'ERR_STREAM_PREMATURE_CLOSE',
    'UND_ERR_SOCKET',
]);
/** undici's own timeouts (connecting, the answer's headers, its body). */
const TIMEOUT_CODES = new Set([
    'ETIMEDOUT',
    'ESOCKETTIMEDOUT',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
]);
/** An answer undici could not take: its length or headers broke HTTP's rules. */
const INVALID_RESPONSE_CODES = new Set([
    'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
    'UND_ERR_HEADERS_OVERFLOW',
    'UND_ERR_RES_EXCEEDED_MAX_SIZE',
]);
/**
 * Node's TLS codes, OpenSSL's certificate verification codes (`CERT_HAS_EXPIRED`,
 * `DEPTH_ZERO_SELF_SIGNED_CERT`, `UNABLE_TO_VERIFY_LEAF_SIGNATURE`, …) and EPROTO (a handshake
 * OpenSSL gave up on, e.g. an https:// URL at a plain-HTTP port).
 */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|INVALID_CA$|PATH_LENGTH_EXCEEDED$|INVALID_PURPOSE$|HOSTNAME_MISMATCH$|EPROTO$)/;
/**
 * The fixed text for an error a send raised (safe-http's postJson, or building the request).
 * Decided on the error's class and code, never on its message. Where private addresses are
 * refused (production), a name that does not resolve reads like a name that resolves to a
 * refused address — `address not allowed` — so that an enterprise cannot tell our internal names
 * from nonexistent ones (docs/security.md); with `WEBHOOK_ALLOW_PRIVATE_URLS` nothing is refused,
 * and `DNS lookup failed` helps the developer.
 */
function deliveryErrorFor(error, options = { privateAddressesRefused: true }) {
    const { name, code, syscall } = (error ?? {});
    if (name === 'BlockedAddressError' || code === 'ERR_INVALID_URL')
        return 'address not allowed';
    if (typeof code !== 'string')
        return 'internal error';
    if (TIMEOUT_CODES.has(code))
        return 'timeout';
    if (syscall === 'getaddrinfo' || DNS_CODES.has(code)) {
        return options.privateAddressesRefused ? 'address not allowed' : 'DNS lookup failed';
    }
    if (code === 'ECONNREFUSED')
        return 'connection refused';
    if (RESET_CODES.has(code))
        return 'connection reset';
    if (TLS_CODE.test(code))
        return 'TLS error';
    if (code.startsWith('HPE_') || code.startsWith('ERR_HTTP_') || INVALID_RESPONSE_CODES.has(code)) {
        return 'invalid response';
    }
    // EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL, … : the socket never connected.
    if (/^E[A-Z]+$/.test(code) || typeof syscall === 'string')
        return 'connection failed';
    return 'internal error';
}
/**
 * The detail for the worker's log: the error's code and message (which may name the host and
 * the address it resolved to: operators may know that). Never the URL, whose path or query may
 * carry the receiver's own secret.
 */
function deliveryErrorDetail(error) {
    const { name, message, code } = (error ?? {});
    // Not `instanceof Error`: errors may come from another realm (Node's internals under Jest).
    const text = typeof message === 'string' ? message : String(error);
    const label = typeof code === 'string' ? code : (name ?? 'Error');
    return `${label}: ${text}`.replace(/\s+/g, ' ').slice(0, 500);
}
//# sourceMappingURL=delivery-errors.js.map
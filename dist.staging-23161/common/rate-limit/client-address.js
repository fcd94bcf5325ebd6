"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.fastifyTrustProxy = fastifyTrustProxy;
exports.clientAddress = clientAddress;
const throttler_1 = require("@nestjs/throttler");
/**
 * Fastify's `trustProxy` for TRUST_PROXY. Fastify 5 takes a bare number as "trust nothing" (it
 * cannot tell a proxy from a client sending its own X-Forwarded-For), so a number of proxies
 * becomes the function it understands: the peer and the next `count - 1` forwarded addresses are
 * proxies, and the address before them is the client. That is only sound when clients cannot
 * reach the service except through those proxies; a list of their addresses is sound everywhere.
 */
function fastifyTrustProxy(setting) {
    if (typeof setting === 'number') {
        const proxies = setting;
        return (_address, hop) => hop < proxies;
    }
    return setting;
}
/**
 * Who the limits per address count: Fastify's `request.ip` (the peer, or the client behind
 * trusted proxies), with an IPv6 address taken as its /64, the block one subscriber gets, as
 * @nestjs/throttler does, so that rotating addresses inside it does not reset the count.
 */
function clientAddress(request) {
    return (0, throttler_1.normalizeIp)(request.ip ?? 'unknown');
}
//# sourceMappingURL=client-address.js.map
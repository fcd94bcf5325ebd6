"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.isPublicAddress = isPublicAddress;
/**
 * Which IP addresses are a public site (docs/webhooks.md, docs/security.md): public unicast only. One rule for
 * everything the service sends somewhere on someone else's say — webhook deliveries (every
 * resolved address) and the participants' `returnURL` (an IP literal host).
 *
 * Refused: every range ipaddr.js knows as special — unspecified, loopback, private, link-local,
 * CGNAT (100.64/10), benchmarking (198.18/15), documentation, reserved (240/4),
 * broadcast, multicast, unique-local, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4, Teredo, ORCHID,
 * discard, site-local, … — and IPv4-compatible IPv6 (`::a.b.c.d`, the whole `::/96`, deprecated
 * by RFC 4291). IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is judged by the IPv4 address it carries.
 *
 * The literal is first written the way the WHATWG URL parser writes a host (IPv6 in hex, IPv4 in
 * dotted decimal), so `::8.8.8.8` cannot pass for the mapped `::ffff:8.8.8.8`, as ipaddr.js alone
 * would read it.
 */
const node_net_1 = require("node:net");
const ipaddr_js_1 = __importDefault(require("ipaddr.js"));
/** The address as a URL host writes it (no brackets), or null when it is no IP address. */
function canonical(address) {
    const literal = address.replace(/^\[|\]$/g, '');
    const family = (0, node_net_1.isIP)(literal);
    if (family === 0)
        return null;
    try {
        const { hostname } = new URL(`http://${family === 6 ? `[${literal}]` : literal}/`);
        return hostname.replace(/^\[|\]$/g, '');
    }
    catch {
        return null; // e.g. an IPv6 zone id (fe80::1%eth0)
    }
}
/** True when the IP address (v4 or v6, brackets allowed) is public unicast. */
function isPublicAddress(address) {
    const literal = canonical(address);
    if (literal === null || !ipaddr_js_1.default.isValid(literal))
        return false;
    let parsed = ipaddr_js_1.default.parse(literal);
    if (parsed.kind() === 'ipv6') {
        const ipv6 = parsed;
        if (ipv6.isIPv4MappedAddress()) {
            parsed = ipv6.toIPv4Address();
        }
        else if (ipv6.parts.slice(0, 6).every((part) => part === 0)) {
            return false; // ::/96: unspecified, loopback and IPv4-compatible addresses
        }
    }
    return parsed.range() === 'unicast';
}
//# sourceMappingURL=public-address.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.normaliseReturnUrl = normaliseReturnUrl;
exports.isAcceptableReturnUrl = isAcceptableReturnUrl;
/**
 * `returnURL` (spec Limits 1, docs/security.md): HTTPS only, and never a local, private or reserved
 * address — participants' browsers are sent there, so it must be a public site of the
 * enterprise. Host names are not resolved: names under `localhost`, names without a dot, and IP
 * literals that are not public unicast (common/net/public-address.ts: loopback, private,
 * link-local, CGNAT, benchmarking 198.18/15, reserved 240/4, broadcast, IPv4-mapped and
 * IPv4-compatible IPv6, NAT64, …) are refused, and so is any control character (a tab or line
 * break the URL parser would silently drop is a mistake to report, not to guess about).
 *
 * An accepted value is stored normalised, as `new URL(value).href`: pure ASCII (a host in
 * punycode, anything else beyond ASCII percent-encoded), so it always fits a `Location` header.
 * `/done` reads stored values through the same function, so a row these rules would not accept
 * now (a rule added in a later release, a value written by hand) can never make it fail.
 */
const node_net_1 = require("node:net");
const public_address_1 = require("../common/net/public-address");
const rules_1 = require("../common/validation/rules");
const MAX_LENGTH = 2048;
/** The normalised address (`new URL(value).href`) when `value` is acceptable, else null. */
function normaliseReturnUrl(value) {
    if (value.length > MAX_LENGTH || (0, rules_1.hasControlCharacter)(value))
        return null;
    let url;
    try {
        url = new URL(value);
    }
    catch {
        return null;
    }
    if (url.protocol !== 'https:' || url.username || url.password)
        return null;
    const host = url.hostname
        .replace(/^\[|\]$/g, '')
        .replace(/\.$/, '')
        .toLowerCase();
    if (!host || host === 'localhost' || host.endsWith('.localhost'))
        return null;
    if ((0, node_net_1.isIP)(host) !== 0) {
        if (!(0, public_address_1.isPublicAddress)(host))
            return null;
    }
    else if (!host.includes('.')) {
        // A bare name without a dot (https://intranet/) cannot be a public site.
        return null;
    }
    const { href } = url;
    return href.length <= MAX_LENGTH ? href : null;
}
function isAcceptableReturnUrl(value) {
    return normaliseReturnUrl(value) !== null;
}
//# sourceMappingURL=return-url.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isAllowedWebhookUrl = isAllowedWebhookUrl;
/**
 * Which URLs an endpoint may have (docs/webhooks.md, docs/security.md). Apart from safe-http.ts,
 * which sends, so that the API process, which only registers endpoints, does not load the HTTP
 * client the workers send with (docs/performance.md, "Fifth pass").
 */
const node_net_1 = require("node:net");
const public_address_1 = require("../common/net/public-address");
/** Whether a URL may be registered: http(s), with a host, and not a literal private address. */
function isAllowedWebhookUrl(raw, allowPrivate) {
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        return false;
    }
    if (url.username || url.password || !url.hostname)
        return false;
    if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
        return false;
    if (allowPrivate)
        return true;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost'))
        return false;
    return (0, node_net_1.isIP)(host) === 0 || (0, public_address_1.isPublicAddress)(host);
}
//# sourceMappingURL=webhook-url.js.map
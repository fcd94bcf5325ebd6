"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.newWebhookSecret = void 0;
exports.signatureHeaders = signatureHeaders;
/**
 * Standard Webhooks signing (v1: HMAC-SHA256 of `<id>.<timestamp>.<body>`, base64), with Node's
 * native HMAC: the same bytes as the `standardwebhooks` package's `sign`, which receivers verify
 * with, at a fraction of its pure-JS cost per delivery (docs/performance.md; webhook-signer.spec
 * compares the two). Secrets are `whsec_` + base64 of 32 random bytes. During a rotation both the new and the
 * old secret sign (`webhook-signature: v1,<new> v1,<old>`), so receivers holding either verify.
 */
const node_crypto_1 = require("node:crypto");
const SECRET_PREFIX = 'whsec_';
const newWebhookSecret = () => `${SECRET_PREFIX}${(0, node_crypto_1.randomBytes)(32).toString('base64')}`;
exports.newWebhookSecret = newWebhookSecret;
/** The HMAC key a secret names: the base64 after `whsec_`, as the standardwebhooks package reads it. */
const secretKey = (secret) => Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
function signatureHeaders(eventId, body, secrets, at = new Date()) {
    const timestamp = Math.floor(at.getTime() / 1000).toString();
    const signed = `${eventId}.${timestamp}.${body}`;
    const signatures = secrets.map((secret) => `v1,${(0, node_crypto_1.createHmac)('sha256', secretKey(secret)).update(signed, 'utf8').digest('base64')}`);
    return {
        'webhook-id': eventId,
        'webhook-timestamp': timestamp,
        'webhook-signature': signatures.join(' '),
    };
}
//# sourceMappingURL=webhook-signer.js.map
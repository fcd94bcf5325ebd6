/**
 * Standard Webhooks signing (v1: HMAC-SHA256 of `<id>.<timestamp>.<body>`, base64), with Node's
 * native HMAC: the same bytes as the `standardwebhooks` package's `sign`, which receivers verify
 * with, without its pure-JS HMAC and base64, 6 % of a drain (`node bench/drain-ab.js`, `node
 * bench/run.js webhooks`; docs/performance.md, "Where the time goes", Webhooks);
 * webhook-signer.spec compares the two over random inputs. Secrets are `whsec_` + base64 of 32
 * random bytes. During a rotation both the new and the old secret sign (`webhook-signature:
 * v1,<new> v1,<old>`), so receivers holding either verify.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export const newWebhookSecret = (): string =>
  `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** The HMAC key a secret names: the base64 after `whsec_`, as the standardwebhooks package reads it. */
const secretKey = (secret: string): Buffer =>
  Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );

export function signatureHeaders(
  eventId: string,
  body: string,
  secrets: string[],
  at: Date = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000).toString();
  const signed = `${eventId}.${timestamp}.${body}`;
  const signatures = secrets.map(
    (secret) =>
      `v1,${createHmac('sha256', secretKey(secret)).update(signed, 'utf8').digest('base64')}`,
  );
  return {
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signatures.join(' '),
  };
}

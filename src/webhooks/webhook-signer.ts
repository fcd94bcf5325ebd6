/**
 * Standard Webhooks signing with the `standardwebhooks` package, the same one receivers verify
 * with. Secrets are `whsec_` + base64 of 32 random bytes. During a rotation both the new and the
 * old secret sign (`webhook-signature: v1,<new> v1,<old>`), so receivers holding either verify.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export function signatureHeaders(
  eventId: string,
  body: string,
  secrets: string[],
  at: Date = new Date(),
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(eventId, at, body));
  return {
    'webhook-id': eventId,
    'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
    'webhook-signature': signatures.join(' '),
  };
}

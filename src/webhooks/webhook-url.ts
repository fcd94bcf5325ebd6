/**
 * Which URLs an endpoint may have (docs/webhooks.md, docs/security.md). Apart from safe-http.ts,
 * which sends, so that the API process, which only registers endpoints, does not load the HTTP
 * client the workers send with (docs/performance.md, "Fifth pass").
 */
import { isIP } from 'node:net';
import { isPublicAddress } from '../common/net/public-address';

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

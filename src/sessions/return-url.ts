/**
 * `returnURL` (spec Limits 1): HTTPS only, and never a local or private address — participants'
 * browsers are sent there, so it must be a public site of the enterprise. Host names are not
 * resolved: names under `localhost` and IP literals in loopback, private, link-local, CGNAT,
 * unspecified and unique-local ranges are refused.
 */
import { isIP } from 'node:net';

const MAX_LENGTH = 2048;

function isLocalIPv4(address: string): boolean {
  const [a, b] = address.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

function isLocalIPv6(address: string): boolean {
  const lower = address.toLowerCase();
  if (lower === '::' || lower === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isLocalIPv4(mapped[1]);
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(lower)) return true; // mapped, hex form: refuse
  return /^f[cd][0-9a-f]{2}:/.test(lower) || /^fe[89ab][0-9a-f]:/.test(lower);
}

export function isAcceptableReturnUrl(value: string): boolean {
  if (value.length > MAX_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (!host || host === 'localhost' || host.endsWith('.localhost')) return false;
  const family = isIP(host);
  if (family === 4) return !isLocalIPv4(host);
  if (family === 6) return !isLocalIPv6(host);
  // A bare name without a dot (https://intranet/) cannot be a public site.
  return host.includes('.');
}

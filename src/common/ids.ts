/**
 * Identifier and secret generation (docs/design.md). Every random part comes from
 * crypto.randomBytes; base62 strings use rejection sampling so each character is uniform.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from './crypto/secrets';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const LOWER_ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** An identifier's format: a prefix, then `length` characters of `alphabet`. */
export interface IdFormat {
  prefix: string;
  length: number;
  alphabet: string;
}

/**
 * Every generated identifier's format, in one table (docs/design.md). The benchmark's data generator
 * reads it too (with its own seeded randomness), so seeded rows look exactly like ours.
 */
export const ID_FORMATS = {
  apiKey: { prefix: 'ck_', length: 40, alphabet: BASE62 },
  groupKey: { prefix: 'gk_', length: 32, alphabet: BASE62 },
  inviteCode: { prefix: '', length: 13, alphabet: LOWER_ALPHANUMERIC },
  externalId: { prefix: 'ok_', length: 48, alphabet: HEX },
  sessionId: { prefix: 'ses_', length: 24, alphabet: BASE62 },
  eventId: { prefix: 'evt_', length: 48, alphabet: HEX },
  webhookId: { prefix: 'we_', length: 24, alphabet: BASE62 },
} as const satisfies Record<string, IdFormat>;

/** A uniformly random string of `length` characters drawn from `alphabet` (≤ 256 symbols). */
export function randomString(length: number, alphabet: string): string {
  // Largest multiple of the alphabet size that fits in a byte: bytes above it are rejected.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(Math.ceil((length - out.length) * 1.3) + 4)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new random identifier of `format`. */
export const newId = (format: IdFormat): string =>
  format.prefix + randomString(format.length, format.alphabet);

/** The regular expression of an identifier of `format`, unanchored (to embed in another). */
export const idPatternSource = (format: IdFormat): string =>
  `${format.prefix}[${format.alphabet}]{${format.length}}`;

/** The pattern every identifier of `format` matches. */
export const idPattern = (format: IdFormat): RegExp => new RegExp(`^${idPatternSource(format)}$`);

export const newApiKey = (): string => newId(ID_FORMATS.apiKey);
export const newGroupKey = (): string => newId(ID_FORMATS.groupKey);
export const newInviteCode = (): string => newId(ID_FORMATS.inviteCode);
export const newExternalId = (): string => newId(ID_FORMATS.externalId);
export const newSessionId = (): string => newId(ID_FORMATS.sessionId);
export const newEventId = (): string => newId(ID_FORMATS.eventId);
export const newWebhookId = (): string => newId(ID_FORMATS.webhookId);

/** An enterprise's id: a PostgreSQL uuid (any case), as the operator types it on the CLI. */
export const ENTERPRISE_ID_PATTERN =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const EXTERNAL_ID_PATTERN = idPattern(ID_FORMATS.externalId);
export const SESSION_ID_PATTERN = idPattern(ID_FORMATS.sessionId);
export const WEBHOOK_ID_PATTERN = idPattern(ID_FORMATS.webhookId);
export const API_KEY_PATTERN = idPattern(ID_FORMATS.apiKey);

/** Length of the public, non-secret part of an API key shown in listings (`ck_` + 8). */
export const API_KEY_PREFIX_LENGTH = 11;
export const apiKeyPrefix = (apiKey: string): string => apiKey.slice(0, API_KEY_PREFIX_LENGTH);

/** Only this hash of an API key is ever stored (hex-encoded SHA-256). */
export const hashApiKey = (apiKey: string): string => sha256Hex(apiKey);

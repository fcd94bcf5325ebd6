/**
 * Identifier and secret generation (DESIGN §4). Every random part comes from
 * crypto.randomBytes; base62 strings use rejection sampling so each character is uniform.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from './crypto/secrets';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LOWER_ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz';

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

export const randomBase62 = (length: number): string => randomString(length, BASE62);
export const randomHex = (length: number): string =>
  randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);

export const newApiKey = (): string => `ck_${randomBase62(40)}`;
export const newGroupKey = (): string => `gk_${randomBase62(32)}`;
export const newInviteCode = (): string => randomString(13, LOWER_ALPHANUMERIC);

export const newExternalId = (): string => `ok_${randomHex(48)}`;
export const newSessionId = (): string => `ses_${randomBase62(24)}`;
export const newEventId = (): string => `evt_${randomHex(48)}`;

export const EXTERNAL_ID_PATTERN = /^ok_[0-9a-f]{48}$/;
export const SESSION_ID_PATTERN = /^ses_[0-9A-Za-z]{24}$/;

/** Length of the public, non-secret part of an API key shown in listings (`ck_` + 8). */
export const API_KEY_PREFIX_LENGTH = 11;
export const apiKeyPrefix = (apiKey: string): string => apiKey.slice(0, API_KEY_PREFIX_LENGTH);

/** Only this hash of an API key is ever stored (hex-encoded SHA-256). */
export const hashApiKey = (apiKey: string): string => sha256Hex(apiKey);

export const API_KEY_PATTERN = /^ck_[0-9A-Za-z]{40}$/;

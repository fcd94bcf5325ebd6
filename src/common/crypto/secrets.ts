/**
 * Comparing secrets (API keys, group keys, bearer tokens) without leaking them through timing:
 * both sides are hashed first, so the comparison always covers 32 bytes whatever their lengths.
 */
import { hash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a UTF-8 string (one-shot `crypto.hash`: no Hash object per call, every request). */
export const sha256 = (value: string): Buffer => hash('sha256', value, 'buffer');

/** Hex SHA-256 of a UTF-8 string (what is stored for API keys, request fingerprints). */
export const sha256Hex = (value: string): string => hash('sha256', value, 'hex');

/** Whether a presented secret equals the expected one, in constant time. */
export function sameSecret(presented: string, expected: string | Buffer): boolean {
  const expectedDigest = typeof expected === 'string' ? sha256(expected) : expected;
  return timingSafeEqual(sha256(presented), expectedDigest);
}

/** Whether an `Authorization` header is `Bearer <expected>` (the secret compared in constant time). */
export function presentsBearer(authorization: unknown, expected: string | Buffer): boolean {
  const bearer = typeof authorization === 'string' ? /^Bearer (\S+)$/.exec(authorization) : null;
  return bearer !== null && sameSecret(bearer[1], expected);
}

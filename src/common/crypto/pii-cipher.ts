/**
 * Personal data at rest (DESIGN §4). Emails are encrypted with AES-256-GCM under a key derived
 * (HKDF-SHA256) from DATA_ENCRYPTION_KEY, and found through an HMAC-SHA256 of the normalised
 * email under a second derived key, so equal emails match without the table holding any email.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class PiiCipher {
  private readonly encryptionKey: Buffer;
  private readonly lookupKey: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the data encryption key must be 32 bytes');
    const derive = (info: string) =>
      Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), info, 32));
    this.encryptionKey = derive('checkin/pii-encryption/v1');
    this.lookupKey = derive('checkin/email-lookup/v1');
  }

  /** `v1.<base64url(iv | tag | ciphertext)>`; a fresh IV every time. */
  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
    return `${VERSION}.${sealed.toString('base64url')}`;
  }

  /** Throws when the value was not produced by this key (or was tampered with). */
  decrypt(value: string): string {
    const [version, body] = value.split('.', 2);
    if (version !== VERSION || !body) throw new Error('unknown ciphertext format');
    const sealed = Buffer.from(body, 'base64url');
    const iv = sealed.subarray(0, IV_BYTES);
    const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([
      decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }

  /** Look-up hash of an email (normalise it first with `normaliseEmail`). */
  emailLookupHash(normalisedEmail: string): string {
    return createHmac('sha256', this.lookupKey).update(normalisedEmail, 'utf8').digest('hex');
  }
}

/** Emails compare case-insensitively and without surrounding spaces. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/**
 * A deliberately plain check (one @, no spaces, a dot in the domain, ≤ 254 characters): the
 * address is verified by the mail it receives, not by a regular expression.
 */
export function isEmailAddress(value: string): boolean {
  const email = value.trim();
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

import { randomBytes } from 'node:crypto';
import { isEmailAddress, normaliseEmail, PiiCipher } from './pii-cipher';

describe('PiiCipher', () => {
  const cipher = new PiiCipher(randomBytes(32));

  it('round-trips, with a fresh IV each time, and never contains the plaintext', () => {
    const a = cipher.encrypt('person@example.com');
    const b = cipher.encrypt('person@example.com');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('person');
    expect(cipher.decrypt(a)).toBe('person@example.com');
  });

  it('refuses tampered ciphertext and other keys', () => {
    const sealed = cipher.encrypt('person@example.com');
    const body = Buffer.from(sealed.slice(3), 'base64url');
    body[body.length - 1] ^= 1;
    expect(() => cipher.decrypt(`v1.${body.toString('base64url')}`)).toThrow();
    expect(() => new PiiCipher(randomBytes(32)).decrypt(sealed)).toThrow();
    expect(() => cipher.decrypt('plain')).toThrow();
  });

  it('gives equal emails equal look-up hashes, keyed (another key, another hash)', () => {
    const hash = cipher.emailLookupHash(normaliseEmail(' Person@Example.COM '));
    expect(hash).toBe(cipher.emailLookupHash('person@example.com'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(new PiiCipher(randomBytes(32)).emailLookupHash('person@example.com')).not.toBe(hash);
  });

  it('recognises plausible email addresses only', () => {
    for (const valid of ['a@b.co', 'first.last+tag@sub.example.org', ' x@y.io ']) {
      expect(isEmailAddress(valid)).toBe(true);
    }
    for (const invalid of [
      '',
      'ok_abc',
      'a@b',
      'a b@c.d',
      '@b.co',
      'a@.',
      `${'x'.repeat(250)}@b.co`,
    ]) {
      expect(isEmailAddress(invalid)).toBe(false);
    }
  });
});

import { randomBytes } from 'node:crypto';
import { KeyMismatchError, normaliseEmail, PiiCipher, RetiredKeyError } from './pii-cipher';

describe('PiiCipher', () => {
  const cipher = new PiiCipher(randomBytes(32));

  it('round-trips, with a fresh IV each time, and never contains the plaintext', () => {
    const a = cipher.encrypt('person@example.com');
    const b = cipher.encrypt('person@example.com');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v2\.k0\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('person');
    expect(cipher.decrypt(a)).toBe('person@example.com');
  });

  it('refuses tampered ciphertext and other keys', () => {
    const sealed = cipher.encrypt('person@example.com');
    const body = Buffer.from(sealed.slice('v2.k0.'.length), 'base64url');
    body[body.length - 1] ^= 1;
    expect(() => cipher.decrypt(`v2.k0.${body.toString('base64url')}`)).toThrow();
    expect(() => new PiiCipher(randomBytes(32)).decrypt(sealed)).toThrow();
    expect(() => cipher.decrypt('plain')).toThrow();
  });

  it('gives equal emails equal look-up hashes, keyed (another key, another hash)', () => {
    const hash = cipher.emailLookupHash(normaliseEmail(' Person@Example.COM '));
    expect(hash).toBe(cipher.emailLookupHash('person@example.com'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(new PiiCipher(randomBytes(32)).emailLookupHash('person@example.com')).not.toBe(hash);
  });

  describe('key ids and rotation', () => {
    const root = randomBytes(32);
    const k1 = { id: 'k1', key: randomBytes(32) };
    const k2 = { id: 'k2', key: randomBytes(32) };
    const withK1 = new PiiCipher(root, [k1]);
    const withK2K1 = new PiiCipher(root, [k2, k1]);
    const withK2 = new PiiCipher(root, [k2]);

    it('encrypts with the newest key and names it', () => {
      expect(withK1.encrypt('a')).toMatch(/^v2\.k1\./);
      expect(withK2K1.encrypt('a')).toMatch(/^v2\.k2\./);
      expect(withK2K1.currentKeyId).toBe('k2');
      expect(PiiCipher.keyIdOf(withK2K1.encrypt('a'))).toBe('k2');
    });

    it('still decrypts an older key while it is configured', () => {
      const underK1 = withK1.encrypt('written under k1');
      expect(withK2K1.decrypt(underK1)).toBe('written under k1');
    });

    it('a removed key retires its ciphertexts with RetiredKeyError, naming the key id', () => {
      const underK1 = withK1.encrypt('written under k1');
      expect(() => withK2.decrypt(underK1)).toThrow(RetiredKeyError);
      expect(() => withK2.decrypt(underK1)).toThrow('the data key k1 is not configured');
      expect(withK2.decrypt(withK2K1.encrypt('new'))).toBe('new');
    });

    it('another key of the same id (a restore with another DATA_ENCRYPTION_KEY) fails with KeyMismatchError', () => {
      const otherRoot = new PiiCipher(randomBytes(32), [k1]);
      const underK0 = new PiiCipher(root).encrypt('written under k0');
      expect(() => otherRoot.decrypt(underK0)).toThrow(KeyMismatchError);
      expect(() => otherRoot.decrypt(underK0)).toThrow(
        'the configured data key k0 does not open it',
      );
      expect(() => otherRoot.decrypt(underK0)).not.toThrow(/written/);
    });

    it('the key id is authenticated: relabelling a ciphertext does not decrypt', () => {
      const sameKeyTwice = new PiiCipher(root, [{ id: 'k9', key: k1.key }, k1]);
      const underK1 = withK1.encrypt('x');
      expect(() => sameKeyTwice.decrypt(underK1.replace('v2.k1.', 'v2.k9.'))).toThrow();
    });

    it('keeps the email look-up hash stable across rotation (it is derived from the root key)', () => {
      const hash = new PiiCipher(root).emailLookupHash('person@example.com');
      expect(withK1.emailLookupHash('person@example.com')).toBe(hash);
      expect(withK2.emailLookupHash('person@example.com')).toBe(hash);
    });

    it('fromKeys takes the configuration ring (k0 last) as it is', () => {
      const cipher = PiiCipher.fromKeys(root, [k2, k1, { id: 'k0', key: root }]);
      expect(cipher.currentKeyId).toBe('k2');
      expect(cipher.decrypt(withK1.encrypt('x'))).toBe('x');
      expect(PiiCipher.fromKeys(root, [{ id: 'k0', key: root }]).currentKeyId).toBe('k0');
    });
  });
});

import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PiiCipher } from './pii-cipher';
import { openSealed, openSealedJson } from './sealed-reads';

describe('openSealed', () => {
  const root = randomBytes(32);
  const sealedUnderK0 = new PiiCipher(root).encrypt('{"said":"a private thing"}');
  const sealedUnderK1 = new PiiCipher(root, [{ id: 'k1', key: randomBytes(32) }]).encrypt('"x"');

  afterEach(() => jest.restoreAllMocks());

  it('opens what the keys open', () => {
    expect(openSealedJson(new PiiCipher(root), 'sessions.features', sealedUnderK0)).toEqual({
      said: 'a private thing',
    });
  });

  it('answers null for another key of the same id and for a key not configured, and says so once per column and key id, without the value', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const other = new PiiCipher(randomBytes(32));
    expect(openSealed(other, 'test.first', sealedUnderK0)).toBeNull();
    expect(openSealed(other, 'test.first', sealedUnderK0)).toBeNull();
    expect(openSealedJson(other, 'test.first', sealedUnderK1)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(2);
    const lines = warn.mock.calls.map(([line]) => String(line));
    expect(lines[0]).toMatch(/^test\.first: a value under data key k0 cannot be opened/);
    expect(lines[1]).toMatch(/^test\.first: a value under data key k1 cannot be opened/);
    expect(lines.join('\n')).not.toContain('private');
    expect(lines.join('\n')).not.toContain(sealedUnderK0.slice(6, 30));
  });

  it('still throws for a value that is not a ciphertext of ours', () => {
    expect(() => openSealed(new PiiCipher(root), 'test.second', 'plain')).toThrow(
      'unknown ciphertext format',
    );
  });
});

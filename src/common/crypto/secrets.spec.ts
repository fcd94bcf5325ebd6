import { sameSecret, sha256, sha256Hex } from './secrets';

describe('secrets', () => {
  it('compares secrets of any length, in constant time over their digests', () => {
    expect(sameSecret('gk_abc', 'gk_abc')).toBe(true);
    expect(sameSecret('gk_abc', 'gk_abd')).toBe(false);
    expect(sameSecret('', 'gk_abc')).toBe(false);
    expect(sameSecret('x'.repeat(10_000), 'x')).toBe(false);
  });

  it('accepts a precomputed digest of the expected secret', () => {
    expect(sameSecret('token', sha256('token'))).toBe(true);
    expect(sameSecret('other', sha256('token'))).toBe(false);
  });

  it('hashes to hex the way API keys are stored', () => {
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

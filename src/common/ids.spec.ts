import {
  API_KEY_PATTERN,
  EXTERNAL_ID_PATTERN,
  newEventId,
  newExternalId,
  newSessionId,
  SESSION_ID_PATTERN,
  apiKeyPrefix,
  hashApiKey,
  newApiKey,
  newGroupKey,
  newInviteCode,
  randomString,
} from './ids';

describe('ids', () => {
  it('API keys are ck_ + 40 base62 characters, and differ', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newApiKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(API_KEY_PATTERN);
  });

  it('group keys are gk_ + 32 base62; invite codes are 13 lowercase alphanumerics', () => {
    expect(newGroupKey()).toMatch(/^gk_[0-9A-Za-z]{32}$/);
    expect(newInviteCode()).toMatch(/^[0-9a-z]{13}$/);
  });

  it('external ids are ok_ + 48 hex, session ids ses_ + 24 base62, event ids evt_ + 48 hex', () => {
    expect(newExternalId()).toMatch(EXTERNAL_ID_PATTERN);
    expect(newSessionId()).toMatch(SESSION_ID_PATTERN);
    expect(newEventId()).toMatch(/^evt_[0-9a-f]{48}$/);
    expect(newExternalId()).not.toBe(newExternalId());
  });

  it('hashes keys with SHA-256 (known vector) and never returns the key itself', () => {
    expect(hashApiKey('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const key = newApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(3));
  });

  it('the listed prefix is ck_ plus 8 characters', () => {
    expect(apiKeyPrefix('ck_ABCDEFGH123')).toBe('ck_ABCDEFGH');
  });

  it('draws every symbol of the alphabet roughly uniformly', () => {
    const counts = new Map<string, number>();
    for (const ch of randomString(62_000, 'abc')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['a', 'b', 'c']);
    for (const count of counts.values()) expect(Math.abs(count - 62_000 / 3)).toBeLessThan(1_000);
  });
});

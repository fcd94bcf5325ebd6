import { loadConfig } from '../config/config';
import { LinkTokens } from './link-tokens';

describe('LinkTokens', () => {
  const tokens = new LinkTokens(loadConfig({ NODE_ENV: 'test', CHECKIN_TOKEN_TTL_HOURS: '24' }));
  const other = new LinkTokens(
    loadConfig({
      NODE_ENV: 'test',
      CHECKIN_TOKEN_SECRET: 'another-secret-that-is-long-enough-0123',
    }),
  );

  it('round-trips the id for the same purpose', () => {
    const token = tokens.sign('checkin', 'ses_abc');
    expect(token).toMatch(/^k0\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(tokens.verify('checkin', token)).toBe('ses_abc');
  });

  it('refuses another purpose, another secret, tampering and garbage', () => {
    const token = tokens.sign('checkin', 'ses_abc');
    expect(tokens.verify('settings', token)).toBeNull();
    expect(other.verify('checkin', token)).toBeNull();
    const [keyId, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ p: 'c', id: 'ses_other', exp: 9e9 })).toString(
      'base64url',
    );
    expect(tokens.verify('checkin', `${keyId}.${forged}.${signature}`)).toBeNull();
    expect(tokens.verify('checkin', `${keyId}.${payload}.${signature}x`)).toBeNull();
    // The key id is signed too: the same claims and signature under another id fail.
    expect(tokens.verify('checkin', `k1.${payload}.${signature}`)).toBeNull();
    for (const garbage of ['', 'a', 'a.b', 'a.b.c', '..', 'k0..', 'a.b.c.d', 'x'.repeat(5000)]) {
      expect(tokens.verify('checkin', garbage)).toBeNull();
    }
  });

  it('expires after the configured time', () => {
    const issuedAt = Date.UTC(2026, 0, 1);
    const token = tokens.sign('checkin', 'ses_abc', issuedAt);
    expect(tokens.verify('checkin', token, issuedAt + 23.9 * 3600_000)).toBe('ses_abc');
    expect(tokens.verify('checkin', token, issuedAt + 24 * 3600_000)).toBeNull();
  });

  it('links in emails (settings, unsubscribe) live EMAIL_LINK_TTL_DAYS (14 by default), not a day', () => {
    const issuedAt = Date.UTC(2026, 0, 1);
    const day = 24 * 3600_000;
    const token = tokens.sign('settings', 'p:1', issuedAt, 0);
    expect(tokens.verify('settings', token, issuedAt + 25 * 3600_000)).toBe('p:1');
    expect(tokens.verify('settings', token, issuedAt + 14 * day - 1000)).toBe('p:1');
    expect(tokens.verify('settings', token, issuedAt + 14 * day)).toBeNull();
    const unsubscribe = tokens.sign('unsubscribe', 'p:checkinReminder:1', issuedAt, 0);
    expect(tokens.verify('unsubscribe', unsubscribe, issuedAt + 13 * day)).toBe(
      'p:checkinReminder:1',
    );
    expect(tokens.verify('unsubscribe', unsubscribe, issuedAt + 14 * day)).toBeNull();
    expect(tokens.verify('settings', unsubscribe, issuedAt)).toBeNull();
  });

  it('settings and unsubscribe links carry the link version they were signed with; check-in links none', () => {
    expect(tokens.verifyClaims('settings', tokens.sign('settings', 'p:1', undefined, 3))).toEqual({
      id: 'p:1',
      version: 3,
    });
    expect(
      tokens.verifyClaims('unsubscribe', tokens.sign('unsubscribe', 'p:x:1', undefined, 0)),
    ).toEqual({ id: 'p:x:1', version: 0 });
    expect(tokens.verifyClaims('settings', tokens.sign('settings', 'p:1'))).toBeNull();
    expect(tokens.verifyClaims('unsubscribe', tokens.sign('unsubscribe', 'p:x:1'))).toBeNull();
    expect(tokens.verifyClaims('checkin', tokens.sign('checkin', 'ses_a'))).toEqual({
      id: 'ses_a',
      version: 0,
    });
  });

  describe('key ids and rotation', () => {
    const secret = (c: string) => c.repeat(40);
    const k1Only = new LinkTokens(
      loadConfig({ NODE_ENV: 'test', CHECKIN_TOKEN_SECRETS: `k1:${secret('1')}` }),
    );
    const k2k1 = new LinkTokens(
      loadConfig({
        NODE_ENV: 'test',
        CHECKIN_TOKEN_SECRETS: `k2:${secret('2')},k1:${secret('1')}`,
      }),
    );
    const k2Only = new LinkTokens(
      loadConfig({ NODE_ENV: 'test', CHECKIN_TOKEN_SECRETS: `k2:${secret('2')}` }),
    );

    it('signs with the newest key and names it', () => {
      expect(k1Only.sign('checkin', 'ses_a')).toMatch(/^k1\./);
      expect(k2k1.sign('checkin', 'ses_a')).toMatch(/^k2\./);
    });

    it('verifies an older key while it is configured; a removed key retires its links', () => {
      const underK1 = k1Only.sign('settings', 'p:1', undefined, 0);
      expect(k2k1.verify('settings', underK1)).toBe('p:1');
      expect(k2Only.verify('settings', underK1)).toBeNull();
      expect(k2Only.verify('settings', k2k1.sign('settings', 'p:1', undefined, 0))).toBe('p:1');
    });

    it('k0 is CHECKIN_TOKEN_SECRET: its links verify while it is set beside a list', () => {
      const single = secret('S');
      const underK0 = new LinkTokens(
        loadConfig({ NODE_ENV: 'test', CHECKIN_TOKEN_SECRET: single }),
      ).sign('checkin', 'ses_a');
      expect(underK0).toMatch(/^k0\./);
      const both = new LinkTokens(
        loadConfig({
          NODE_ENV: 'test',
          CHECKIN_TOKEN_SECRET: single,
          CHECKIN_TOKEN_SECRETS: `k1:${secret('1')}`,
        }),
      );
      expect(both.verify('checkin', underK0)).toBe('ses_a');
      expect(both.sign('checkin', 'ses_b')).toMatch(/^k1\./);
      // The list alone retires k0.
      expect(k1Only.verify('checkin', underK0)).toBeNull();
    });
  });
});

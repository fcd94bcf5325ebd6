import { loadConfig } from '../config/config';
import { LinkTokens } from './link-tokens';

describe('LinkTokens', () => {
  const tokens = new LinkTokens(loadConfig({ CHECKIN_TOKEN_TTL_HOURS: '24' }));
  const other = new LinkTokens(
    loadConfig({ CHECKIN_TOKEN_SECRET: 'another-secret-that-is-long-enough-0123' }),
  );

  it('round-trips the id for the same purpose', () => {
    const token = tokens.sign('checkin', 'ses_abc');
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(tokens.verify('checkin', token)).toBe('ses_abc');
  });

  it('refuses another purpose, another secret, tampering and garbage', () => {
    const token = tokens.sign('checkin', 'ses_abc');
    expect(tokens.verify('settings', token)).toBeNull();
    expect(other.verify('checkin', token)).toBeNull();
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ p: 'c', id: 'ses_other', exp: 9e9 })).toString(
      'base64url',
    );
    expect(tokens.verify('checkin', `${forged}.${signature}`)).toBeNull();
    expect(tokens.verify('checkin', `${payload}.${signature}x`)).toBeNull();
    for (const garbage of ['', 'a', 'a.b', 'a.b.c', '..', 'x'.repeat(5000)]) {
      expect(tokens.verify('checkin', garbage)).toBeNull();
    }
  });

  it('expires after the configured time', () => {
    const issuedAt = Date.UTC(2026, 0, 1);
    const token = tokens.sign('checkin', 'ses_abc', issuedAt);
    expect(tokens.verify('checkin', token, issuedAt + 23.9 * 3600_000)).toBe('ses_abc');
    expect(tokens.verify('checkin', token, issuedAt + 24 * 3600_000)).toBeNull();
  });

  it('links in emails (settings, unsubscribe) live EMAIL_LINK_TTL_DAYS, not a day', () => {
    const issuedAt = Date.UTC(2026, 0, 1);
    const token = tokens.sign('settings', 'p:1', issuedAt);
    expect(tokens.verify('settings', token, issuedAt + 25 * 3600_000)).toBe('p:1');
    expect(tokens.verify('settings', token, issuedAt + 30 * 24 * 3600_000)).toBeNull();
    const unsubscribe = tokens.sign('unsubscribe', 'p:checkinReminder', issuedAt);
    expect(tokens.verify('unsubscribe', unsubscribe, issuedAt + 29 * 24 * 3600_000)).toBe(
      'p:checkinReminder',
    );
    expect(tokens.verify('settings', unsubscribe, issuedAt)).toBeNull();
  });
});

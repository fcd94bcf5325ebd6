import {
  checkinDonePath,
  checkinFormPath,
  checkinPath,
  engineHandoffUrl,
  settingsPath,
  withSavedFlag,
} from './page-links';

describe('page links', () => {
  const token = 'eyJwIjoiYyJ9.abc-_';

  it('builds check-in paths', () => {
    expect(checkinPath(token)).toBe('/checkin/eyJwIjoiYyJ9.abc-_');
    expect(checkinFormPath(token, 'privacy')).toBe('/checkin/eyJwIjoiYyJ9.abc-_/privacy');
    expect(checkinDonePath(token)).toBe('/checkin/eyJwIjoiYyJ9.abc-_/done');
  });

  it('builds settings paths with the token in the query', () => {
    expect(settingsPath(token)).toBe('/participant/settings?token=eyJwIjoiYyJ9.abc-_');
    expect(settingsPath(token, 'preferences')).toBe(
      '/participant/settings/preferences?token=eyJwIjoiYyJ9.abc-_',
    );
  });

  it('encodes whatever the token holds', () => {
    expect(checkinPath('a/b?c#d')).toBe('/checkin/a%2Fb%3Fc%23d');
    expect(settingsPath('a&b=c')).toBe('/participant/settings?token=a%26b%3Dc');
  });

  it('adds the saved flag', () => {
    expect(withSavedFlag('/checkin/x', 'consent')).toBe('/checkin/x?saved=consent');
    expect(withSavedFlag('/participant/settings?token=x', 'privacy')).toBe(
      '/participant/settings?token=x&saved=privacy',
    );
  });

  it('hands off to the engine with the session id and the hand-off token, keeping its own query', () => {
    expect(engineHandoffUrl('https://engine.example.com/start', 'ses_1', 'tok')).toBe(
      'https://engine.example.com/start?sessionID=ses_1&handoff=tok',
    );
    expect(engineHandoffUrl('https://engine.example.com/start?lang=en', 'ses_1', 'tok')).toBe(
      'https://engine.example.com/start?lang=en&sessionID=ses_1&handoff=tok',
    );
    expect(
      engineHandoffUrl('https://engine.example.com/start', 'ses_1', 'tok', { confirmed: true }),
    ).toBe('https://engine.example.com/start?sessionID=ses_1&handoff=tok&confirmed=1');
  });

  it('tells the engine biometric=off (before confirmed=1) only when inference is off', () => {
    const url = 'https://engine.example.com/start';
    expect(engineHandoffUrl(url, 'ses_1', 'tok', { biometric: false })).toBe(
      `${url}?sessionID=ses_1&handoff=tok&biometric=off`,
    );
    expect(engineHandoffUrl(url, 'ses_1', 'tok', { biometric: false, confirmed: true })).toBe(
      `${url}?sessionID=ses_1&handoff=tok&biometric=off&confirmed=1`,
    );
    expect(engineHandoffUrl(url, 'ses_1', 'tok', { biometric: true })).toBe(
      `${url}?sessionID=ses_1&handoff=tok`,
    );
  });
});

import { loggablePath } from './logger-options';

describe('loggablePath', () => {
  it('drops query strings and masks check-in tokens', () => {
    expect(loggablePath('/groups?x=1')).toBe('/groups');
    expect(loggablePath('/checkin/eyJwIjoiYyJ9.c2ln/privacy')).toBe('/checkin/[token]/privacy');
    expect(loggablePath('/checkin/eyJwIjoiYyJ9.c2ln')).toBe('/checkin/[token]');
    expect(loggablePath('/participant/settings?token=abc')).toBe('/participant/settings');
  });
});

import { loadConfig } from '../../config/config';
import { buildLoggerOptions, loggablePath, usePrettyLogs } from './logger-options';

describe('loggablePath', () => {
  it('drops query strings and masks check-in tokens', () => {
    expect(loggablePath('/groups?x=1')).toBe('/groups');
    expect(loggablePath('/checkin/eyJwIjoiYyJ9.c2ln/privacy')).toBe('/checkin/[token]/privacy');
    expect(loggablePath('/checkin/eyJwIjoiYyJ9.c2ln')).toBe('/checkin/[token]');
    expect(loggablePath('/participant/settings?token=abc')).toBe('/participant/settings');
  });
});

describe('usePrettyLogs', () => {
  it('prints readable logs only in development, at a terminal, with pino-pretty installed', () => {
    expect(usePrettyLogs({ env: 'development' }, true, true)).toBe(true);
    expect(usePrettyLogs({ env: 'development' }, false, true)).toBe(false);
    expect(usePrettyLogs({ env: 'development' }, true, false)).toBe(false);
    expect(usePrettyLogs({ env: 'production' }, true, true)).toBe(false);
    expect(usePrettyLogs({ env: 'test' }, true, true)).toBe(false);
  });
});

describe('buildLoggerOptions', () => {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
  const pinoOptions = (pretty: boolean) =>
    buildLoggerOptions(config, pretty).pinoHttp as { transport?: { target: string } };

  it('writes JSON lines unless told to be pretty', () => {
    expect(pinoOptions(false).transport).toBeUndefined();
    expect(pinoOptions(true).transport?.target).toBe('pino-pretty');
  });
});

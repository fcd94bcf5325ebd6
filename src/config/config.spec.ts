import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
};

describe('loadConfig', () => {
  it('works with no environment at all, with the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      publicBaseUrl: 'http://localhost:3000',
      database: { url: 'postgres://postgres@127.0.0.1:5432/checkin', migrateOnStart: true },
      redis: { url: 'redis://127.0.0.1:6379' },
      demoBootstrap: true,
    });
  });

  it('names the variable and the reason for a bad value', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual([
      'PORT must be a whole number between 0 and 65535 (got "abc")',
    ]);
    expect(problemsOf({ DATABASE_URL: 'mysql://x' })).toEqual([
      'DATABASE_URL must be a URL starting with postgres:// or postgresql:// (got "mysql://x")',
    ]);
    expect(problemsOf({ NODE_ENV: 'staging' })).toEqual([
      'NODE_ENV must be one of development, test, production (got "staging")',
    ]);
    expect(problemsOf({ DB_MIGRATE_ON_START: 'maybe' })).toEqual([
      'DB_MIGRATE_ON_START must be true or false (got "maybe")',
    ]);
  });

  it('reports every bad variable at once', () => {
    expect(problemsOf({ PORT: '70000', REDIS_URL: 'http://x' })).toHaveLength(2);
  });

  it('derives the default public URL from PORT', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
  });

  it('treats empty values as unset and strips a trailing slash from PUBLIC_BASE_URL', () => {
    const config = loadConfig({ PORT: '', PUBLIC_BASE_URL: 'https://checkin.example.com/' });
    expect(config.port).toBe(3000);
    expect(config.publicBaseUrl).toBe('https://checkin.example.com');
  });

  const PRODUCTION = {
    NODE_ENV: 'production',
    DATA_ENCRYPTION_KEY: 'a'.repeat(64),
    CHECKIN_TOKEN_SECRET: 's'.repeat(32),
    ENGINE_TOKEN: 't'.repeat(32),
  };

  it('does not bootstrap demo data in production or tests unless asked', () => {
    expect(loadConfig(PRODUCTION).demoBootstrap).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).demoBootstrap).toBe(false);
    expect(loadConfig({ ...PRODUCTION, DEMO_BOOTSTRAP: 'true' }).demoBootstrap).toBe(true);
  });

  it('requires real secrets in production, and uses flagged development defaults elsewhere', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'DATA_ENCRYPTION_KEY must be set in production',
      'CHECKIN_TOKEN_SECRET must be set in production',
      'ENGINE_TOKEN must be set in production',
    ]);
    expect(loadConfig(PRODUCTION).developmentSecrets).toEqual([]);
    expect(loadConfig({}).developmentSecrets).toEqual([
      'DATA_ENCRYPTION_KEY',
      'CHECKIN_TOKEN_SECRET',
      'ENGINE_TOKEN',
    ]);
  });

  it('parses the webhook retry schedule and refuses private URLs in production', () => {
    expect(loadConfig({}).webhooks.retryScheduleMs).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 86_400_000,
    ]);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1s,2s' }).webhooks.retryScheduleMs).toEqual([
      1_000, 2_000,
    ]);
    expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: '5 seconds' })[0]).toMatch(
      /^WEBHOOK_RETRY_SCHEDULE must be/,
    );
    expect(problemsOf({ ...PRODUCTION, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).toEqual([
      'WEBHOOK_ALLOW_PRIVATE_URLS must not be true in production',
    ]);
  });

  it('accepts the data key as hex or base64 and refuses other lengths', () => {
    expect(loadConfig({ DATA_ENCRYPTION_KEY: 'ab'.repeat(32) }).dataEncryptionKey).toHaveLength(32);
    expect(
      loadConfig({ DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).dataEncryptionKey,
    ).toEqual(Buffer.alloc(32, 7));
    expect(problemsOf({ DATA_ENCRYPTION_KEY: 'short' })[0]).toMatch(
      /^DATA_ENCRYPTION_KEY must be 32 bytes/,
    );
  });

  describe('key rotation lists', () => {
    const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');

    it('DATA_ENCRYPTION_KEYS: newest first, then k0 = DATA_ENCRYPTION_KEY', () => {
      const config = loadConfig({
        DATA_ENCRYPTION_KEY: key(1),
        DATA_ENCRYPTION_KEYS: `k3:${key(3)}, k2:${'02'.repeat(32)}`,
      });
      expect(config.dataKeys.map((entry) => entry.id)).toEqual(['k3', 'k2', 'k0']);
      expect(config.dataKeys[1].key).toEqual(Buffer.alloc(32, 2));
      expect(config.dataKeys[2].key).toEqual(Buffer.alloc(32, 1));
      expect(loadConfig({}).dataKeys.map((entry) => entry.id)).toEqual(['k0']);
    });

    it('CHECKIN_TOKEN_SECRETS: newest first; k0 only when CHECKIN_TOKEN_SECRET is set (or neither)', () => {
      const secret = 's'.repeat(32);
      expect(
        loadConfig({ CHECKIN_TOKEN_SECRETS: `t2:${secret}:with:colons,t1:${secret}` }).checkin
          .tokenSecrets,
      ).toEqual([
        { id: 't2', secret: `${secret}:with:colons` },
        { id: 't1', secret },
      ]);
      expect(
        loadConfig({
          CHECKIN_TOKEN_SECRETS: `t1:${secret}`,
          CHECKIN_TOKEN_SECRET: 'x'.repeat(32),
        }).checkin.tokenSecrets.map((entry) => entry.id),
      ).toEqual(['t1', 'k0']);
      expect(loadConfig({}).checkin.tokenSecrets.map((entry) => entry.id)).toEqual(['k0']);
      // In production the list replaces the single secret.
      expect(() =>
        loadConfig({
          ...PRODUCTION,
          CHECKIN_TOKEN_SECRET: '',
          CHECKIN_TOKEN_SECRETS: `t1:${secret}`,
        }),
      ).not.toThrow();
    });

    it.each([
      [
        `k1${key(1)}`,
        'DATA_ENCRYPTION_KEYS must be a comma-separated list of id:secret, newest first, with ids of 1 to 16 letters, digits, _ or - (entry 1 has no valid key id)',
      ],
      [
        `k1:${key(1)},:${key(2)}`,
        'DATA_ENCRYPTION_KEYS must be a comma-separated list of id:secret, newest first, with ids of 1 to 16 letters, digits, _ or - (entry 2 has no valid key id)',
      ],
      [
        `k.1:${key(1)}`,
        'DATA_ENCRYPTION_KEYS must be a comma-separated list of id:secret, newest first, with ids of 1 to 16 letters, digits, _ or - (entry 1 has no valid key id)',
      ],
      [
        `k0:${key(1)}`,
        'DATA_ENCRYPTION_KEYS must not use the key id k0, which names the single key (entry 1)',
      ],
      [`k1:${key(1)},k1:${key(2)}`, 'DATA_ENCRYPTION_KEYS names the key id k1 twice'],
      [
        'k1:c2hvcnQ=',
        'DATA_ENCRYPTION_KEYS key k1 must be a 32-byte key (64 hex characters or base64, openssl rand -base64 32)',
      ],
    ])('refuses DATA_ENCRYPTION_KEYS=%s, naming the entry but never the key', (value, problem) => {
      expect(problemsOf({ DATA_ENCRYPTION_KEYS: value })).toEqual([problem]);
    });

    it('refuses short link secrets and never repeats a secret in the message', () => {
      expect(problemsOf({ CHECKIN_TOKEN_SECRETS: 't1:short-secret' })).toEqual([
        'CHECKIN_TOKEN_SECRETS key t1 must be a secret of at least 32 characters',
      ]);
      expect(problemsOf({ DATA_ENCRYPTION_KEY: 'not-a-key' })[0]).not.toContain('not-a-key');
    });
  });

  describe('limits per client address and TRUST_PROXY', () => {
    it('allow 300 public requests and 30 authentication failures a minute; 0 turns one off', () => {
      expect(loadConfig({}).addressLimits).toEqual({
        publicRequests: 300,
        authFailures: 30,
        windowMs: 60_000,
      });
      expect(
        loadConfig({ PUBLIC_RATE_LIMIT_REQUESTS: '0', AUTH_FAILURE_LIMIT: '0' }).addressLimits,
      ).toEqual({ publicRequests: 0, authFailures: 0, windowMs: 60_000 });
      expect(problemsOf({ PUBLIC_RATE_LIMIT_REQUESTS: '-1', AUTH_FAILURE_LIMIT: '1.5' })).toEqual([
        'PUBLIC_RATE_LIMIT_REQUESTS must be a whole number between 0 and 1000000000 (got "-1")',
        'AUTH_FAILURE_LIMIT must be a whole number between 0 and 1000000000 (got "1.5")',
      ]);
    });

    it('TRUST_PROXY: off unless set; a number of proxies; or proxy addresses and CIDRs', () => {
      const trustProxy = (value?: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
      expect(trustProxy()).toBe(false);
      expect(trustProxy('false')).toBe(false);
      expect(trustProxy('0')).toBe(false);
      expect(trustProxy('1')).toBe(1);
      expect(trustProxy('2')).toBe(2);
      expect(trustProxy('10.0.0.1')).toEqual(['10.0.0.1']);
      expect(trustProxy('10.0.0.0/8, 192.168.1.5,fd00::/8,::1,loopback')).toEqual([
        '10.0.0.0/8',
        '192.168.1.5',
        'fd00::/8',
        '::1',
        'loopback',
      ]);
    });

    it('TRUST_PROXY: refuses true, and anything but addresses, CIDRs or a number', () => {
      expect(problemsOf({ TRUST_PROXY: 'true' })).toEqual([
        'TRUST_PROXY must not be true: every client could then choose its own address with ' +
          'X-Forwarded-For; give the number of proxies (e.g. 1) or their addresses (got "true")',
      ]);
      const rule =
        'TRUST_PROXY must be false, the number of proxies in front of the service (e.g. 1), or a ' +
        'comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.0/8,192.168.1.5)';
      for (const value of [
        'yes',
        '10.0.0.300',
        '10.0.0.0/33',
        'fd00::/129',
        '10.0.0.0/8/1',
        '10.0.0.0/x',
        '10.0.0.1,',
        'proxy.example.com',
        '-1',
        '1000',
      ]) {
        expect(problemsOf({ TRUST_PROXY: value })).toEqual([`${rule} (got "${value}")`]);
      }
    });
  });

  it('.env.example documents exactly the variables the service reads', () => {
    const example = readFileSync(join(__dirname, '..', '..', '.env.example'), 'utf8');
    const listed = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]);
    expect([...listed].sort()).toEqual([...CONFIG_VARIABLES].sort());
    // Every value in the example must itself be valid.
    const values = Object.fromEntries(
      [...example.matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((match) => [match[1], match[2]]),
    );
    expect(() => loadConfig(values)).not.toThrow();
  });
});

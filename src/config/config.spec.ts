import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, ConfigError, loadConfig, opsPortOf } from './config';

/** Development unless the test says otherwise (production is the default of the real thing). */
const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'development', ...env });

const problemsOf = (env: Record<string, string>) => {
  try {
    load(env);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
};

describe('loadConfig', () => {
  it('works in development with no other variable, with the documented defaults', () => {
    const config = load({});
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

  it('takes one sender address in EMAIL_FROM, with or without a display name', () => {
    for (const from of ['no-reply', 'a@example.com, b@example.com', 'team: a@example.com;']) {
      expect(problemsOf({ EMAIL_FROM: from })).toEqual([
        `EMAIL_FROM must be an address like "Check-in <no-reply@example.com>" (got "${from}")`,
      ]);
    }
    expect(load({ EMAIL_FROM: 'Wellbeing <no-reply@wellbeing.example>' }).email.from).toBe(
      'Wellbeing <no-reply@wellbeing.example>',
    );
    expect(problemsOf({ EMAIL_FROM: 'no-reply@wellbeing.example' })).toEqual([]);
  });

  it('reports every bad variable at once', () => {
    expect(problemsOf({ PORT: '70000', REDIS_URL: 'http://x' })).toHaveLength(2);
  });

  it('gives each process its own operations port unless OPS_PORT says one; 0 turns it off', () => {
    const unset = load({});
    expect(unset.ops).toEqual({ port: null, host: '127.0.0.1' });
    expect([opsPortOf(unset, 'api'), opsPortOf(unset, 'worker')]).toEqual([9464, 9465]);
    const set = load({ OPS_PORT: '9100', OPS_HOST: '0.0.0.0' });
    expect([opsPortOf(set, 'api'), opsPortOf(set, 'worker'), set.ops.host]).toEqual([
      9100,
      9100,
      '0.0.0.0',
    ]);
    expect(opsPortOf(load({ OPS_PORT: '0' }), 'worker')).toBe(0);
    expect(problemsOf({ OPS_PORT: 'metrics' })).toEqual([
      'OPS_PORT must be a whole number between 0 and 65535 (got "metrics")',
    ]);
  });

  it('derives the default public URL from PORT', () => {
    expect(load({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
  });

  it('treats empty values as unset and strips a trailing slash from PUBLIC_BASE_URL', () => {
    const config = load({ PORT: '', PUBLIC_BASE_URL: 'https://checkin.example.com/' });
    expect(config.port).toBe(3000);
    expect(config.publicBaseUrl).toBe('https://checkin.example.com');
  });

  const PRODUCTION = {
    NODE_ENV: 'production',
    DATA_ENCRYPTION_KEY: 'a'.repeat(64),
    CHECKIN_TOKEN_SECRET: 's'.repeat(32),
    ENGINE_TOKEN: 't'.repeat(32),
    PUBLIC_BASE_URL: 'https://checkin.example.com',
    SMTP_URL: 'smtp://mail.example.com:587',
    TRUST_PROXY: 'none',
    OPERATOR_NAME: 'Wellbeing Services Ltd',
    PRIVACY_NOTICE_URL: 'https://wellbeing.example.com/privacy',
    EMAIL_FROM: 'Wellbeing <no-reply@wellbeing.example.com>',
  };

  const TRUST_PROXY_REQUIRED =
    'TRUST_PROXY must be set in production: none (clients connect to the service directly), ' +
    'the number of proxies in front of it, or their addresses/CIDRs, so that the limits per ' +
    'client address never count a load balancer as one client (docs/security.md)';

  it('does not bootstrap demo data in production or tests unless asked', () => {
    expect(load(PRODUCTION).demoBootstrap).toBe(false);
    expect(load({ NODE_ENV: 'test' }).demoBootstrap).toBe(false);
    expect(load({}).demoBootstrap).toBe(true);
    expect(load({ ...PRODUCTION, DEMO_BOOTSTRAP: 'true' }).demoBootstrap).toBe(true);
  });

  it('is production when NODE_ENV is unset, and then refuses to start without what production needs', () => {
    const problems = [
      'DATA_ENCRYPTION_KEY must be set in production',
      'CHECKIN_TOKEN_SECRET must be set in production',
      'ENGINE_TOKEN must be set in production',
      'PUBLIC_BASE_URL must be set in production, to the https:// address participants reach',
      TRUST_PROXY_REQUIRED,
      'OPERATOR_NAME must be set in production: participants are told who runs the service before anything is recorded',
      "PRIVACY_NOTICE_URL must be set in production (https://): the operator's privacy notice",
      'SMTP_URL must be set in production (or MAIL_TRANSPORT=file to write mails as files under MAIL_DIR)',
      "EMAIL_FROM must be set in production: the sender of every mail, an address of the operator's domain (the default, @checkin.local, is nobody's)",
    ];
    expect(problemsOf({ NODE_ENV: '' })).toEqual([
      'NODE_ENV is not set, so production rules apply (on a laptop, set NODE_ENV=development)',
      ...problems,
    ]);
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual(problems);
    expect(loadConfig({ ...PRODUCTION, NODE_ENV: undefined })).toMatchObject({
      env: 'production',
      isProduction: true,
    });
  });

  it.each([
    ['api', '`npm start`'],
    ['worker', '`npm run start:worker:dev`'],
    ['cli', '`npm run cli:dev -- <command>`'],
  ] as const)(
    'NODE_ENV unset: the refusal of the %s starts with the command that runs it in development',
    (entry, command) => {
      let problems: string[] = [];
      try {
        loadConfig({}, entry);
      } catch (error) {
        problems = (error as ConfigError).problems;
      }
      expect(problems[0]).toBe(
        `NODE_ENV is not set, so production rules apply (on a laptop, ${command} runs in development)`,
      );
      expect(problems.slice(1)).toContain('DATA_ENCRYPTION_KEY must be set in production');
      expect((): unknown => loadConfig({ NODE_ENV: 'production' }, entry)).toThrow(
        /^Invalid configuration: DATA_ENCRYPTION_KEY must be set in production;/,
      );
      expect(loadConfig({ NODE_ENV: 'development' }, entry).env).toBe('development');
    },
  );

  it('names only the missing secrets; a list of link secrets replaces the single one', () => {
    const { DATA_ENCRYPTION_KEY: _key, ENGINE_TOKEN: _token, ...rest } = PRODUCTION;
    expect(problemsOf(rest)).toEqual([
      'DATA_ENCRYPTION_KEY must be set in production',
      'ENGINE_TOKEN must be set in production',
    ]);
    expect(problemsOf({ ...PRODUCTION, ENGINE_TOKEN: '' })).toEqual([
      'ENGINE_TOKEN must be set in production',
    ]);
  });

  it('refuses a non-https PUBLIC_BASE_URL in production', () => {
    expect(problemsOf({ ...PRODUCTION, PUBLIC_BASE_URL: 'http://checkin.example.com' })).toEqual([
      'PUBLIC_BASE_URL must be an https:// URL in production (got "http://checkin.example.com")',
    ]);
    expect(load({ PUBLIC_BASE_URL: 'http://localhost:3000' }).publicBaseUrl).toBe(
      'http://localhost:3000',
    );
  });

  it('never repeats SMTP_URL in an error: it may carry the mail server password', () => {
    const problems = problemsOf({ SMTP_URL: 'http://mailer:hunter2@mail.example.com' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^SMTP_URL /);
    expect(problems[0]).not.toContain('hunter2');
  });

  it('needs a mail transport in production: SMTP_URL, or MAIL_TRANSPORT=file said explicitly', () => {
    const { SMTP_URL: _smtp, ...withoutSmtp } = PRODUCTION;
    expect(problemsOf(withoutSmtp)).toEqual([
      'SMTP_URL must be set in production (or MAIL_TRANSPORT=file to write mails as files under MAIL_DIR)',
    ]);
    expect(loadConfig({ ...withoutSmtp, MAIL_TRANSPORT: 'file' }).email.transport).toBe('file');
    expect(loadConfig(PRODUCTION).email.transport).toBe('smtp');
    expect(load({}).email.transport).toBe('file');
    expect(problemsOf({ MAIL_TRANSPORT: 'smtp' })).toEqual([
      'SMTP_URL must be set when MAIL_TRANSPORT is smtp',
    ]);
    expect(problemsOf({ MAIL_TRANSPORT: 'file', SMTP_URL: 'smtp://x:25' })).toEqual([
      'SMTP_URL must not be set when MAIL_TRANSPORT is file (choose one transport)',
    ]);
    expect(problemsOf({ MAIL_TRANSPORT: 'pigeon' })).toEqual([
      'MAIL_TRANSPORT must be smtp or file (got "pigeon")',
    ]);
  });

  it('keeps links in emails 14 days at most', () => {
    expect(load({}).email.linkTtlHours).toBe(14 * 24);
    expect(problemsOf({ EMAIL_LINK_TTL_DAYS: '30' })).toEqual([
      'EMAIL_LINK_TTL_DAYS must be a whole number between 1 and 14 (got "30")',
    ]);
  });

  it('outside production, a missing secret is random for the process, never a constant', () => {
    expect(loadConfig(PRODUCTION).ephemeralSecrets).toEqual([]);
    const a = load({});
    const b = load({});
    expect(a.ephemeralSecrets).toEqual([
      'DATA_ENCRYPTION_KEY',
      'CHECKIN_TOKEN_SECRET',
      'ENGINE_TOKEN',
    ]);
    expect(a.dataEncryptionKey).toHaveLength(32);
    expect(a.dataEncryptionKey.equals(b.dataEncryptionKey)).toBe(false);
    expect(a.engineToken).not.toBe(b.engineToken);
    expect(a.checkin.tokenSecrets[0].secret).not.toBe(b.checkin.tokenSecrets[0].secret);
    expect(a.engineToken.length).toBeGreaterThanOrEqual(32);
  });

  it('parses the webhook retry schedule and refuses private URLs in production', () => {
    expect(load({}).webhooks.retryScheduleMs).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 86_400_000,
    ]);
    expect(load({ WEBHOOK_RETRY_SCHEDULE: '1s,2s' }).webhooks.retryScheduleMs).toEqual([
      1_000, 2_000,
    ]);
    expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: '5 seconds' })[0]).toMatch(
      /^WEBHOOK_RETRY_SCHEDULE must be/,
    );
    expect(problemsOf({ ...PRODUCTION, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).toEqual([
      'WEBHOOK_ALLOW_PRIVATE_URLS must not be true in production',
    ]);
  });

  it('allows private webhook URLs by default in development only (local receivers)', () => {
    expect(load({}).webhooks.allowPrivateUrls).toBe(true);
    expect(load({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }).webhooks.allowPrivateUrls).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).webhooks.allowPrivateUrls).toBe(false);
    expect(loadConfig(PRODUCTION).webhooks.allowPrivateUrls).toBe(false);
  });

  it('accepts the data key as hex or base64 and refuses other lengths', () => {
    expect(load({ DATA_ENCRYPTION_KEY: 'ab'.repeat(32) }).dataEncryptionKey).toHaveLength(32);
    expect(
      load({ DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).dataEncryptionKey,
    ).toEqual(Buffer.alloc(32, 7));
    expect(problemsOf({ DATA_ENCRYPTION_KEY: 'short' })[0]).toMatch(
      /^DATA_ENCRYPTION_KEY must be 32 bytes/,
    );
  });

  describe('key rotation lists', () => {
    const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');

    it('DATA_ENCRYPTION_KEYS: newest first, then k0 = DATA_ENCRYPTION_KEY', () => {
      const config = load({
        DATA_ENCRYPTION_KEY: key(1),
        DATA_ENCRYPTION_KEYS: `k3:${key(3)}, k2:${'02'.repeat(32)}`,
      });
      expect(config.dataKeys.map((entry) => entry.id)).toEqual(['k3', 'k2', 'k0']);
      expect(config.dataKeys[1].key).toEqual(Buffer.alloc(32, 2));
      expect(config.dataKeys[2].key).toEqual(Buffer.alloc(32, 1));
      expect(load({}).dataKeys.map((entry) => entry.id)).toEqual(['k0']);
    });

    it('CHECKIN_TOKEN_SECRETS: newest first; k0 only when CHECKIN_TOKEN_SECRET is set (or neither)', () => {
      const secret = 's'.repeat(32);
      expect(
        load({ CHECKIN_TOKEN_SECRETS: `t2:${secret}:with:colons,t1:${secret}` }).checkin
          .tokenSecrets,
      ).toEqual([
        { id: 't2', secret: `${secret}:with:colons` },
        { id: 't1', secret },
      ]);
      expect(
        load({
          CHECKIN_TOKEN_SECRETS: `t1:${secret}`,
          CHECKIN_TOKEN_SECRET: 'x'.repeat(32),
        }).checkin.tokenSecrets.map((entry) => entry.id),
      ).toEqual(['t1', 'k0']);
      expect(load({}).checkin.tokenSecrets.map((entry) => entry.id)).toEqual(['k0']);
      // In production the list replaces the single secret.
      expect(() =>
        load({
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
      expect(load({}).addressLimits).toEqual({
        publicRequests: 300,
        authFailures: 30,
        windowMs: 60_000,
      });
      expect(
        load({ PUBLIC_RATE_LIMIT_REQUESTS: '0', AUTH_FAILURE_LIMIT: '0' }).addressLimits,
      ).toEqual({ publicRequests: 0, authFailures: 0, windowMs: 60_000 });
      expect(problemsOf({ PUBLIC_RATE_LIMIT_REQUESTS: '-1', AUTH_FAILURE_LIMIT: '1.5' })).toEqual([
        'PUBLIC_RATE_LIMIT_REQUESTS must be a whole number between 0 and 1000000000 (got "-1")',
        'AUTH_FAILURE_LIMIT must be a whole number between 0 and 1000000000 (got "1.5")',
      ]);
    });

    it('TRUST_PROXY: none unless set (outside production); a number of proxies; or proxy addresses and CIDRs', () => {
      const trustProxy = (value?: string) =>
        load(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;
      expect(trustProxy()).toBe(false);
      expect(trustProxy('none')).toBe(false);
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

    it('TRUST_PROXY: production refuses to start until it is said explicitly, none included', () => {
      const { TRUST_PROXY: _trustProxy, ...unset } = PRODUCTION;
      expect(problemsOf(unset)).toEqual([TRUST_PROXY_REQUIRED]);
      expect(problemsOf({ ...unset, TRUST_PROXY: '' })).toEqual([TRUST_PROXY_REQUIRED]);
      for (const [value, expected] of [
        ['none', false],
        ['false', false],
        ['2', 2],
        ['10.0.0.0/8', ['10.0.0.0/8']],
      ] as const) {
        expect(loadConfig({ ...unset, TRUST_PROXY: value }).trustProxy).toEqual(expected);
      }
    });

    it('TRUST_PROXY: refuses true, and anything but addresses, CIDRs or a number', () => {
      expect(problemsOf({ TRUST_PROXY: 'true' })).toEqual([
        'TRUST_PROXY must not be true: every client could then choose its own address with ' +
          'X-Forwarded-For; give the number of proxies (e.g. 1) or their addresses (got "true")',
      ]);
      const rule =
        'TRUST_PROXY must be none, the number of proxies in front of the service (e.g. 1), or a ' +
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
      // As the shell reads them: a value in double quotes loses them and its escapes.
      [...example.matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)].map((match) => [
        match[1],
        /^".*"$/.test(match[2]) ? match[2].slice(1, -1).replace(/\\(["\\$`])/g, '$1') : match[2],
      ]),
    );
    expect(() => load(values)).not.toThrow();
  });
});

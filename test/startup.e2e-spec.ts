import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { renderPage } from '../src/pages/page-templates';
import { PAGE_ERRORS } from '../src/pages/pages.messages';
import { SANDBOX_NOTE } from '../src/enterprises/enterprises.service';
import { databaseUrl, dropDatabase, testDatabasePrefix } from './support/databases';
import {
  createEnterpriseWithCli,
  distEntry,
  freePort,
  runCommand,
  RunningProcess,
  runToExit,
  startService,
} from './support/processes';
import { runDirectory } from './support/run-environment';

const stderrLines = (stderr: string) => stderr.split('\n').filter((line) => line.trim() !== '');

/** Resolves once the process logged its last start-up step (src/main.ts), within 15 s. */
async function startUpComplete(service: RunningProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!service.output().includes('Start-up complete')) {
    if (Date.now() > deadline) throw new Error(`no "Start-up complete": ${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Start-up', () => {
  const fresh = `${testDatabasePrefix()}startup_${process.pid}`;
  afterAll(() => dropDatabase(fresh));

  it('stops on a bad variable with one line naming it and the reason', async () => {
    const result = await runToExit('main', [], { PORT: 'abc', REDIS_URL: 'http://nope' });
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      'Invalid configuration: PORT must be a whole number between 0 and 65535 (got "abc"); ' +
        'REDIS_URL must be a URL starting with redis:// or rediss:// (got "http://nope")',
    ]);
  });

  it('refuses invalid key lists (API and worker) in one line naming the entry, never a secret', async () => {
    const goodKey = Buffer.alloc(32, 1).toString('base64');
    const cases: [Record<string, string>, string][] = [
      [
        { DATA_ENCRYPTION_KEYS: `k2:${goodKey},k1:c2hvcnQ=` },
        'Invalid configuration: DATA_ENCRYPTION_KEYS key k1 must be a 32-byte key (64 hex characters or base64, openssl rand -base64 32)',
      ],
      [
        { DATA_ENCRYPTION_KEYS: `k1:${goodKey},k1:${goodKey}` },
        'Invalid configuration: DATA_ENCRYPTION_KEYS names the key id k1 twice',
      ],
      [
        { CHECKIN_TOKEN_SECRETS: `k0:${'s'.repeat(40)}` },
        'Invalid configuration: CHECKIN_TOKEN_SECRETS must not use the key id k0, which names the single key (entry 1)',
      ],
      [
        { CHECKIN_TOKEN_SECRETS: 'no-key-id-here-but-long-enough-0123456789' },
        'Invalid configuration: CHECKIN_TOKEN_SECRETS must be a comma-separated list of id:secret, newest first, with ids of 1 to 16 letters, digits, _ or - (entry 1 has no valid key id)',
      ],
    ];
    for (const entry of ['main', 'worker'] as const) {
      for (const [env, line] of cases) {
        const result = await runToExit(entry, [], env);
        expect(result.code).toBe(1);
        expect(stderrLines(result.stderr)).toEqual([line]);
        expect(result.stderr).not.toMatch(new RegExp(`${goodKey.slice(0, 12)}|c2hvcnQ|sss|0123`));
      }
    }
  });

  describe('fails closed: production is the default, and refuses what is not safe', () => {
    const goodKey = Buffer.alloc(32, 3).toString('base64');
    const PRODUCTION = {
      NODE_ENV: 'production',
      DATA_ENCRYPTION_KEY: goodKey,
      CHECKIN_TOKEN_SECRET: 't'.repeat(40),
      ENGINE_TOKEN: 'e'.repeat(40),
      PUBLIC_BASE_URL: 'https://checkin.example.com',
      SMTP_URL: 'smtp://127.0.0.1:1025',
      TRUST_PROXY: 'none',
      OPERATOR_NAME: 'Wellbeing Services Ltd',
      PRIVACY_NOTICE_URL: 'https://wellbeing.example.com/privacy',
      EMAIL_FROM: 'Wellbeing <no-reply@wellbeing.example.com>',
    };
    const without = (...names: (keyof typeof PRODUCTION)[]) =>
      Object.fromEntries(
        Object.entries(PRODUCTION).map(([name, value]) => [
          name,
          (names as string[]).includes(name) ? '' : value,
        ]),
      );
    // A laptop's environment: no NODE_ENV, none of the variables production requires.
    it.each([
      ['main', [], '`npm start`'],
      ['worker', [], '`npm run start:worker:dev`'],
      ['cli', ['enterprises:create', '--sandbox'], '`npm run cli:dev -- <command>`'],
    ] as const)(
      'NODE_ENV unset and nothing configured: dist/%s.js refuses, naming first its development command',
      async (entry, args, command) => {
        const result = await runCommand(process.execPath, [distEntry(entry), ...args], {
          env: { PATH: process.env.PATH, HOME: process.env.HOME },
          cwd: runDirectory(),
        });
        expect(result.code).toBe(1);
        expect(stderrLines(result.stderr)).toEqual([
          `Invalid configuration: NODE_ENV is not set, so production rules apply (on a laptop, ${command} runs in development); ` +
            'DATA_ENCRYPTION_KEY must be set in production; ' +
            'CHECKIN_TOKEN_SECRET must be set in production; ENGINE_TOKEN must be set in production; ' +
            'PUBLIC_BASE_URL must be set in production, to the https:// address participants reach; ' +
            'TRUST_PROXY must be set in production: none (clients connect to the service directly), ' +
            'the number of proxies in front of it, or their addresses/CIDRs, so that the limits per ' +
            'client address never count a load balancer as one client (docs/security.md); ' +
            'OPERATOR_NAME must be set in production: participants are told who runs the service ' +
            'before anything is recorded; ' +
            "PRIVACY_NOTICE_URL must be set in production (https://): the operator's privacy notice; " +
            'SMTP_URL must be set in production (or MAIL_TRANSPORT=file to write mails as files under MAIL_DIR); ' +
            "EMAIL_FROM must be set in production: the sender of every mail, an address of the operator's domain (the default, @checkin.local, is nobody's)",
        ]);
        expect(result.stdout).toBe('');
      },
    );

    it('a migration run without NODE_ENV refuses in one line that says what to set, not a stack trace', async () => {
      const result = await runCommand(
        process.execPath,
        [
          join(__dirname, '..', 'node_modules', 'typeorm', 'cli.js'),
          'migration:run',
          '-d',
          join(__dirname, '..', 'dist', 'database', 'data-source.js'),
        ],
        { env: { PATH: process.env.PATH, HOME: process.env.HOME }, cwd: runDirectory() },
      );
      expect(result.code).toBe(1);
      const lines = stderrLines(result.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^Invalid configuration: NODE_ENV is not set, so production rules apply \(on a laptop, `NODE_ENV=development npm run migration:run` runs in development\); DATA_ENCRYPTION_KEY must be set in production;/,
      );
    });

    const cases: [string, Record<string, string>, string][] = [
      [
        'no sender address (mail would go out from @checkin.local)',
        without('EMAIL_FROM'),
        "Invalid configuration: EMAIL_FROM must be set in production: the sender of every mail, an address of the operator's domain (the default, @checkin.local, is nobody's)",
      ],
      [
        'no data key',
        without('DATA_ENCRYPTION_KEY'),
        'Invalid configuration: DATA_ENCRYPTION_KEY must be set in production',
      ],
      [
        'no link secret',
        without('CHECKIN_TOKEN_SECRET'),
        'Invalid configuration: CHECKIN_TOKEN_SECRET must be set in production',
      ],
      [
        'no engine token',
        without('ENGINE_TOKEN'),
        'Invalid configuration: ENGINE_TOKEN must be set in production',
      ],
      [
        'an http PUBLIC_BASE_URL',
        { ...PRODUCTION, PUBLIC_BASE_URL: 'http://checkin.example.com' },
        'Invalid configuration: PUBLIC_BASE_URL must be an https:// URL in production (got "http://checkin.example.com")',
      ],
      [
        'no PUBLIC_BASE_URL',
        without('PUBLIC_BASE_URL'),
        'Invalid configuration: PUBLIC_BASE_URL must be set in production, to the https:// address participants reach',
      ],
      [
        'no mail transport',
        without('SMTP_URL'),
        'Invalid configuration: SMTP_URL must be set in production (or MAIL_TRANSPORT=file to write mails as files under MAIL_DIR)',
      ],
      [
        'TRUST_PROXY not said explicitly',
        without('TRUST_PROXY'),
        'Invalid configuration: TRUST_PROXY must be set in production: none (clients connect to ' +
          'the service directly), the number of proxies in front of it, or their addresses/CIDRs, ' +
          'so that the limits per client address never count a load balancer as one client ' +
          '(docs/security.md)',
      ],
      [
        'MAIL_TRANSPORT=smtp without SMTP_URL',
        { ...without('SMTP_URL'), MAIL_TRANSPORT: 'smtp' },
        'Invalid configuration: SMTP_URL must be set when MAIL_TRANSPORT is smtp',
      ],
      [
        'private webhook URLs',
        { ...PRODUCTION, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
        'Invalid configuration: WEBHOOK_ALLOW_PRIVATE_URLS must not be true in production',
      ],
    ];

    it.each(cases)('API, worker and CLI refuse to start: %s', async (_name, env, line) => {
      for (const entry of ['main', 'worker', 'cli'] as const) {
        const result = await runToExit(entry, entry === 'cli' ? ['api-keys:list'] : [], env);
        expect(result.code).toBe(1);
        expect(stderrLines(result.stderr)).toEqual([line]);
        expect(result.stderr).not.toContain(goodKey.slice(0, 12));
        expect(result.stdout).toBe('');
      }
    });

    it('starts in production when everything is set (a list of link secrets replaces the single one; MAIL_TRANSPORT=file said explicitly)', async () => {
      const port = await freePort();
      const service = await startService(
        {
          ...without('CHECKIN_TOKEN_SECRET', 'SMTP_URL'),
          CHECKIN_TOKEN_SECRETS: `t1:${'u'.repeat(40)}`,
          MAIL_TRANSPORT: 'file',
          DATABASE_URL: databaseUrl(fresh),
        },
        port,
      );
      try {
        expect(service.output()).not.toMatch(/local secrets|random for this process/);
        // dist/ serves the pages from the templates the build copied (scripts/build-app.js).
        const page = await fetch(`http://127.0.0.1:${port}/checkin/not-a-link`);
        expect(page.status).toBe(404);
        expect(await page.text()).toBe(
          renderPage(
            'error',
            { ...PAGE_ERRORS['not-found'], backHref: null },
            { locale: 'en', url: '/checkin/not-a-link' },
          ),
        );
      } finally {
        expect(await service.stop()).toBe(true);
      }
    });
  });

  describe('a laptop: development with no configuration', () => {
    const directory = mkdtempSync(join(tmpdir(), 'checkin-secrets-'));
    const file = join(directory, 'nested', 'local-secrets.env');
    afterAll(() => rmSync(directory, { recursive: true, force: true }));

    it('generates random secrets into the local secrets file once, and every later process reuses them', async () => {
      const env = {
        NODE_ENV: 'development',
        LOCAL_SECRETS_FILE: file,
        DATABASE_URL: databaseUrl(fresh),
        DEMO_BOOTSTRAP: 'false',
      };
      // Two processes starting together agree on one file.
      const ports = [await freePort(), await freePort()];
      const [a, b] = await Promise.all(ports.map((port) => startService(env, port)));
      const first = readFileSync(file, 'utf8');
      try {
        expect(statSync(file).mode & 0o777).toBe(0o600);
        const values = Object.fromEntries(
          [...first.matchAll(/^([A-Z_]+)=(.+)$/gm)].map((match) => [match[1], match[2]]),
        );
        expect(Object.keys(values)).toEqual([
          'DATA_ENCRYPTION_KEY',
          'CHECKIN_TOKEN_SECRET',
          'ENGINE_TOKEN',
        ]);
        expect(Buffer.from(values.DATA_ENCRYPTION_KEY, 'base64')).toHaveLength(32);
        const notices = [a.output(), b.output()].join('\n');
        expect(notices).toContain(
          `DATA_ENCRYPTION_KEY, CHECKIN_TOKEN_SECRET, ENGINE_TOKEN not set: using the local secrets in ${file}`,
        );
        expect(notices.match(/\(generated now\)/g)).toHaveLength(1);
        // The engine token in the file is the one the service accepts.
        const refused = await fetch(`http://127.0.0.1:${ports[0]}/internal/sessions/x/result`, {
          method: 'POST',
          headers: { authorization: 'Bearer wrong-token', 'content-type': 'application/json' },
          body: '{}',
        });
        expect(refused.status).toBe(401);
        const accepted = await fetch(`http://127.0.0.1:${ports[0]}/internal/sessions/x/result`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${values.ENGINE_TOKEN}`,
            'content-type': 'application/json',
          },
          body: '{}',
        });
        expect(accepted.status).not.toBe(401);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
      // A restart reuses the file as it is; a variable that is set wins over the file.
      const again = await startService({ ...env, ENGINE_TOKEN: 'x'.repeat(40) }, await freePort());
      try {
        expect(readFileSync(file, 'utf8')).toBe(first);
        expect(again.output()).toContain(
          `DATA_ENCRYPTION_KEY, CHECKIN_TOKEN_SECRET not set: using the local secrets in ${file}`,
        );
        expect(again.output()).not.toContain('generated now');
      } finally {
        expect(await again.stop()).toBe(true);
      }
    });
  });

  it('says in one line when PostgreSQL cannot be reached, and how to start it', async () => {
    const result = await runToExit('main', [], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/checkin',
    });
    expect(result.code).toBe(1);
    const lines = stderrLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^PostgreSQL is not reachable at 127\.0\.0\.1:1\/checkin \(ECONNREFUSED\)\. Start PostgreSQL .*docker compose up -d postgres.* or set DATABASE_URL\.$/,
    );
    expect(result.stdout).toBe('');
  });

  it('says in one line when Redis cannot be reached, and how to start it', async () => {
    const result = await runToExit('main', [], {
      DATABASE_URL: databaseUrl(fresh),
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    expect(result.code).toBe(1);
    const lines = stderrLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Redis is not reachable at 127\.0\.0\.1:1 \(ECONNREFUSED\)\. Start Redis .*docker compose up -d redis.* or set REDIS_URL\.$/,
    );
  });

  it('two processes starting together on a missing database: created once, migrated once, one demo enterprise printed once', async () => {
    await dropDatabase(fresh);
    const env = { DATABASE_URL: databaseUrl(fresh), DEMO_BOOTSTRAP: 'true', LOG_LEVEL: 'info' };
    const started = await Promise.allSettled([
      freePort().then((port) => startService(env, port)),
      freePort().then((port) => startService(env, port)),
    ]);
    const running = started.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value] : [],
    );
    if (running.length < 2) {
      await Promise.all(running.map((process) => process.stop()));
      throw (started.find((result) => result.status === 'rejected') as PromiseRejectedResult)
        .reason;
    }
    const [a, b] = running;
    try {
      // Both have run their bootstrap (the loser's finds the enterprise and does nothing).
      await Promise.all([startUpComplete(a), startUpComplete(b)]);
      const printed = [a.output(), b.output()].join('\n').match(/ck_[0-9A-Za-z]{40}/g) ?? [];
      expect(new Set(printed).size).toBe(1);
      expect([a.output(), b.output()].join('\n')).toContain(SANDBOX_NOTE);

      const client = new Client({ connectionString: databaseUrl(fresh) });
      await client.connect();
      try {
        const migrations = await client.query<{ name: string }>(
          'SELECT name FROM typeorm_migrations',
        );
        expect(migrations.rows.length).toBeGreaterThan(0);
        expect(new Set(migrations.rows.map((row) => row.name)).size).toBe(migrations.rows.length);
        const enterprises = await client.query('SELECT name, sandbox FROM enterprises');
        // A sandbox (docs/integrating.md): a newcomer completes sessions without an engine, mails captured.
        expect(enterprises.rows).toEqual([{ name: 'Demo Enterprise', sandbox: true }]);
      } finally {
        await client.end();
      }
    } finally {
      expect(await a.stop()).toBe(true);
      expect(await b.stop()).toBe(true);
    }

    // A restart on a non-empty database prints no key.
    const again = await startService(env, await freePort());
    await startUpComplete(again);
    expect(again.output()).not.toMatch(/ck_[0-9A-Za-z]{40}/);
    expect(await again.stop()).toBe(true);
  });

  it('logs every request as JSON with its id, and never an API key or a query string', async () => {
    const port = await freePort();
    const env = { DATABASE_URL: databaseUrl(fresh), DEMO_BOOTSTRAP: 'true', LOG_LEVEL: 'trace' };
    const service = await startService(env, port);
    try {
      const secretKey = `ck_${'S'.repeat(40)}`;
      await fetch(`http://127.0.0.1:${port}/groups?token=tok_secret`, {
        headers: { 'x-api-key': secretKey, 'x-request-id': 'req-log-1' },
      });
      await fetch(`http://127.0.0.1:${port}/groups`, {
        method: 'POST',
        headers: { 'x-api-key': secretKey, 'content-type': 'application/json' },
        body: JSON.stringify({ groupName: 'person@example.com' }),
      });
      // A real key and a participant's email through the busiest paths, errors included.
      const { apiKey } = await createEnterpriseWithCli(
        { DATABASE_URL: databaseUrl(fresh) },
        'Logs',
      );
      const call = (path: string, body?: unknown) =>
        fetch(`http://127.0.0.1:${port}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then((response) => response.json() as Promise<Record<string, string>>);
      const group = await call('/groups', { groupName: 'Logged' });
      const session = await call('/session/create', {
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: 'logged.person@example.com',
        returnURL: 'https://app.example.com/done',
      });
      await call('/session/create', {
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: 'logged.person@example.com',
        returnURL: 'https://app.example.com/done',
      });
      await call(`/participants/${session.userIdentifier}`);
      // Each request's line is written once it is answered, in order: once the last request's is
      // in, every earlier one's is too.
      const lastLogged = () =>
        service
          .output()
          .split('\n')
          .some(
            (line) =>
              line.includes('"route":"/participants/:externalID"') &&
              line.includes('"msg":"request completed"'),
          );
      const loggedBy = Date.now() + 10_000;
      while (!lastLogged() && Date.now() < loggedBy) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(lastLogged()).toBe(true);
      const output = service.output();
      expect(output).not.toContain(apiKey);
      expect(output).not.toContain(apiKey.slice(11));
      expect(output).not.toContain('logged.person');
      expect(output).not.toContain(secretKey);
      expect(output).not.toContain('SSSSSSSS');
      expect(output).not.toContain('tok_secret');
      expect(output).not.toContain('person@example.com');
      const line = output.split('\n').find((candidate) => candidate.includes('"req-log-1"'));
      expect(JSON.parse(line!)).toMatchObject({
        req: { id: 'req-log-1', method: 'GET' },
        route: '/groups',
        res: { statusCode: 401 },
        msg: 'request completed',
      });
      // The path names the route, never the participant (docs/security.md).
      expect(output).not.toContain(session.userIdentifier);
      expect(output).toContain('"route":"/participants/:externalID"');
    } finally {
      expect(await service.stop()).toBe(true);
    }
  });
});

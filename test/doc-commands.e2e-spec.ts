/**
 * The commands README.md and docs/*.md give work as written on a laptop:
 * - every `npm run <script>` names a script of package.json;
 * - the CLI examples of the laptop docs (README.md, docs/integrating.md) that name a command run
 *   it with `npm run cli:dev`: `npm run cli` and `node dist/cli` apply production rules, which
 *   refuse to start without production's secrets (docs/configuration.md);
 * - a command production refuses (`sessions:simulate-result`) is shown with `cli:dev` in every doc;
 * - docs/integrating.md's sandbox enterprise command, run as written by a shell with nothing but a
 *   database set, prints the enterprise its next line shows, with an API key.
 * The rules check themselves on made-up text that must fail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { VARIABLES } from '../src/config/config';
import { createTestDatabase, databaseUrl, dropDatabase } from './support/databases';
import { runCommand } from './support/processes';
import { runEnvironment } from './support/run-environment';

const ROOT = resolve(__dirname, '..');
const SCRIPTS = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
);
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

/** Where the reader is on a laptop: every CLI example there must run in development. */
const LAPTOP_DOCS = ['README.md', 'docs/integrating.md'];
/** CLI commands production refuses: `npm run cli` never runs them (src/cli/demo.commands.ts). */
const REFUSED_IN_PRODUCTION = ['sessions:simulate-result'];

type Doc = { path: string; text: string };

/** The `npm run <script>` of a doc whose script package.json lacks. */
const unknownScripts = (docs: Doc[], scripts: string[]): string[] =>
  docs.flatMap(({ path, text }) =>
    [...text.matchAll(/npm run\s+([A-Za-z0-9:_-]+)/g)]
      .map((match) => match[1])
      .filter((script) => !scripts.includes(script))
      .map((script) => `${path}: npm run ${script}`),
  );

/** Each CLI invocation that names a command (`enterprises:create`, …), with how it is run. */
const cliInvocations = (docs: Doc[]) =>
  docs.flatMap(({ path, text }) =>
    [
      ...text.matchAll(
        /(npm run cli(?::dev)?\s+--|(?:NODE_ENV=\S+\s+)?node dist\/cli(?:\.js)?)\s+([a-z-]+:[a-z-]+)/g,
      ),
    ].map(([, runner, command]) => ({ path, runner: runner.replace(/\s+/g, ' '), command })),
  );

/** The invocations in `docs` that would apply production rules where they must not. */
const productionInvocations = (docs: Doc[], laptopDocs: string[]): string[] =>
  cliInvocations(docs)
    .filter(
      ({ path, command }) => laptopDocs.includes(path) || REFUSED_IN_PRODUCTION.includes(command),
    )
    .filter(
      ({ runner }) =>
        runner !== 'npm run cli:dev --' && !runner.startsWith('NODE_ENV=development '),
    )
    .map(({ path, runner, command }) => `${path}: ${runner} ${command}`);

/** The docs' `pg_dump … -f file` commands that do not run under `umask 077` (a readable dump). */
const openDumps = (docs: Doc[]): string[] =>
  docs.flatMap(({ path, text }) =>
    text
      .split('\n')
      .filter((line) => /^\s*\(?(umask \d+ && )?pg_dump .* -f /.test(line))
      .filter((line) => !/umask 077 && pg_dump/.test(line))
      .map((line) => `${path}: ${line.trim()}`),
  );

/** curl lines of a doc that name group 1 outright (a reader's group has another number). */
const fixedGroupIds = (docs: Doc[]): string[] =>
  docs.flatMap(({ path, text }) =>
    [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap(([, block]) => block.split('\n'))
      .filter((line) => /\/groups\/1\b|\\?"groupID\\?":\s*1\b/.test(line))
      .map((line) => `${path}: ${line.trim()}`),
  );

describe('The commands the docs give', () => {
  it('tell a newcomer how to choose the port, database, Redis database and queue prefix, with variables the service reads', () => {
    const readme = DOCS.find(({ path }) => path === 'README.md')!.text;
    const command = /`(PORT=[^`]*npm start)`/.exec(readme.replace(/\n/g, ' '))?.[1] ?? '';
    const names = [...command.matchAll(/([A-Z_]+)=/g)].map(([, name]) => name);
    expect(names).toEqual(['PORT', 'DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX']);
    const declared = VARIABLES.map((variable) => variable.name);
    for (const name of names) expect(declared).toContain(name);
    // A Redis database other than 0, the default everyone else uses too.
    expect(command).toMatch(/REDIS_URL=redis:\/\/[^ ]+\/[1-9]\d*\b/);
  });

  it("use the reader's own group id, never a hard-coded 1", () => {
    expect(fixedGroupIds(DOCS.filter(({ path }) => path === 'docs/integrating.md'))).toEqual([]);
    expect(
      fixedGroupIds([
        { path: 'made-up.md', text: '```sh\ncurl http://localhost:3000/groups/1\n```' },
      ]),
    ).toEqual(['made-up.md: curl http://localhost:3000/groups/1']);
  });

  it('write backups readable by their owner only (umask 077)', () => {
    expect(openDumps(DOCS)).toEqual([]);
    expect(
      openDumps([{ path: 'made-up.md', text: '  pg_dump -Fc -d "$DATABASE_URL" -f out.dump' }]),
    ).toEqual(['made-up.md: pg_dump -Fc -d "$DATABASE_URL" -f out.dump']);
  });

  it('name scripts package.json has', () => {
    expect(DOCS.length).toBeGreaterThan(10);
    expect(unknownScripts(DOCS, SCRIPTS)).toEqual([]);
  });

  it('run the CLI in development where the reader is on a laptop, and wherever production refuses the command', () => {
    const invocations = cliInvocations(DOCS);
    expect(invocations.filter(({ path }) => LAPTOP_DOCS.includes(path)).length).toBeGreaterThan(2);
    expect(productionInvocations(DOCS, LAPTOP_DOCS)).toEqual([]);
  });

  it('would catch a script that does not exist, and a laptop or refused command run in production', () => {
    const docs = [
      {
        path: 'README.md',
        text: 'Run `npm run start:dev`, then `npm run cli -- enterprises:create`.',
      },
      {
        path: 'docs/x.md',
        text: 'Or `npm run cli --\nsessions:simulate-result <id>`; `npm test`.',
      },
      { path: 'docs/y.md', text: '`npm run cli -- demo:seed`, `node dist/cli.js api-keys:list`.' },
      {
        path: 'docs/z.md',
        text: '`NODE_ENV=development node dist/cli.js sessions:simulate-result`',
      },
    ];
    expect(unknownScripts(docs, SCRIPTS)).toEqual(['README.md: npm run start:dev']);
    expect(productionInvocations(docs, ['README.md'])).toEqual([
      'README.md: npm run cli -- enterprises:create',
      'docs/x.md: npm run cli -- sessions:simulate-result',
    ]);
  });

  describe("docs/integrating.md's sandbox enterprise, run as written", () => {
    let databaseName: string;
    beforeAll(async () => {
      databaseName = await createTestDatabase();
    });
    afterAll(() => dropDatabase(databaseName));

    it('prints the enterprise the doc shows, a sandbox with its API key', async () => {
      const doc = DOCS.find(({ path }) => path === 'docs/integrating.md')!.text;
      const section = doc.slice(doc.indexOf('## Sandbox enterprises'));
      const [, command, shown] = /^```sh\n(npm run .*enterprises:create.*)\n# (.*)\n```$/m.exec(
        section,
      )!;
      expect(command).toContain('--sandbox');
      // A laptop's shell: no NODE_ENV, no secrets; only where this run keeps its database, secrets
      // and mails.
      const { LOCAL_SECRETS_FILE, MAIL_DIR } = runEnvironment();
      const result = await runCommand(
        '/bin/sh',
        ['-c', command],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            DATABASE_URL: databaseUrl(databaseName),
            LOCAL_SECRETS_FILE,
            MAIL_DIR,
          },
        },
        60_000,
      );
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      // npm prints the script's name and command first; the JSON is the last line.
      const printed = result.stdout.trim().split('\n').at(-1)!;
      const pattern = shown
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^"]+');
      expect(printed).toMatch(new RegExp(`^${pattern}$`));
      const created = JSON.parse(printed) as { enterpriseId: string; apiKey: string };
      expect(created.apiKey).toMatch(/^ck_[A-Za-z0-9]{20,}$/);
      expect(await storedEnterprise(databaseName, created.enterpriseId)).toEqual({
        name: 'Acme (test)',
        sandbox: true,
        keys: 1,
      });
    });
  });
});

/** The enterprise as the database holds it, with how many API keys it has. */
async function storedEnterprise(databaseName: string, enterpriseId: string) {
  const client = new Client({ connectionString: databaseUrl(databaseName) });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; sandbox: boolean; keys: number }>(
      `SELECT e.name, e.sandbox, (SELECT count(*)::int FROM api_keys k WHERE k.enterprise_id = e.id) AS keys
         FROM enterprises e WHERE e.id = $1`,
      [enterpriseId],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

/**
 * Operator actions on tenants (EnterprisesService, ApiKeysService, EnterprisesRepository) against
 * real PostgreSQL:
 * - an enterprise is created with its first API key in one transaction (a failure leaves
 *   neither), its name trimmed and required, a sandbox only when asked, the default privacy
 *   settings (floors 5 / 10 / 3, monthly windows, ε_year 24, maxMargin 10);
 * - only a key's SHA-256 and its 11-character prefix are stored; a key authenticates to its own
 *   enterprise until revoked, and revoking one key leaves the enterprise's others working;
 * - keys are listed and issued per enterprise, and an unknown or malformed enterprise id or key
 *   prefix is the CLI's exact message;
 * - the privacy settings (floors, yearly budget, window, maxMargin): each value checked as typed
 *   (exact messages, before the enterprise is looked up), omitted ones kept, other enterprises
 *   untouched;
 * - the development bootstrap creates one enterprise on an empty database, even when two
 *   processes start together, and none on a database that has one.
 */
import { createHash } from 'node:crypto';
import { loadConfig } from '../../src/config/config';
import type { Sql } from '../../src/database/database';
import { ApiKeysService } from '../../src/enterprises/api-keys.service';
import { EnterpriseErrors } from '../../src/enterprises/enterprises.errors';
import { EnterprisesRepository } from '../../src/enterprises/enterprises.repository';
import { EnterprisesService } from '../../src/enterprises/enterprises.service';
import { match } from '../support/matchers';
import { ProgrammesRepository } from '../../src/enterprises/programme/programmes.repository';
import { ProgrammesService } from '../../src/enterprises/programme/programmes.service';
import { sleep, TestDatabase } from './support';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The services as the app wires them, over `db`; API keys uncached, so revocations show at once. */
function servicesOver(t: TestDatabase, db = t.db) {
  const repository = new EnterprisesRepository(db);
  const apiKeys = new ApiKeysService(
    repository,
    loadConfig({ NODE_ENV: 'test', API_KEY_CACHE_TTL_MS: '0' }),
  );
  const programmes = new ProgrammesService(new ProgrammesRepository(db));
  return {
    repository,
    apiKeys,
    programmes,
    enterprises: new EnterprisesService(db, repository, apiKeys, programmes),
  };
}

/** The message of what `promise` rejects with (failing when it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  }
  throw new Error('expected a failure, got an answer');
}

describe('EnterpriseErrors', () => {
  it("are the CLI's messages, byte for byte", () => {
    expect([
      EnterpriseErrors.NameRequired,
      EnterpriseErrors.NotFound('e1'),
      EnterpriseErrors.KeyPrefixNotFound('ck_12345678'),
      EnterpriseErrors.FloorMissing,
      EnterpriseErrors.FloorInvalid('--words', '0'),
      EnterpriseErrors.BudgetInvalid('--budget', '101'),
      EnterpriseErrors.BudgetInvalid('--max-margin', 'x'),
      EnterpriseErrors.WindowInvalid('day'),
    ]).toEqual([
      'An enterprise needs a non-empty --name',
      'No enterprise with id e1',
      'No API key with prefix ck_12345678',
      'Give --scores N, --words N, --speakers N, --budget E, --window month|week, --max-margin M, or several of them',
      '--words must be a whole number from 1 to 100, not "0"',
      '--budget must be a number from 1 to 100 with at most two decimals, not "101"',
      '--max-margin must be a number from 1 to 100 with at most two decimals, not "x"',
      '--window must be month or week, not "day"',
    ]);
  });
});

describe('EnterprisesService (PostgreSQL)', () => {
  let t: TestDatabase;
  let apiKeys: ApiKeysService;
  let enterprises: EnterprisesService;

  beforeAll(async () => {
    t = await TestDatabase.create();
    ({ apiKeys, enterprises } = servicesOver(t));
  });
  afterAll(() => t.close());

  const enterpriseRow = (id: string) =>
    t.one<Record<string, unknown>>(
      `SELECT name, sandbox, min_cohort_scores AS "minCohortScores",
              min_cohort_words AS "minCohortWords", min_word_speakers AS "minWordSpeakers",
              epsilon_year::float8 AS "epsilonYear", metrics_window AS "metricsWindow",
              max_margin::float8 AS "maxMargin"
         FROM enterprises WHERE id = $1`,
      [id],
    );
  /** A new enterprise's privacy settings (docs/metrics.md, "The privacy settings"). */
  const DEFAULT_SETTINGS = {
    minCohortScores: 5,
    minCohortWords: 10,
    minWordSpeakers: 3,
    epsilonYear: 24,
    metricsWindow: 'month',
    maxMargin: 10,
  };
  const enterpriseCount = async () =>
    (await t.one<{ n: number }>('SELECT count(*)::int AS n FROM enterprises')).n;

  describe('create', () => {
    it('creates a tenant with a working key, its name trimmed, the default floor, no sandbox', async () => {
      const created = await enterprises.create('  Acme Corp \n');
      expect(created).toEqual({
        enterpriseId: match.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Acme Corp',
        apiKey: match.stringMatching(/^ck_[0-9A-Za-z]{40}$/),
        sandbox: false,
      });
      expect(await enterpriseRow(created.enterpriseId)).toEqual({
        name: 'Acme Corp',
        sandbox: false,
        ...DEFAULT_SETTINGS,
      });
      expect(await apiKeys.authenticate(created.apiKey)).toEqual({
        apiKeyId: match.any(String),
        enterpriseId: created.enterpriseId,
        sandbox: false,
      });
    });

    it('stores only the SHA-256 of the key and its public prefix', async () => {
      const { enterpriseId, apiKey } = await enterprises.create('Hashes');
      const stored = await t.rows<Record<string, unknown>>(
        `SELECT prefix, key_hash AS "keyHash", last_used_at AS "lastUsedAt",
                revoked_at AS "revokedAt"
           FROM api_keys WHERE enterprise_id = $1`,
        [enterpriseId],
      );
      expect(stored).toEqual([
        { prefix: apiKey.slice(0, 11), keyHash: sha256(apiKey), lastUsedAt: null, revokedAt: null },
      ]);
      const everything = JSON.stringify(
        await t.rows('SELECT * FROM api_keys WHERE enterprise_id = $1', [enterpriseId]),
      );
      expect(everything).not.toContain(apiKey.slice(11));
    });

    it('a sandbox is a sandbox from its key on', async () => {
      const created = await enterprises.create('Playground', { sandbox: true });
      expect(created.sandbox).toBe(true);
      expect((await enterpriseRow(created.enterpriseId)).sandbox).toBe(true);
      expect((await apiKeys.authenticate(created.apiKey))?.sandbox).toBe(true);
    });

    it.each(['', '   ', '\t\n'])('refuses the name %j and creates nothing', async (name) => {
      const before = await enterpriseCount();
      expect(await failureOf(enterprises.create(name))).toBe(EnterpriseErrors.NameRequired);
      expect(await enterpriseCount()).toBe(before);
    });

    it('creates neither the enterprise nor a key when issuing the key fails', async () => {
      const repository = new EnterprisesRepository(t.db);
      const failingKeys = new (class extends ApiKeysService {
        override async issue(enterpriseId: string, sql?: Sql): ReturnType<ApiKeysService['issue']> {
          await super.issue(enterpriseId, sql);
          throw new Error('the key could not be issued');
        }
      })(repository, loadConfig({ NODE_ENV: 'test' }));
      const failing = new EnterprisesService(
        t.db,
        repository,
        failingKeys,
        new ProgrammesService(new ProgrammesRepository(t.db)),
      );
      const before = await t.one<{ enterprises: number; keys: number }>(
        `SELECT (SELECT count(*)::int FROM enterprises) AS enterprises,
                (SELECT count(*)::int FROM api_keys) AS keys`,
      );

      expect(await failureOf(failing.create('Half made'))).toBe('the key could not be issued');
      expect(
        await t.one(
          `SELECT (SELECT count(*)::int FROM enterprises) AS enterprises,
                  (SELECT count(*)::int FROM api_keys) AS keys`,
        ),
      ).toEqual(before);
      expect(await t.rows("SELECT 1 FROM enterprises WHERE name = 'Half made'")).toEqual([]);
    });
  });

  describe('API keys', () => {
    it("issues further keys and lists the enterprise's own only, oldest first, without hashes", async () => {
      const acme = await enterprises.create('Keys Acme');
      const globex = await enterprises.create('Keys Globex');
      const second = await enterprises.createApiKey(acme.enterpriseId);

      const listed = await enterprises.listApiKeys(acme.enterpriseId);
      expect(listed).toEqual([
        {
          id: match.any(String),
          enterpriseId: acme.enterpriseId,
          prefix: acme.apiKey.slice(0, 11),
          createdAt: match.any(Date),
          lastUsedAt: null,
          revokedAt: null,
        },
        { ...second.record, lastUsedAt: null, revokedAt: null },
      ]);
      expect(second.record.prefix).toBe(second.apiKey.slice(0, 11));
      expect((await apiKeys.authenticate(second.apiKey))?.enterpriseId).toBe(acme.enterpriseId);
      expect((await enterprises.listApiKeys(globex.enterpriseId)).map((k) => k.prefix)).toEqual([
        globex.apiKey.slice(0, 11),
      ]);
    });

    it.each([
      ['an unknown enterprise id', '7d4f1a5e-2b1c-4e7a-9c3d-1f2e3a4b5c6d'],
      ['an id that is not a UUID', 'acme'],
      ['an SQL fragment', "' OR 1=1 --"],
    ])('answers %s with "No enterprise with id …"', async (_, id) => {
      const keysBefore = (await t.one<{ n: number }>('SELECT count(*)::int AS n FROM api_keys')).n;
      expect(await failureOf(enterprises.createApiKey(id))).toBe(EnterpriseErrors.NotFound(id));
      expect(await failureOf(enterprises.listApiKeys(id))).toBe(EnterpriseErrors.NotFound(id));
      expect((await t.one<{ n: number }>('SELECT count(*)::int AS n FROM api_keys')).n).toBe(
        keysBefore,
      );
    });

    it('a revoked key is refused; the enterprise keeps working with its other keys', async () => {
      const acme = await enterprises.create('Revoker');
      const spare = await enterprises.createApiKey(acme.enterpriseId);

      const revoked = await enterprises.revokeApiKey(acme.apiKey.slice(0, 11));
      expect(revoked).toEqual({
        id: match.any(String),
        enterpriseId: acme.enterpriseId,
        prefix: acme.apiKey.slice(0, 11),
        createdAt: match.any(Date),
        lastUsedAt: null,
        revokedAt: match.any(Date),
      });
      expect(await apiKeys.authenticate(acme.apiKey)).toBeNull();
      expect((await apiKeys.authenticate(spare.apiKey))?.enterpriseId).toBe(acme.enterpriseId);
    });

    it('revoking twice keeps the first revocation time', async () => {
      const { apiKey } = await enterprises.create('Twice');
      const first = await enterprises.revokeApiKey(apiKey.slice(0, 11));
      const second = await enterprises.revokeApiKey(apiKey.slice(0, 11));
      expect(second.revokedAt).toEqual(first.revokedAt);
    });

    it('answers an unknown prefix with "No API key with prefix …" and revokes nothing', async () => {
      const { apiKey } = await enterprises.create('Unrevoked');
      expect(await failureOf(enterprises.revokeApiKey('ck_00000000'))).toBe(
        EnterpriseErrors.KeyPrefixNotFound('ck_00000000'),
      );
      // Only the whole prefix names a key: a shorter one revokes nothing.
      expect(await failureOf(enterprises.revokeApiKey(apiKey.slice(0, 10)))).toBe(
        EnterpriseErrors.KeyPrefixNotFound(apiKey.slice(0, 10)),
      );
      expect(await apiKeys.authenticate(apiKey)).not.toBeNull();
    });

    it("records the key's last use", async () => {
      const { enterpriseId, apiKey } = await enterprises.create('Used');
      await apiKeys.authenticate(apiKey);
      const deadline = Date.now() + 3_000;
      let lastUsedAt: Date | null = null;
      while (lastUsedAt === null && Date.now() < deadline) {
        ({ lastUsedAt } = await t.one<{ lastUsedAt: Date | null }>(
          'SELECT last_used_at AS "lastUsedAt" FROM api_keys WHERE enterprise_id = $1',
          [enterpriseId],
        ));
        if (lastUsedAt === null) await sleep(10);
      }
      expect(lastUsedAt).toEqual(match.any(Date));
    });
  });

  describe('privacy settings: floors, yearly budget, window, maxMargin', () => {
    it('sets the given values, keeps the others, and answers them all', async () => {
      const { enterpriseId } = await enterprises.create('Floors');
      expect(await enterprises.setPrivacyFloor(enterpriseId, { scores: '7' })).toEqual({
        enterpriseId,
        ...DEFAULT_SETTINGS,
        minCohortScores: 7,
      });
      expect(
        await enterprises.setPrivacyFloor(enterpriseId, {
          words: '100',
          speakers: '1',
          budget: '12.25',
          window: 'week',
          maxMargin: '7.5',
        }),
      ).toEqual({
        enterpriseId,
        minCohortScores: 7,
        minCohortWords: 100,
        minWordSpeakers: 1,
        epsilonYear: 12.25,
        metricsWindow: 'week',
        maxMargin: 7.5,
      });
      // The bounds are allowed; another option keeps what was set.
      expect(await enterprises.setPrivacyFloor(enterpriseId, { budget: '1' })).toMatchObject({
        minCohortScores: 7,
        epsilonYear: 1,
        metricsWindow: 'week',
        maxMargin: 7.5,
      });
      expect(
        await enterprises.setPrivacyFloor(enterpriseId, {
          budget: '100',
          maxMargin: '100',
          window: 'month',
        }),
      ).toMatchObject({ epsilonYear: 100, maxMargin: 100, metricsWindow: 'month' });
      expect(await enterprises.setPrivacyFloor(enterpriseId, { maxMargin: '1' })).toMatchObject({
        epsilonYear: 100,
        maxMargin: 1,
      });
      expect(await enterpriseRow(enterpriseId)).toEqual({
        name: 'Floors',
        sandbox: false,
        minCohortScores: 7,
        minCohortWords: 100,
        minWordSpeakers: 1,
        epsilonYear: 100,
        metricsWindow: 'month',
        maxMargin: 1,
      });
    });

    it("changes only the named enterprise's settings", async () => {
      const acme = await enterprises.create('Floor Acme');
      const globex = await enterprises.create('Floor Globex');
      await enterprises.setPrivacyFloor(acme.enterpriseId, {
        scores: '50',
        words: '60',
        speakers: '70',
        budget: '5',
        window: 'week',
        maxMargin: '20',
      });
      expect(await enterpriseRow(globex.enterpriseId)).toMatchObject(DEFAULT_SETTINGS);
    });

    it('refuses to do nothing', async () => {
      const { enterpriseId } = await enterprises.create('Idle');
      const none = EnterpriseErrors.FloorMissing;
      expect(await failureOf(enterprises.setPrivacyFloor(enterpriseId, {}))).toBe(none);
      expect(
        await failureOf(
          enterprises.setPrivacyFloor(enterpriseId, {
            scores: undefined,
            budget: undefined,
            window: undefined,
            maxMargin: undefined,
          }),
        ),
      ).toBe(none);
    });

    it.each([
      ['scores', '0'],
      ['scores', '101'],
      ['words', '1000'],
      ['speakers', '-1'],
      ['speakers', '5.0'],
      ['scores', ' 5'],
      ['words', '1e1'],
      ['speakers', ''],
      ['scores', 'ten'],
    ])('refuses --%s %j with the exact message and changes nothing', async (option, value) => {
      const { enterpriseId } = await enterprises.create('Strict');
      expect(
        await failureOf(
          enterprises.setPrivacyFloor(enterpriseId, { [option]: value, budget: '2' }),
        ),
      ).toBe(EnterpriseErrors.FloorInvalid(`--${option}`, value));
      expect(await enterpriseRow(enterpriseId)).toMatchObject(DEFAULT_SETTINGS);
    });

    it.each([
      ['budget', '--budget'],
      ['maxMargin', '--max-margin'],
    ] as const)(
      'refuses a %s outside 1–100 or with more than two decimals, with the exact message, and changes nothing',
      async (key, option) => {
        const { enterpriseId } = await enterprises.create('Strict budget');
        for (const value of [
          '0.99',
          '0',
          '100.01',
          '101',
          '1.234',
          '.5',
          '1.',
          '-1',
          '1e1',
          ' 5',
          'one',
          '',
        ]) {
          expect({
            value,
            failure: await failureOf(
              enterprises.setPrivacyFloor(enterpriseId, { [key]: value, scores: '9' }),
            ),
          }).toEqual({ value, failure: EnterpriseErrors.BudgetInvalid(option, value) });
        }
        expect(await enterpriseRow(enterpriseId)).toMatchObject(DEFAULT_SETTINGS);
      },
    );

    it.each(['day', 'Month', 'WEEK', 'months', ' week', ''])(
      'refuses --window %j with the exact message and changes nothing',
      async (value) => {
        const { enterpriseId } = await enterprises.create('Strict window');
        expect(
          await failureOf(
            enterprises.setPrivacyFloor(enterpriseId, { window: value, scores: '9' }),
          ),
        ).toBe(EnterpriseErrors.WindowInvalid(value));
        expect(await enterpriseRow(enterpriseId)).toMatchObject(DEFAULT_SETTINGS);
      },
    );

    it('checks the values before the enterprise, then answers an unknown one by its id', async () => {
      const unknown = '7d4f1a5e-2b1c-4e7a-9c3d-1f2e3a4b5c6d';
      expect(await failureOf(enterprises.setPrivacyFloor(unknown, { scores: '0' }))).toBe(
        EnterpriseErrors.FloorInvalid('--scores', '0'),
      );
      expect(await failureOf(enterprises.setPrivacyFloor(unknown, { budget: '0' }))).toBe(
        EnterpriseErrors.BudgetInvalid('--budget', '0'),
      );
      expect(await failureOf(enterprises.setPrivacyFloor(unknown, { window: 'day' }))).toBe(
        EnterpriseErrors.WindowInvalid('day'),
      );
      expect(await failureOf(enterprises.setPrivacyFloor(unknown, { scores: '9' }))).toBe(
        EnterpriseErrors.NotFound(unknown),
      );
      expect(await failureOf(enterprises.setPrivacyFloor('acme', { budget: '2' }))).toBe(
        EnterpriseErrors.NotFound('acme'),
      );
    });
  });
});

describe('the development bootstrap (PostgreSQL)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(() => t.close());

  it('creates one enterprise when two processes start together on an empty database, none after', async () => {
    // Two processes' pools; a third connection holds the bootstrap's lock until both wait on it,
    // so both have started before either has looked at the table.
    const [first, second] = [
      servicesOver(t, await t.openDatabase(1)),
      servicesOver(t, await t.openDatabase(1)),
    ];
    const holder = await t.pool.connect();
    let results: unknown[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [0x64656d6f]);
      const both = Promise.all([
        first.enterprises.createIfNoneExist('Demo Enterprise', { sandbox: true }),
        second.enterprises.createIfNoneExist('Demo Enterprise', { sandbox: true }),
      ]);
      await t.waitForLockWaiters(2);
      await holder.query('COMMIT');
      results = await both;
    } finally {
      holder.release();
    }

    const created = results.filter((result) => result !== null);
    expect(created).toEqual([
      {
        enterpriseId: match.any(String),
        name: 'Demo Enterprise',
        apiKey: match.stringMatching(/^ck_[0-9A-Za-z]{40}$/),
        sandbox: true,
      },
    ]);
    expect(results.filter((result) => result === null)).toHaveLength(1);
    expect(await t.rows('SELECT name, sandbox FROM enterprises')).toEqual([
      { name: 'Demo Enterprise', sandbox: true },
    ]);
    expect(await first.enterprises.createIfNoneExist('Demo Enterprise')).toBeNull();
    expect(await t.one('SELECT count(*)::int AS n FROM enterprises')).toEqual({ n: 1 });
  });
});

/**
 * A declared programme and biometric inference off where EU law forbids it (docs/compliance.md),
 * tried as the operator, the engine and the enterprise would:
 *
 * - `enterprises:set-programme` refuses a bad value in one line and changes nothing; each
 *   declaration is in the ledger (who, when, from, to) and in `GET /enterprise`.
 * - For `eu` + `wellbeing` the hand-off tells the engine `biometric=off`; ingestion refuses, with
 *   422 and nothing stored, a result carrying a value inferred from voice or face, and accepts one
 *   with her words only.
 * - Such an enterprise never reads a biometric-derived value through any route or event, even for
 *   results the engine sent before it declared, and even when the engine sends one anyway.
 * - An enterprise without a declaration is served as before: all four subscores required, every
 *   field shown, the engine address unchanged.
 * - The start-up census and the gauge count the enterprises without one.
 */
import { IngestionErrors } from '../src/ingestion/ingestion.errors';
import { ProgrammeErrors } from '../src/enterprises/programme/programme';
import { ProgrammeCensus } from '../src/enterprises/programme/programme-census';
import { Measurements } from '../src/common/measurements/measurements';
import { cli } from './support/cli';
import { confirmHandoff, ENGINE_TOKEN, engineResult, postResult, userSays } from './support/engine';
import { shareAt } from './support/levels';
import { PageBrowser } from './support/page-browser';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

const ENGINE_URL = 'https://engine.example.com/start';
/** A voice feature and a value no word-derived field holds, to find it wherever it would leak. */
const VOICE_FEATURE = 'pitch_variability';
const VOICE_VALUE = 61.2345;
const FACE_VALUE = 17.4321;

const BIOMETRIC_RESULT = engineResult({
  mhci: 55,
  subscores: { vision: FACE_VALUE, audio: VOICE_VALUE, transcript: 58, assessment: 52 },
  transcript: userSays('tired but fine'),
  features: { [VOICE_FEATURE]: VOICE_VALUE, 'transcript.valence': 0.4 },
});
const WORDS_ONLY_RESULT = {
  ...engineResult({
    mhci: 57,
    transcript: userSays('calmer this week'),
    features: { 'transcript.valence': 0.6, 'assessment.sleep': 3 },
  }),
  subscores: { transcript: 58, assessment: 56 },
};

describe('Declared programmes and biometric inference (EU AI Act art. 5(1)(f))', () => {
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN, ENGINE_URL });
  });
  afterAll(() => t.close());

  const runCli = (args: string[]) => cli(args, { DATABASE_URL: t.config.database.url });

  async function declare(
    enterprise: TestEnterprise,
    jurisdiction: string,
    purpose: string,
    by = 'ops-alice',
  ) {
    const result = await runCli([
      'enterprises:set-programme',
      enterprise.enterpriseId,
      '--jurisdiction',
      jurisdiction,
      '--purpose',
      purpose,
      '--basis',
      'GDPR art. 9(2)(a): explicit consent',
      '--contact',
      'dpo@example.com',
      '--by',
      by,
      '--json',
    ]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  const getEnterprise = async (enterprise: TestEnterprise) => {
    const answer = await t.request('GET', '/enterprise', { apiKey: enterprise.apiKey });
    expect(answer.status).toBe(200);
    return answer.body as { programme: Record<string, unknown> | null; metrics: unknown };
  };

  /** A member's check-in link, Start pressed, at `level`, in her own browser. */
  async function startedCheckIn(enterprise: TestEnterprise, group: TestGroup, level = 5) {
    const created = await t.createSession(enterprise, group, `member${++n}@example.com`);
    expect(created.status).toBe(200);
    const session = created.body as SessionCreated;
    const path = new URL(session.redirectUrl).pathname;
    const browser = new PageBrowser(t.baseUrl);
    expect((await browser.post(`${path}/start`)).status).toBe(303);
    expect((await browser.post(`${path}/privacy`, { privacyLevel: String(level) })).status).toBe(
      303,
    );
    return { session, path, browser };
  }

  /** Start, hand-off and confirm, as her browser and the engine do: the engine addresses. */
  async function handedOffCheckIn(enterprise: TestEnterprise, group: TestGroup) {
    const { session, path, browser } = await startedCheckIn(enterprise, group);
    const handoff = await browser.post(`${path}/handoff`);
    expect(handoff.status).toBe(303);
    const confirmed = await confirmHandoff(browser, handoff.location);
    expect(confirmed.status).toBe(303);
    return { session, engineAddress: handoff.location!, confirmedAddress: confirmed.location! };
  }

  const sessionRow = async (sessionId: string) =>
    (
      await t.db.query<{ status: string; subscores: unknown; biometric: boolean | null }>(
        'SELECT status, subscores, biometric FROM sessions WHERE session_id = $1',
        [sessionId],
      )
    ).rows[0];

  describe('the operator declares', () => {
    it('refuses each bad value in one line and changes nothing', async () => {
      const acme = await t.newEnterprise('Refused Co');
      const base = [
        'enterprises:set-programme',
        acme.enterpriseId,
        '--jurisdiction',
        'eu',
        '--purpose',
        'wellbeing',
        '--basis',
        'consent',
        '--contact',
        'dpo@example.com',
      ];
      const withValue = (option: string, value: string) => {
        const args = [...base];
        args[args.indexOf(option) + 1] = value;
        return args;
      };
      const cases: [string[], string][] = [
        [withValue('--jurisdiction', 'EU'), ProgrammeErrors.JurisdictionInvalid('EU')],
        [withValue('--purpose', 'productivity'), ProgrammeErrors.PurposeInvalid('productivity')],
        [withValue('--basis', ' '), ProgrammeErrors.BasisInvalid],
        [withValue('--basis', 'x'.repeat(501)), ProgrammeErrors.BasisInvalid],
        [withValue('--basis', 'two\nlines'), ProgrammeErrors.BasisInvalid],
        [withValue('--contact', 'not-an-email'), ProgrammeErrors.ContactInvalid('not-an-email')],
        [base.slice(0, 6), ProgrammeErrors.Missing('--basis')],
        [[...base, '--by', ''], ProgrammeErrors.ByInvalid],
        [
          ['enterprises:set-programme', '00000000-0000-4000-8000-000000000000', ...base.slice(2)],
          'No enterprise with id 00000000-0000-4000-8000-000000000000',
        ],
      ];
      for (const [args, message] of cases) {
        const result = await runCli(args);
        expect({ code: result.code, stderr: result.stderr.trim().split('\n') }).toEqual({
          code: 1,
          stderr: [message],
        });
      }
      expect((await getEnterprise(acme)).programme).toBeNull();
      const ledger = await t.db.query(
        'SELECT 1 FROM programme_declarations WHERE enterprise_id = $1',
        [acme.enterpriseId],
      );
      expect(ledger.rowCount).toBe(0);
    });

    it('records each declaration in the ledger (who, when, from, to) and in GET /enterprise', async () => {
      const acme = await t.newEnterprise('Ledger Co');
      const before = await getEnterprise(acme);
      expect(before).toEqual({
        name: 'Ledger Co',
        sandbox: false,
        programme: null,
        metrics: {
          epsilonYear: 24,
          window: 'month',
          maxMargin: 10,
          minParticipantsScores: expect.any(Number) as unknown,
          minParticipantsWords: expect.any(Number) as unknown,
          minWordSpeakers: expect.any(Number) as unknown,
        },
      });

      const first = await declare(acme, 'other', 'wellbeing', 'ops-alice');
      expect(first).toMatchObject({ jurisdiction: 'other', biometricInference: 'on' });
      const second = await declare(acme, 'eu', 'wellbeing', 'ops-bob');
      expect(second).toMatchObject({
        enterpriseId: acme.enterpriseId,
        jurisdiction: 'eu',
        purpose: 'wellbeing',
        declaredBy: 'ops-bob',
        biometricInference: 'off',
      });

      const ledger = await t.db.query<{
        declared_by: string;
        declared_at: Date;
        previous: unknown;
        declaration: unknown;
      }>(
        `SELECT declared_by, declared_at, previous, declaration FROM programme_declarations
          WHERE enterprise_id = $1 ORDER BY id`,
        [acme.enterpriseId],
      );
      const declaration = (jurisdiction: string) => ({
        jurisdiction,
        purpose: 'wellbeing',
        basis: 'GDPR art. 9(2)(a): explicit consent',
        contact: 'dpo@example.com',
      });
      expect(ledger.rows.map(({ declared_at: _at, ...row }) => row)).toEqual([
        { declared_by: 'ops-alice', previous: null, declaration: declaration('other') },
        { declared_by: 'ops-bob', previous: declaration('other'), declaration: declaration('eu') },
      ]);
      expect(ledger.rows[1].declared_at.getTime()).toBeGreaterThan(
        ledger.rows[0].declared_at.getTime(),
      );

      const after = await getEnterprise(acme);
      expect(after.programme).toEqual({
        ...declaration('eu'),
        declaredAt: ledger.rows[1].declared_at.toISOString(),
        biometricInference: 'off',
      });
      expect(after.metrics).toEqual(before.metrics);

      const shown = await runCli(['enterprises:programme', acme.enterpriseId, '--json']);
      expect(shown.code).toBe(0);
      expect((JSON.parse(shown.stdout) as { ledger: unknown[] }).ledger).toHaveLength(2);

      // Another enterprise's key reads its own settings, never these.
      const other = await t.newEnterprise('Other Co');
      expect((await getEnterprise(other)).programme).toBeNull();
    });

    it('counts the enterprises without a declaration at start-up and on /metrics', async () => {
      const undeclared = Number(
        (
          await t.db.query<{ count: string }>(
            'SELECT count(*) FROM enterprises WHERE programme_declared_at IS NULL',
          )
        ).rows[0].count,
      );
      const gauge = async () => {
        const text = await t.app.get(Measurements).registry.metrics();
        return Number(/^checkin_enterprises_without_programme (\S+)$/m.exec(text)?.[1]);
      };
      expect(await gauge()).toBe(undeclared);
      const fresh = await t.newEnterprise('Census Co');
      expect(await gauge()).toBe(undeclared + 1);
      await declare(fresh, 'other', 'safety');
      expect(await gauge()).toBe(undeclared);

      const lines: string[] = [];
      const census = t.app.get(ProgrammeCensus);
      const logger = (census as unknown as { logger: { log: (line: string) => void } }).logger;
      const original = logger.log.bind(logger);
      logger.log = (line: string) => lines.push(line);
      try {
        await census.logAtStartup();
      } finally {
        logger.log = original;
      }
      expect(lines).toEqual([
        `${undeclared} ${undeclared === 1 ? 'enterprise has' : 'enterprises have'} declared no programme: declare each with enterprises:set-programme (docs/compliance.md)`,
      ]);
    });
  });

  describe('an enterprise declared eu + wellbeing', () => {
    let eu: TestEnterprise;
    let group: TestGroup;

    beforeAll(async () => {
      eu = await t.newEnterprise('EU Wellbeing Co');
      await declare(eu, 'eu', 'wellbeing');
      group = await t.newGroup(eu, 'Team EU');
    });

    it('the hand-off and its confirmation tell the engine biometric=off', async () => {
      const { session, engineAddress, confirmedAddress } = await handedOffCheckIn(eu, group);
      const handoff = new URL(engineAddress).searchParams.get('handoff');
      expect(engineAddress).toBe(
        `${ENGINE_URL}?sessionID=${session.sessionID}&handoff=${handoff}&biometric=off`,
      );
      expect(confirmedAddress).toBe(`${engineAddress}&confirmed=1`);
      expect((await sessionRow(session.sessionID)).biometric).toBe(false);
    });

    it('refuses a result inferred from voice or face with 422, nothing stored, and accepts her words only', async () => {
      const { session } = await handedOffCheckIn(eu, group);
      const events = async () =>
        Number(
          (
            await t.db.query<{ count: string }>(
              `SELECT count(*) FROM events WHERE payload->>'sessionID' = $1`,
              [session.sessionID],
            )
          ).rows[0].count,
        );
      for (const refused of [
        BIOMETRIC_RESULT,
        {
          ...WORDS_ONLY_RESULT,
          subscores: { ...WORDS_ONLY_RESULT.subscores, vision: 1, audio: 2 },
        },
        { ...WORDS_ONLY_RESULT, features: { ...WORDS_ONLY_RESULT.features, smile_ratio: 0.2 } },
      ]) {
        const answer = await postResult(t, session.sessionID, refused);
        expect({ status: answer.status, body: answer.body }).toEqual({
          status: 422,
          body: { error: IngestionErrors.BiometricOff },
        });
        expect(await sessionRow(session.sessionID)).toMatchObject({
          status: 'created',
          subscores: null,
        });
        expect(await events()).toBe(0);
      }
      const accepted = await postResult(t, session.sessionID, WORDS_ONLY_RESULT);
      expect(accepted.status).toBe(200);
      const read = await t.request('GET', `/sessions/${session.sessionID}`, { apiKey: eu.apiKey });
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        mhci: 57,
        subscores: { transcript: 58, assessment: 56 },
        features: { 'assessment.sleep': 3, 'transcript.valence': 0.6 },
      });
      expect(Object.keys((read.body as { subscores: object }).subscores)).toEqual([
        'transcript',
        'assessment',
      ]);
    });

    it('never reads a value inferred from voice or face, through any route or event, for results stored before it declared', async () => {
      // The same enterprise before its declaration: the engine analysed voice and face.
      const later = await t.newEnterprise('Declares Later Co');
      const team = await t.newGroup(later, 'Team Later');
      const stored = await t.completedSession(later, team, {
        result: BIOMETRIC_RESULT,
        handedOff: true,
      });
      await shareAt(t.db, { sessionId: stored.sessionID }, 5);
      const before = await t.request('GET', `/sessions/${stored.sessionID}`, {
        apiKey: later.apiKey,
      });
      expect(before.body).toMatchObject({
        subscores: { vision: FACE_VALUE, audio: VOICE_VALUE },
        features: { [VOICE_FEATURE]: VOICE_VALUE },
      });

      await declare(later, 'eu', 'wellbeing');
      const answers = await Promise.all(
        [
          `/sessions/${stored.sessionID}`,
          `/participants/${stored.userIdentifier}`,
          `/participants/${stored.userIdentifier}/sessions`,
          `/metrics/participants/${stored.userIdentifier}/mhci`,
          `/metrics/participants/${stored.userIdentifier}/count`,
          `/metrics/groups/${team.groupID}/mhci`,
          `/metrics/groups/${team.groupID}/count`,
          `/enterprise`,
        ].map((path) => t.request('GET', path, { apiKey: later.apiKey })),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.text).not.toMatch(
          new RegExp(`vision|audio|${VOICE_FEATURE}|${VOICE_VALUE}|${FACE_VALUE}`),
        );
      }
      expect(answers[0].body).toMatchObject({
        mhci: 55,
        subscores: { transcript: 58, assessment: 52 },
        features: { 'transcript.valence': 0.4 },
      });
      // Events carry identifiers and times only, never a result's values.
      const payloads = await t.db.query<{ payload: unknown }>(
        'SELECT payload FROM events WHERE enterprise_id = $1',
        [later.enterpriseId],
      );
      expect(payloads.rowCount).toBeGreaterThan(0);
      expect(JSON.stringify(payloads.rows)).not.toMatch(
        new RegExp(`vision|audio|${VOICE_FEATURE}|${VOICE_VALUE}|${FACE_VALUE}`),
      );
      // A result the engine posts for a check-in handed off before the declaration is refused too.
      const { session } = await handedOffCheckIn(later, team);
      await t.db.query('UPDATE sessions SET biometric = true WHERE session_id = $1', [
        session.sessionID,
      ]);
      const refused = await postResult(t, session.sessionID, BIOMETRIC_RESULT);
      expect(refused.status).toBe(422);
    });
  });

  describe('an enterprise without a declaration, as before', () => {
    let plain: TestEnterprise;
    let group: TestGroup;

    beforeAll(async () => {
      plain = await t.newEnterprise('Undeclared Co');
      group = await t.newGroup(plain, 'Team Plain');
    });

    it('hands off to the same engine address as before, with no biometric parameter', async () => {
      const { session, engineAddress } = await handedOffCheckIn(plain, group);
      const handoff = new URL(engineAddress).searchParams.get('handoff');
      expect(engineAddress).toBe(`${ENGINE_URL}?sessionID=${session.sessionID}&handoff=${handoff}`);
      expect((await sessionRow(session.sessionID)).biometric).toBe(true);
    });

    it('still requires all four subscores, and shows every field it stored', async () => {
      const { session } = await handedOffCheckIn(plain, group);
      const refused = await postResult(t, session.sessionID, WORDS_ONLY_RESULT);
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 400,
        body: { error: IngestionErrors.SubscoresInvalid },
      });
      expect(await sessionRow(session.sessionID)).toMatchObject({ status: 'created' });
      expect((await postResult(t, session.sessionID, BIOMETRIC_RESULT)).status).toBe(200);
      const read = await t.request('GET', `/sessions/${session.sessionID}`, {
        apiKey: plain.apiKey,
      });
      expect(read.body).toMatchObject({
        subscores: { vision: FACE_VALUE, audio: VOICE_VALUE, transcript: 58, assessment: 52 },
        features: { [VOICE_FEATURE]: VOICE_VALUE, 'transcript.valence': 0.4 },
      });
    });
  });
});

/**
 * Erasure and export (docs/privacy.md), tested as an adversary would check them: after an erasure
 * the whole database is searched for the participant's external ID, email lookup hash, email and
 * a word only their transcript held; the live group counts and histograms must have changed by
 * exactly their share, and released windows of group metrics not at all (docs/metrics.md).
 */
import { PAGE_ERRORS, PageTexts } from '../src/pages/pages.messages';
import { PiiCipher } from '../src/common/crypto/pii-cipher';
import { SharedFeatures } from '../src/metrics/rollups/shared-features';
import { shareAt } from './support/levels';
import { ParticipantErrors } from '../src/participants/participants.errors';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import { SessionErrors } from '../src/sessions/sessions.errors';
import { conversation, ENGINE_TOKEN, engineResult, subscores } from './support/engine';
import { match } from './support/matchers';
import { PageBrowser } from './support/page-browser';
import { cli as runCli } from './support/cli';
import { startTestApp, TestApp, TestEnterprise, TestGroup } from './support/test-app';

interface Person {
  email: string;
  externalId: string;
  participantId: string;
  sessions: string[];
  /** Each session's check-in link (path), in the same order. */
  links: string[];
}

describe('Erasure and export', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let group: TestGroup;
  let other: TestGroup;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN });
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
    // Floors at 1, and a budget and margin at which two participants' month answers numbers.
    await t.setPrivacyFloor(acme, 1, 1, { speakers: 1, budget: 100, maxMargin: 100 });
    group = await t.newGroup(acme, 'Team');
    other = await t.newGroup(acme, 'Second team');
  });
  afterAll(() => t.close());

  /** A participant with completed sessions (one per entry: day, mhci, words, pitch). */
  const person = async (
    sessions: [string, number, string, number][],
    groups: TestGroup[] = [group],
    email = `person${++n}@example.com`,
  ): Promise<Person> => {
    let identifier = email;
    const ids: string[] = [];
    const links: string[] = [];
    for (const [index, [day, mhci, words, pitch]] of sessions.entries()) {
      const target = groups[index % groups.length];
      // A participant joins a group with their email; later sessions there use the ok_ ID.
      const session = await t.completedSession(acme, target, {
        identifier: index < groups.length ? email : identifier,
        headers: { 'Idempotency-Key': `${email}-${index}` },
        result: engineResult({
          mhci,
          subscores: subscores(1),
          transcript: conversation('How are you?', words),
          features: { pitch, tempo: pitch / 2 },
          completedAt: `${day}T10:00:00Z`,
        }),
      });
      identifier = session.userIdentifier;
      ids.push(session.sessionID);
      links.push(new URL(session.redirectUrl).pathname);
    }
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM participants WHERE external_id = $1',
      [identifier],
    );
    return { email, externalId: identifier, participantId: rows[0].id, sessions: ids, links };
  };

  /** Every table's rows, as text, that contain `needle`. */
  const rowsContaining = async (needle: string): Promise<string[]> => {
    const { rows: tables } = await t.db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'migrations'`,
    );
    const found: string[] = [];
    for (const { name } of tables) {
      const { rows } = await t.db.query<{ row: string }>(
        `SELECT x::text AS row FROM "${name}" x WHERE strpos(x::text, $1) > 0`,
        [needle],
      );
      found.push(...rows.map((row) => `${name}: ${row.row}`));
    }
    return found;
  };

  const rollups = async () => ({
    releases: (
      await t.db.query(
        `SELECT r.group_id::int, r.series, w.first_day::text, w.last_day::text, w.released_at,
                r.participants, r.released, r.left_out, r.late_results, r.rho, r.noisy_sum,
                r.noisy_bins, x.word, x.count AS word_count
           FROM metric_releases r
           JOIN metric_windows w ON w.id = r.window_id
           LEFT JOIN metric_release_words x ON x.release_id = r.id
          WHERE r.group_id = ANY ($1) ORDER BY 1, 2, 3, 13`,
        [[group.groupID, other.groupID]],
      )
    ).rows as { group_id: number; series: string; participants: number }[],
    histograms: (
      await t.db.query(
        `SELECT group_id::int, name, bucket, count::int FROM group_feature_histograms
          WHERE group_id = ANY ($1) ORDER BY 1, 2, 3`,
        [[group.groupID, other.groupID]],
      )
    ).rows as { group_id: number; name: string; bucket: number; count: number }[],
    days: (
      await t.db.query(
        `SELECT group_id::int, day::text, sessions FROM group_day_counts
          WHERE group_id = ANY ($1) ORDER BY 1, 2`,
        [[group.groupID, other.groupID]],
      )
    ).rows,
  });
  const metric = async (name: string, query = '') =>
    (
      await t.request('GET', `/metrics/groups/${group.groupID}/${name}${query}`, {
        apiKey: acme.apiKey,
      })
    ).body;

  describe('DELETE /participants/{externalID}', () => {
    let victim: Person;
    let colleague: Person;
    let before: Awaited<ReturnType<typeof rollups>>;
    /** The rows just before the erasure, once group scores were read (and March so released). */
    let released: Awaited<ReturnType<typeof rollups>>;

    beforeAll(async () => {
      // A webhook endpoint, so events have deliveries (and a delivery log) to clean up.
      await t.request('POST', `/webhooks/${group.groupID}`, {
        apiKey: acme.apiKey,
        body: { url: 'https://hooks.example.com/in', description: 'receiver' },
      });
      colleague = await person([
        ['2026-03-02', 40, 'sleep badly', 10],
        ['2026-03-03', 60, 'work sleep', 20],
      ]);
      victim = await person(
        [
          ['2026-03-02', 80, 'sleep zanzibarite', 10],
          ['2026-03-03', 20, 'zanzibarite work work', 30],
          ['2026-03-04', 70, 'holiday', 40],
        ],
        [group, other],
      );
      // The victim shares at level 5: the group comparisons count their features (the workers'
      // pass brings them in, as after any change made outside a page).
      await shareAt(t.db, { externalId: victim.externalId }, 5);
      while ((await t.app.get(SharedFeatures).reconcileSome(100)) > 0);
      before = await rollups();
      expect(before.histograms.length).toBeGreaterThan(0);
    });

    it('is refused for another enterprise, and changes nothing', async () => {
      const answer = await t.request('DELETE', `/participants/${victim.externalId}`, {
        apiKey: globex.apiKey,
      });
      expect(answer).toMatchObject({ status: 400, body: { error: ParticipantErrors.NotFound } });
      expect(await rollups()).toEqual(before);
      expect(
        (await t.request('GET', `/participants/${victim.externalId}`, { apiKey: acme.apiKey }))
          .status,
      ).toBe(200);
    });

    it('answers success, and the participant is unknown everywhere afterwards', async () => {
      // Group scores were read before: March released, for both series of both groups at once
      // (the victim, most of whose March check-ins are in `group`, entered its releases only).
      const metricsBefore = {
        count: await metric('count'),
        mhci: await metric('mhci'),
        wordcloud: await metric('wordcloud', '?accuracy=true'),
      };
      expect(metricsBefore.count).toEqual({ all: 4 });
      released = await rollups();
      expect(released.releases.map((row) => [row.group_id, row.series, row.participants])).toEqual([
        [group.groupID, 'scores', 2],
        [group.groupID, 'words', 2],
        [other.groupID, 'scores', 0],
        [other.groupID, 'words', 0],
      ]);
      // The accountant's ledger holds what the victim spent (gone with them: below, no row holds
      // their participant ID).
      const ledger = await t.db.query(
        'SELECT count(*)::int AS n FROM metric_budget_spend WHERE participant_id = $1',
        [victim.participantId],
      );
      expect(ledger.rows).toEqual([{ n: 1 }]);

      const answer = await t.request('DELETE', `/participants/${victim.externalId}`, {
        apiKey: acme.apiKey,
      });
      expect(answer).toMatchObject({ status: 200, body: { message: 'success' } });

      const notFound = { status: 400, body: { error: ParticipantErrors.NotFound } };
      for (const path of [
        `/participants/${victim.externalId}`,
        `/participants/${victim.externalId}/sessions`,
        `/participants/${victim.externalId}/consents`,
        `/metrics/participants/${victim.externalId}/count`,
      ]) {
        expect(await t.request('GET', path, { apiKey: acme.apiKey })).toMatchObject(notFound);
      }
      expect(
        await t.request('DELETE', `/participants/${victim.externalId}`, { apiKey: acme.apiKey }),
      ).toMatchObject(notFound);
      for (const sessionId of victim.sessions) {
        expect(
          await t.request('GET', `/sessions/${sessionId}`, { apiKey: acme.apiKey }),
        ).toMatchObject({ status: 400, body: { error: SessionErrors.NotFound } });
      }
      // Group count is live: the colleague's two sessions only. The released window does not
      // move, scores or words (changing it would let a reader subtract the erased person).
      expect(await metric('count')).toEqual({ all: 2 });
      expect(await metric('mhci')).toEqual(metricsBefore.mhci);
      expect(await metric('mhci')).toEqual({ all: match.any(Object) });
      expect(metricsBefore.mhci).not.toEqual({ all: null });
      expect(await metric('wordcloud', '?accuracy=true')).toEqual(metricsBefore.wordcloud);
      expect((await rollups()).releases).toEqual(released.releases);
    });

    it('leaves no row anywhere holding their external ID, email, email hash or transcript', async () => {
      const emailHash = t.app.get(PiiCipher).emailLookupHash(victim.email);
      for (const needle of [
        victim.externalId,
        victim.participantId,
        emailHash,
        victim.email,
        'zanzibarite',
        ...victim.sessions,
      ]) {
        expect({ needle, rows: await rowsContaining(needle) }).toEqual({ needle, rows: [] });
      }
    });

    it('writes user.deleted for each of their groups, the external ID only encrypted', async () => {
      const { rows } = await t.db.query<{
        group_id: string;
        payload: object;
        encrypted_pii: string;
      }>(
        `SELECT group_id, payload, encrypted_pii FROM events WHERE type = 'user.deleted'
          ORDER BY group_id`,
      );
      expect(rows.map((row) => Number(row.group_id))).toEqual([group.groupID, other.groupID]);
      const cipher = t.app.get(PiiCipher);
      for (const row of rows) {
        expect(row.payload).toEqual({
          groupID: Number(row.group_id),
          timestamp: match.any(String),
        });
        expect(JSON.parse(cipher.decrypt(row.encrypted_pii))).toEqual({
          userIdentifier: victim.externalId,
        });
      }
      // The ledger keeps one anonymous row.
      const ledger = await t.db.query(
        `SELECT participant_id, group_id, change, via FROM consent_ledger
          WHERE enterprise_id = $1 AND change = 'erasure'`,
        [acme.enterpriseId],
      );
      expect(ledger.rows).toEqual([
        { participant_id: null, group_id: null, change: 'erasure', via: 'erasure' },
      ]);
    });

    it('answers Participant not found for malformed IDs (a NUL byte included), never a 5xx', async () => {
      for (const id of ['%00', 'ok_%00', `ok_${'g'.repeat(48)}`, 'x'.repeat(300)]) {
        expect(
          await t.request('DELETE', `/participants/${id}`, { apiKey: acme.apiKey }),
        ).toMatchObject({ status: 400, body: { error: ParticipantErrors.NotFound } });
      }
    });

    it('keeps the spec’s path error for a missing ID', async () => {
      expect(await t.request('DELETE', '/participants/', { apiKey: acme.apiKey })).toMatchObject({
        status: 400,
        body: { error: ParticipantErrors.ExternalIdMissing },
      });
      expect((await t.request('DELETE', `/participants/${colleague.externalId}`)).status).toBe(401);
    });
  });

  it('participants:erase does the same for the operator', async () => {
    const someone = await person([['2026-04-01', 50, 'quiet', 5]]);
    const cli = (...args: string[]) =>
      runCli(['participants:erase', ...args], { DATABASE_URL: t.config.database.url });
    expect(await cli(someone.externalId, '--json')).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ externalID: someone.externalId, erased: true })}\n`,
      stderr: '',
    });
    expect(await rowsContaining(someone.externalId)).toEqual([]);
    expect(await cli(someone.externalId)).toEqual({
      code: 1,
      stdout: '',
      stderr: `${ParticipantErrors.NotFound}\n`,
    });
  });

  describe('on the settings page', () => {
    const settingsPath = (participantId: string, groupId: number, form?: string) => {
      const url = new URL(
        t.app.get(ParticipantLinks).settingsUrl({ participantId, groupId, linkVersion: 0 }),
      );
      return `${url.pathname}${form ? `/${form}` : ''}${url.search}`;
    };
    const fetchPage = async (path: string, method = 'GET') => {
      const response = await fetch(`${t.baseUrl}${path}`, { method, redirect: 'manual' });
      return {
        status: response.status,
        headers: response.headers,
        text: await response.text(),
      };
    };

    it('"Download my data", in a browser that did a check-in: the account, that check-in in full, the others by ID and time', async () => {
      const me = await person([
        ['2026-05-01', 66, 'gardening helps', 12],
        ['2026-05-02', 77, 'rain', 13],
      ]);
      // The participant did the first check-in in their browser; the second elsewhere.
      const mine = new PageBrowser(t.baseUrl);
      expect((await mine.post(`${me.links[0]}/start`)).status).toBe(303);
      // A settings link alone (a mailbox the employer may control) exports nothing.
      const cookieless = await fetchPage(
        settingsPath(me.participantId, group.groupID, 'export'),
        'POST',
      );
      expect(cookieless.status).toBe(403);
      expect(cookieless.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(cookieless.text).toContain(PAGE_ERRORS['export-elsewhere'].title);
      expect(cookieless.text).not.toContain(me.email);
      expect(cookieless.text).not.toContain('gardening');
      await t.db.query(
        `UPDATE memberships SET privacy_level = 0 WHERE participant_id = $1`, // level 0: still all theirs
        [me.participantId],
      );
      const page = await fetchPage(settingsPath(me.participantId, group.groupID));
      expect(page.text).toContain(PageTexts.exportButton);
      // GET does not export (link scanners); the form posts.
      expect(
        (await fetchPage(settingsPath(me.participantId, group.groupID, 'export'))).status,
      ).toBe(404);
      const answer = await mine.post(settingsPath(me.participantId, group.groupID, 'export'));
      const download = { ...answer, text: answer.html };
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(download.headers.get('content-disposition')).toBe(
        'attachment; filename="my-checkin-data.json"',
      );
      expect(download.headers.get('cache-control')).toBe('no-store');
      const data = JSON.parse(download.text) as Record<string, unknown>;
      expect(Object.keys(data)).toEqual([
        'exportedAt',
        'externalID',
        'email',
        'emailPreferences',
        'language',
        'groups',
        'sessions',
        'history',
      ]);
      expect(data).toMatchObject({
        externalID: me.externalId,
        email: me.email,
        emailPreferences: { checkinReminder: true, privacyRequest: true },
        language: null,
        groups: [
          {
            groupID: group.groupID,
            name: 'Team',
            privacyLevel: 0,
            consentRequired: false,
            consentedAt: null,
          },
        ],
      });
      const sessions = data.sessions as Record<string, unknown>[];
      expect(sessions.map((session) => session.sessionID)).toEqual(me.sessions);
      expect(sessions[1]).toEqual({
        sessionID: me.sessions[1],
        timestamp: '2026-05-02T10:00:00.000Z',
      });
      expect(sessions[0]).toMatchObject({
        externalID: me.externalId,
        mhci: 66,
        transcript: [
          { role: 'assistant', content: 'How are you?' },
          { role: 'user', content: 'gardening helps' },
        ],
        features: { pitch: 12, tempo: 6 },
      });
      // No enterprise route exports anything of the kind.
      expect(
        (
          await t.request('GET', `/participants/${me.externalId}/export`, {
            apiKey: acme.apiKey,
          })
        ).status,
      ).toBe(404);
    });

    it('"Delete my data": a confirmation page that changes nothing, then the erasure', async () => {
      const me = await person([['2026-05-03', 55, 'mountains', 14]]);
      const confirm = await fetchPage(settingsPath(me.participantId, group.groupID, 'delete'));
      expect(confirm.status).toBe(200);
      expect(confirm.text).toContain(PageTexts.deleteTitle);
      expect(confirm.text).toContain(PageTexts.deleteConfirmButton);
      expect(await rowsContaining(me.externalId)).not.toEqual([]);

      const deleted = await fetchPage(
        settingsPath(me.participantId, group.groupID, 'delete'),
        'POST',
      );
      expect(deleted.status).toBe(200);
      expect(deleted.text).toContain(PageTexts.deletedTitle);
      expect(await rowsContaining(me.externalId)).toEqual([]);
      expect(await rowsContaining('mountains')).toEqual([]);
      // The link no longer works.
      const gone = await fetchPage(settingsPath(me.participantId, group.groupID));
      expect(gone.status).toBe(404);
      expect(gone.text).toContain(PAGE_ERRORS['not-found'].title);
    });
  });
});

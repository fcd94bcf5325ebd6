/**
 * The migrations of a check-in's own browser, level and consent (docs/privacy.md), on data from
 * before them: every browser already holding a link is recorded as minted (its links keep
 * working), every session is shared at its member's level now (it shows what it showed before),
 * and the sessions of members who had consented keep that consent.
 */
import type { QueryRunner } from 'typeorm';
import { MintedBrowsers1765000000000 } from '../../migrations/1765000000000-MintedBrowsers';
import { SessionSharedLevels1765100000000 } from '../../migrations/1765100000000-SessionSharedLevels';
import { CheckinConsent1765300000000 } from '../../migrations/1765300000000-CheckinConsent';
import { TestDatabase } from './support';

describe('migrations: minted browsers, sessions’ own levels', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(() => t.close());

  it('records the browsers holding links as minted, once each', async () => {
    const migration = new MintedBrowsers1765000000000();
    const runner = { query: (sql: string) => t.pool.query(sql) } as unknown as QueryRunner;
    // The database before the migration, holding three bindings of two browsers.
    await migration.down(runner);
    const enterprise = await t.enterprise();
    const participant = await t.participant(enterprise);
    for (const [link, browser] of [
      ['checkin:a', 'hash-1'],
      ['checkin:b', 'hash-1'],
      ['settings:c', 'hash-2'],
    ]) {
      await t.pool.query(
        'INSERT INTO link_bindings (link, browser_hash, participant_id) VALUES ($1, $2, $3)',
        [link, browser, participant],
      );
    }

    await migration.up(runner);

    const minted = await t.pool.query<{ hash: string }>('SELECT hash FROM browsers ORDER BY hash');
    expect(minted.rows).toEqual([{ hash: 'hash-1' }, { hash: 'hash-2' }]);
  });

  it('shares every existing session at its member’s level now', async () => {
    const migration = new SessionSharedLevels1765100000000();
    const runner = { query: (sql: string) => t.pool.query(sql) } as unknown as QueryRunner;
    await migration.down(runner);
    const enterprise = await t.enterprise();
    const group = await t.group(enterprise);
    const [three, zero] = [await t.participant(enterprise), await t.participant(enterprise)];
    await t.membership(three, group, 3);
    await t.membership(zero, group, 0);
    const done = await t.pool.query<{ session_id: string }>(
      `INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, return_url)
       VALUES ('ses_AAAAAAAAAAAAAAAAAAAAAAAA', $1, $2, $3, 'https://example.com/'),
              ('ses_BBBBBBBBBBBBBBBBBBBBBBBB', $1, $4, $3, 'https://example.com/')
       RETURNING session_id`,
      [enterprise, three, group, zero],
    );
    expect(done.rowCount).toBe(2);

    await migration.up(runner);

    const levels = await t.pool.query<{ session_id: string; shared_level: number }>(
      'SELECT session_id, shared_level FROM sessions ORDER BY session_id',
    );
    expect(levels.rows).toEqual([
      { session_id: 'ses_AAAAAAAAAAAAAAAAAAAAAAAA', shared_level: 3 },
      { session_id: 'ses_BBBBBBBBBBBBBBBBBBBBBBBB', shared_level: 0 },
    ]);
  });

  it('gives the sessions of members who had consented that consent, and no others', async () => {
    const migration = new CheckinConsent1765300000000();
    const runner = { query: (sql: string) => t.pool.query(sql) } as unknown as QueryRunner;
    await migration.down(runner);
    await t.pool.query(
      `UPDATE memberships SET consented_at = '2026-01-02T03:04:05Z'
        WHERE participant_id = (SELECT participant_id FROM sessions
                                 WHERE session_id = 'ses_AAAAAAAAAAAAAAAAAAAAAAAA')`,
    );

    await migration.up(runner);

    const consent = await t.pool.query<{ session_id: string; consented_at: Date | null }>(
      'SELECT session_id, consented_at FROM sessions ORDER BY session_id',
    );
    expect(consent.rows).toEqual([
      {
        session_id: 'ses_AAAAAAAAAAAAAAAAAAAAAAAA',
        consented_at: new Date('2026-01-02T03:04:05Z'),
      },
      { session_id: 'ses_BBBBBBBBBBBBBBBBBBBBBBBB', consented_at: null },
    ]);
  });
});

/**
 * The migration that introduces minted browser identities (migrations/1765000000000-MintedBrowsers.ts)
 * records every browser already holding a link as minted, so links bound before it keep working in
 * their browser; and nothing else.
 */
import type { QueryRunner } from 'typeorm';
import { MintedBrowsers1765000000000 } from '../../migrations/1765000000000-MintedBrowsers';
import { TestDatabase } from './support';

describe('migration: minted browsers', () => {
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
});

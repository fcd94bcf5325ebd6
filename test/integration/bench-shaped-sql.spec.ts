/**
 * SQL shaped by the bench reads what the plain query reads (docs/performance.md, "Code shaped by
 * the bench"):
 * - rows as arrays (`Database.tuples` + `groupOf`, GET /groups' list) map to exactly the objects
 *   pg's plain row objects are for the same SQL, on groups whose every column varies (Unicode
 *   names, privacy arrays, consent, credits);
 * - a prepared statement (`statement`, `NamedStatement`) answers exactly what the same SQL
 *   unprepared answers, on its first use on a connection (parsed and planned) and after it
 *   (only bound and run), on the pool and inside a transaction.
 */
import { PRIVACY_NAMES } from '../../src/common/privacy-model';
import { statement } from '../../src/database/database';
import {
  groupOf,
  GroupsRepository,
  LIST_FOR_ENTERPRISE,
  type GroupRecord,
} from '../../src/groups/groups.repository';
import { TestDatabase } from './support';

describe('SQL shaped by the bench', () => {
  let t: TestDatabase;
  let enterpriseId: string;

  beforeAll(async () => {
    t = await TestDatabase.create();
    enterpriseId = await t.enterprise('Bench shapes');
    const names = ['Night shift', 'Équipe « nuit » 夜勤 🌙', 'a "quoted" \\ name\n', ' '];
    for (let i = 0; i < 12; i++) {
      const groupId = await t.group(enterpriseId, {
        name: `${names[i % names.length]} ${i}`,
        requestedPrivacy: PRIVACY_NAMES.slice(0, i % (PRIVACY_NAMES.length + 1)),
      });
      await t.rows('UPDATE groups SET consent_required = $2, credits = $3 WHERE group_id = $1', [
        groupId,
        i % 2 === 0,
        i * 7,
      ]);
    }
    await t.group(await t.enterprise('Bench shapes, another'));
  });
  afterAll(() => t.close());

  it('rows as arrays map to exactly the row objects of the plain query', async () => {
    const plain = await t.db.rows<GroupRecord>(LIST_FOR_ENTERPRISE, [enterpriseId]);
    expect(plain).toHaveLength(12);
    const tuples = await t.db.tuples<Parameters<typeof groupOf>[0]>(LIST_FOR_ENTERPRISE, [
      enterpriseId,
    ]);
    expect(tuples.map(groupOf)).toStrictEqual(plain);
    // The repository's own list, keys in the same order as pg's row objects.
    const listed = await new GroupsRepository(t.db).listForEnterprise(enterpriseId);
    expect(listed).toStrictEqual(plain);
    expect(listed.map((group) => Object.keys(group))).toEqual(plain.map((row) => Object.keys(row)));
  });

  it('a prepared statement answers what the same SQL unprepared answers, first use and after', async () => {
    const text = LIST_FOR_ENTERPRISE.replace(
      'ORDER BY group_id',
      'AND credits >= $2 ORDER BY group_id',
    );
    const prepared = statement('bench-shaped-sql-list', text);
    for (const minimum of [0, 35, 0, 1_000, 14]) {
      const plain = await t.db.rows<GroupRecord>(text, [enterpriseId, minimum]);
      expect(plain.length).toBeGreaterThanOrEqual(minimum === 1_000 ? 0 : 1);
      expect(await t.db.rows<GroupRecord>(prepared, [enterpriseId, minimum])).toStrictEqual(plain);
      expect(
        await t.db.transaction(async (sql) => [
          await sql.rows<GroupRecord>(prepared, [enterpriseId, minimum]),
          await sql.rows<GroupRecord>(prepared, [enterpriseId, minimum]),
        ]),
      ).toStrictEqual([plain, plain]);
    }
    // The repository's prepared look-up of one group, against the plain list's row.
    const repository = new GroupsRepository(t.db);
    for (const row of await t.db.rows<GroupRecord>(LIST_FOR_ENTERPRISE, [enterpriseId])) {
      expect(await repository.findForEnterprise(enterpriseId, row.groupId)).toStrictEqual(row);
      expect(await repository.findForEnterprise(enterpriseId, row.groupId)).toStrictEqual(row);
    }
  });
});

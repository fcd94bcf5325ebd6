/**
 * SandboxRepository against real PostgreSQL: `GET /sandbox/emails` reads only the caller's
 * captured mails, newest first, at most the limit; and they go with the participant (erasure)
 * and with the enterprise.
 */
import { SandboxRepository } from '../../src/sandbox/sandbox.repository';
import { match } from '../support/matchers';
import { TestDatabase } from './support';

describe('SandboxRepository (PostgreSQL)', () => {
  let t: TestDatabase;
  let repo: SandboxRepository;

  beforeAll(async () => {
    t = await TestDatabase.create();
    repo = new SandboxRepository(t.db);
  });
  afterAll(() => t.close());

  /** A sandbox enterprise with one group and `people` members. */
  const sandbox = async (name: string, people: number) => {
    const enterpriseId = await t.enterprise(name, { sandbox: true });
    const groupId = await t.group(enterpriseId);
    const participants: string[] = [];
    for (let i = 0; i < people; i++) {
      const participant = await t.participant(enterpriseId, { emailCiphertext: `email-${i}` });
      await t.membership(participant, groupId);
      participants.push(participant);
    }
    return { enterpriseId, groupId, participants };
  };

  /** A sent mail captured `agoMs` ago (the worker's row), with `subject`. */
  const captured = async (
    world: { enterpriseId: string; groupId: number },
    participantId: string,
    subject: string,
    agoMs: number,
  ): Promise<string> => {
    const id = await t.email(participantId, world.groupId, { status: 'sent' });
    await t.rows(
      `INSERT INTO sandbox_emails (email_message_id, enterprise_id, subject, text_ciphertext,
                                   created_at)
       VALUES ($1, $2, $3, $4, now() - $5 * interval '1 millisecond')`,
      [id, world.enterpriseId, subject, `sealed ${subject}`, agoMs],
    );
    return id;
  };

  it("answers the enterprise's mails only, newest first, with what the answer needs", async () => {
    const acme = await sandbox('Acme', 2);
    const globex = await sandbox('Globex', 1);
    await captured(acme, acme.participants[0], 'older', 60_000);
    await captured(globex, globex.participants[0], 'theirs', 1_000);
    await captured(acme, acme.participants[1], 'newer', 5_000);

    const rows = await repo.listEmails(acme.enterpriseId, 100);
    expect(rows.map((row) => row.subject)).toEqual(['newer', 'older']);
    const externalIds = await t.rows<{ id: string; externalId: string }>(
      'SELECT id, external_id AS "externalId" FROM participants WHERE enterprise_id = $1',
      [acme.enterpriseId],
    );
    const externalIdOf = (id: string) => externalIds.find((row) => row.id === id)?.externalId;
    expect(rows[0]).toEqual({
      subject: 'newer',
      textCiphertext: 'sealed newer',
      createdAt: match.any(Date),
      type: 'checkinReminder',
      groupId: acme.groupId,
      externalId: externalIdOf(acme.participants[1]),
      emailCiphertext: 'email-1',
    });
    expect((await repo.listEmails(globex.enterpriseId, 100)).map((row) => row.subject)).toEqual([
      'theirs',
    ]);
    // An enterprise with none, sandbox or not.
    expect(await repo.listEmails(await t.enterprise('Initech'), 100)).toEqual([]);
  });

  it('answers at most `limit` mails: the newest', async () => {
    const world = await sandbox('Busy', 1);
    for (let i = 0; i < 105; i++) {
      await captured(world, world.participants[0], `mail ${i}`, (105 - i) * 1_000);
    }
    const rows = await repo.listEmails(world.enterpriseId, 100);
    expect(rows).toHaveLength(100);
    expect(rows[0].subject).toBe('mail 104');
    expect(rows[99].subject).toBe('mail 5');
  });

  it('goes with the participant (erasure deletes their mails) and with the enterprise', async () => {
    const world = await sandbox('Leaving', 2);
    await captured(world, world.participants[0], 'erased', 2_000);
    await captured(world, world.participants[1], 'kept', 1_000);
    await t.rows('DELETE FROM participants WHERE id = $1', [world.participants[0]]);
    expect((await repo.listEmails(world.enterpriseId, 100)).map((row) => row.subject)).toEqual([
      'kept',
    ]);
    await t.rows('DELETE FROM enterprises WHERE id = $1', [world.enterpriseId]);
    const left = await t.rows('SELECT 1 FROM sandbox_emails WHERE enterprise_id = $1', [
      world.enterpriseId,
    ]);
    expect(left).toEqual([]);
  });
});

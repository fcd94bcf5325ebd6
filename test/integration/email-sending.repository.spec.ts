/**
 * EmailSendingRepository against real PostgreSQL: the sweeper's scans, what a mail is sent
 * with (preferences and privacy as they are now), and its outcome.
 */
import { noticeDetails } from '../../src/interact/privacy-notice';
import { SANDBOX_EMAILS_KEPT } from '../../src/interact/sandbox-email.entity';
import { randomUUID } from 'node:crypto';
import {
  EmailSendingRepository,
  MessageToSend,
} from '../../src/interact/sending/email-sending.repository';
import { TestDatabase } from './support';

describe('EmailSendingRepository (PostgreSQL)', () => {
  let t: TestDatabase;
  let repo: EmailSendingRepository;
  let enterpriseId: string;
  let groupId: number;
  let participantId: string;

  beforeAll(async () => {
    t = await TestDatabase.create();
    repo = new EmailSendingRepository(t.db);
    enterpriseId = await t.enterprise();
    groupId = await t.group(enterpriseId, { name: 'Day shift', requestedPrivacy: ['mhci'] });
    participantId = await t.participant(enterpriseId);
    await t.membership(participantId, groupId, 2);
  });
  afterAll(() => t.close());
  // queued and queuedBefore scan every mail: each test starts with none.
  beforeEach(() => t.rows('DELETE FROM email_messages'));

  describe('queued', () => {
    it("answers only 'queued' mails, oldest first, at most `limit`", async () => {
      const oldest = await t.email(participantId, groupId, { createdAgoMs: 50_000 });
      const middle = await t.email(participantId, groupId, { createdAgoMs: 40_000 });
      const newest = await t.email(participantId, groupId, { createdAgoMs: 1_000 });
      for (const status of ['sent', 'failed', 'skipped'] as const) {
        await t.email(participantId, groupId, { status, createdAgoMs: 60_000 });
      }

      expect(await repo.queued(10)).toEqual([oldest, middle, newest]);
      expect(await repo.queued(2)).toEqual([oldest, middle]);
    });

    it('leaves out a mail whose send_after is still ahead, until it passes', async () => {
      const now = await t.email(participantId, groupId, { createdAgoMs: 50_000 });
      const waiting = await t.email(participantId, groupId, { createdAgoMs: 60_000 });
      await sendAfter(waiting, -30 * 60_000);
      expect(await repo.queued(10)).toEqual([now]);
      await sendAfter(waiting, 1_000);
      expect(await repo.queued(10)).toEqual([waiting, now]);
    });
  });

  /** Sets a mail's send_after to `agoMs` before now (negative: ahead). */
  const sendAfter = (id: string, agoMs: number) =>
    t.rows(
      `UPDATE email_messages SET send_after = now() - $2 * interval '1 millisecond' WHERE id = $1`,
      [id, agoMs],
    );

  describe('backlog', () => {
    it("counts the 'queued' mails and the age of the oldest; zero when none is queued", async () => {
      await t.email(participantId, groupId, { status: 'sent', createdAgoMs: 900_000 });
      expect(await repo.backlog()).toEqual({ pending: 0, oldestPendingSeconds: 0 });
      await t.email(participantId, groupId, { createdAgoMs: 120_000, attempts: 3 });
      await t.email(participantId, groupId, { createdAgoMs: 1_000 });
      await t.email(participantId, groupId, { status: 'failed', createdAgoMs: 600_000 });
      const backlog = await repo.backlog();
      expect(backlog.pending).toBe(2);
      expect(backlog.oldestPendingSeconds).toBeGreaterThanOrEqual(120);
      expect(backlog.oldestPendingSeconds).toBeLessThan(130);
    });

    it('counts a notice waiting for its time as pending, not late; once due, late since then', async () => {
      const waiting = await t.email(participantId, groupId, { createdAgoMs: 1_800_000 });
      await sendAfter(waiting, -1_800_000);
      expect(await repo.backlog()).toEqual({ pending: 1, oldestPendingSeconds: 0 });
      await sendAfter(waiting, 60_000);
      const backlog = await repo.backlog();
      expect(backlog.pending).toBe(1);
      expect(backlog.oldestPendingSeconds).toBeGreaterThanOrEqual(60);
      expect(backlog.oldestPendingSeconds).toBeLessThan(70);
    });
  });

  describe('queuedBefore', () => {
    it("answers 'queued' mails older than ageMs, oldest first, at most `limit`", async () => {
      const oldest = await t.email(participantId, groupId, { createdAgoMs: 600_000 });
      const old = await t.email(participantId, groupId, { createdAgoMs: 120_000 });
      await t.email(participantId, groupId, { createdAgoMs: 30_000 });
      await t.email(participantId, groupId, { createdAgoMs: 0 });
      await t.email(participantId, groupId, { status: 'sent', createdAgoMs: 900_000 });

      expect(await repo.queuedBefore(60_000, 10)).toEqual([oldest, old]);
      expect(await repo.queuedBefore(60_000, 1)).toEqual([oldest]);
      expect(await repo.queuedBefore(300_000, 10)).toEqual([oldest]);
      expect(await repo.queuedBefore(3_600_000, 10)).toEqual([]);
    });

    it('measures a mail with a send_after from that time, and leaves it out before it', async () => {
      const waiting = await t.email(participantId, groupId, { createdAgoMs: 600_000 });
      await sendAfter(waiting, -60_000);
      expect(await repo.queuedBefore(60_000, 10)).toEqual([]);
      await sendAfter(waiting, 30_000);
      expect(await repo.queuedBefore(60_000, 10)).toEqual([]);
      await sendAfter(waiting, 120_000);
      expect(await repo.queuedBefore(60_000, 10)).toEqual([waiting]);
    });
  });

  describe('loadForSending', () => {
    it('answers the mail with the participant, the group and the membership as they are now', async () => {
      const participant = await t.participant(enterpriseId, { emailCiphertext: 'cipher-of-ana' });
      await t.membership(participant, groupId, 3);
      const traceContext = {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        tracestate: 'vendor=1',
      };
      const id = await t.email(participant, groupId, { type: 'privacyRequest', traceContext });

      expect(await repo.loadForSending(id)).toEqual<MessageToSend>({
        id,
        enterpriseId,
        type: 'privacyRequest',
        status: 'queued',
        participantId: participant,
        details: null,
        groupId,
        emailCiphertext: 'cipher-of-ana',
        prefOn: true,
        groupName: 'Day shift',
        requestedPrivacy: ['mhci'],
        privacyLevel: 3,
        linkVersion: 0,
        sandbox: false,
        enterpriseName: 'Acme',
        // No programme declared: voice and face may be analysed, as before declarations.
        biometric: true,
        language: null,
        traceContext,
        createdAt: expect.any(Date) as Date,
      });
      await t.db.rows(
        'UPDATE memberships SET link_version = 4 WHERE participant_id = $1 AND group_id = $2',
        [participant, groupId],
      );
      expect((await repo.loadForSending(id))?.linkVersion).toBe(4);
      expect(await repo.loadForSending(randomUUID())).toBeNull();
    });

    it("reads the preference of the mail's own type", async () => {
      const remindersOff = await t.participant(enterpriseId, {
        prefCheckinReminder: false,
        prefPrivacyRequest: true,
      });
      const requestsOff = await t.participant(enterpriseId, {
        prefCheckinReminder: true,
        prefPrivacyRequest: false,
      });
      const prefOn = async (participant: string, type: 'checkinReminder' | 'privacyRequest') =>
        (await repo.loadForSending(await t.email(participant, groupId, { type })))?.prefOn;

      expect(await prefOn(remindersOff, 'checkinReminder')).toBe(false);
      expect(await prefOn(remindersOff, 'privacyRequest')).toBe(true);
      expect(await prefOn(requestsOff, 'checkinReminder')).toBe(true);
      expect(await prefOn(requestsOff, 'privacyRequest')).toBe(false);

      // Turned off after the mail was queued: the answer is the preference now.
      const id = await t.email(requestsOff, groupId, { type: 'checkinReminder' });
      await t.rows('UPDATE participants SET pref_checkin_reminder = false WHERE id = $1', [
        requestsOff,
      ]);
      expect((await repo.loadForSending(id))?.prefOn).toBe(false);
    });

    it("takes the participant's own privacy request over the group's, even an empty one", async () => {
      const group = await t.group(enterpriseId, {
        name: 'Lab',
        requestedPrivacy: ['mhci', 'transcript'],
      });
      const own = await t.participant(enterpriseId, { requestedPrivacy: ['features'] });
      const none = await t.participant(enterpriseId, { requestedPrivacy: null });
      const empty = await t.participant(enterpriseId, { requestedPrivacy: [] });
      const requested = async (participant: string) =>
        (await repo.loadForSending(await t.email(participant, group)))?.requestedPrivacy;

      expect(await requested(own)).toEqual(['features']);
      expect(await requested(none)).toEqual(['mhci', 'transcript']);
      expect(await requested(empty)).toEqual([]);
    });

    it("answers the privacy level of the mail's own group, and 0 once that membership is gone", async () => {
      const participant = await t.participant(enterpriseId);
      await t.membership(participant, groupId, 4);
      // A membership in another group does not count for this mail.
      await t.membership(participant, await t.group(enterpriseId, { name: 'Other' }), 5);
      const id = await t.email(participant, groupId);
      expect((await repo.loadForSending(id))?.privacyLevel).toBe(4);

      await t.rows('DELETE FROM memberships WHERE participant_id = $1 AND group_id = $2', [
        participant,
        groupId,
      ]);
      expect(await repo.loadForSending(id)).toMatchObject({
        id,
        groupName: 'Day shift',
        privacyLevel: 0,
      });
    });

    it("says whether the mail's enterprise is a sandbox (its mails are captured, not sent)", async () => {
      const sandboxId = await t.enterprise('Sandbox Co', { sandbox: true });
      const sandboxParticipant = await t.participant(sandboxId);
      const sandboxGroup = await t.group(sandboxId);
      await t.membership(sandboxParticipant, sandboxGroup);
      const captured = await t.email(sandboxParticipant, sandboxGroup);
      expect(await repo.loadForSending(captured)).toMatchObject({
        enterpriseId: sandboxId,
        sandbox: true,
      });
      const sent = await t.email(participantId, groupId);
      expect(await repo.loadForSending(sent)).toMatchObject({ enterpriseId, sandbox: false });
    });

    it("answers a finished mail too, with its status (the sender skips what is not 'queued')", async () => {
      const id = await t.email(participantId, groupId, { status: 'sent' });
      expect((await repo.loadForSending(id))?.status).toBe('sent');
    });
  });

  describe('finish', () => {
    it('sent: one more attempt, sent_at now, the error cleared', async () => {
      const id = await t.email(participantId, groupId, { attempts: 1 });
      await repo.recordTemporaryFailure(id, 'greylisted');
      await repo.finish(id, 'sent', null);

      expect(await t.emailRow(id)).toMatchObject({ status: 'sent', attempts: 3, error: null });
      const { recent } = await t.one<{ recent: boolean }>(
        `SELECT sent_at > now() - interval '5 seconds' AS recent FROM email_messages WHERE id = $1`,
        [id],
      );
      expect(recent).toBe(true);
    });

    it('failed: one more attempt, no sent_at', async () => {
      const id = await t.email(participantId, groupId, { attempts: 2 });
      await repo.finish(id, 'failed', '550 mailbox unavailable');
      expect(await t.emailRow(id)).toEqual({
        id,
        status: 'failed',
        attempts: 3,
        error: '550 mailbox unavailable',
        sentAt: null,
      });
    });

    it('skipped: attempts unchanged, no sent_at', async () => {
      const id = await t.email(participantId, groupId, { attempts: 0 });
      await repo.finish(id, 'skipped', 'preference turned off');
      expect(await t.emailRow(id)).toEqual({
        id,
        status: 'skipped',
        attempts: 0,
        error: 'preference turned off',
        sentAt: null,
      });
    });

    it("changes only a mail still 'queued'", async () => {
      const id = await t.email(participantId, groupId);
      await repo.finish(id, 'sent', null);
      const sent = await t.emailRow(id);

      await repo.finish(id, 'failed', 'late failure');
      await repo.finish(id, 'skipped', 'late skip');
      await repo.finish(id, 'sent', null);
      expect(await t.emailRow(id)).toEqual(sent);

      const failed = await t.email(participantId, groupId, { status: 'failed', attempts: 5 });
      const before = await t.emailRow(failed);
      await repo.finish(failed, 'sent', null);
      expect(await t.emailRow(failed)).toEqual(before);
    });
  });

  describe('finishNotice', () => {
    const WINDOW_MS = 3_600_000;
    const raise = (from: number, to: number, minute: number) => ({
      from,
      to,
      at: `2026-02-10T09:${String(minute).padStart(2, '0')}:00.000Z`,
    });
    const notice = async (...raises: ReturnType<typeof raise>[]) => {
      const id = await t.email(participantId, groupId);
      await t.rows(`UPDATE email_messages SET type = 'privacyNotice', details = $2 WHERE id = $1`, [
        id,
        JSON.stringify(noticeDetails(raises)),
      ]);
      return id;
    };
    const noticesOf = () =>
      t.rows<{ status: string; details: unknown; waits: number | null }>(
        `SELECT status, details,
                round(extract(epoch FROM send_after - now()))::int AS waits
           FROM email_messages WHERE participant_id = $1 AND type = 'privacyNotice'
          ORDER BY created_at, status DESC`,
        [participantId],
      );

    it('sent with every raise it carries: sent, nothing else queued', async () => {
      const id = await notice(raise(0, 1, 41), raise(1, 5, 50));
      await repo.finishNotice(id, 2, WINDOW_MS);
      expect(await t.emailRow(id)).toMatchObject({ status: 'sent', attempts: 1, error: null });
      expect(await noticesOf()).toEqual([
        {
          status: 'sent',
          details: noticeDetails([raise(0, 1, 41), raise(1, 5, 50)]),
          waits: null,
        },
      ]);
    });

    it('raises added while it was sent move to a notice of their own, sent at the end of the window', async () => {
      const id = await notice(raise(0, 1, 41), raise(1, 5, 50), raise(2, 4, 55));
      await repo.finishNotice(id, 1, WINDOW_MS);
      expect(await noticesOf()).toEqual([
        { status: 'sent', details: noticeDetails([raise(0, 1, 41)]), waits: null },
        {
          status: 'queued',
          details: noticeDetails([raise(1, 5, 50), raise(2, 4, 55)]),
          waits: WINDOW_MS / 1_000,
        },
      ]);
    });

    it("changes only a notice still 'queued'", async () => {
      const id = await notice(raise(0, 1, 41));
      await repo.finish(id, 'failed', 'smtp 550');
      const failed = await t.emailRow(id);
      await repo.finishNotice(id, 0, WINDOW_MS);
      expect(await t.emailRow(id)).toEqual(failed);
      expect(await noticesOf()).toHaveLength(1);
    });
  });

  describe('capture', () => {
    it("keeps a sandbox mail once, however often the job runs; it goes with its mail's row", async () => {
      const id = await t.email(participantId, groupId);
      const captured = () =>
        t.rows<{ subject: string; textCiphertext: string; enterpriseId: string }>(
          `SELECT subject, text_ciphertext AS "textCiphertext", enterprise_id AS "enterpriseId"
             FROM sandbox_emails WHERE email_message_id = $1`,
          [id],
        );
      await repo.capture({ id, enterpriseId }, { subject: 'First', textCiphertext: 'v2.k0.a' });
      await repo.capture({ id, enterpriseId }, { subject: 'Again', textCiphertext: 'v2.k0.b' });
      expect(await captured()).toEqual([
        { subject: 'First', textCiphertext: 'v2.k0.a', enterpriseId },
      ]);
      // The mail's status is the sender's to set (finish), not the capture's.
      expect((await t.emailRow(id)).status).toBe('queued');

      await t.rows('DELETE FROM email_messages WHERE id = $1', [id]);
      expect(await captured()).toEqual([]);
    });

    it(`keeps the enterprise's ${SANDBOX_EMAILS_KEPT} newest captured mails, no more`, async () => {
      const ids: string[] = [];
      for (let i = 0; i < SANDBOX_EMAILS_KEPT + 3; i++) {
        const id = await t.email(participantId, groupId);
        ids.push(id);
        await repo.capture(
          { id, enterpriseId },
          { subject: `Mail ${i}`, textCiphertext: 'v2.k0.x' },
        );
      }
      const kept = await t.rows<{ id: string }>(
        `SELECT email_message_id AS id FROM sandbox_emails WHERE enterprise_id = $1`,
        [enterpriseId],
      );
      expect(kept).toHaveLength(SANDBOX_EMAILS_KEPT);
      // The oldest three went; their email log rows stay (the log is not the capture).
      expect(kept.map((row) => row.id)).not.toEqual(expect.arrayContaining([ids[0]]));
      expect(new Set(kept.map((row) => row.id))).toEqual(new Set(ids.slice(3)));
      expect((await t.emailRow(ids[0])).id).toBe(ids[0]);
    });
  });

  describe('recordTemporaryFailure', () => {
    it("counts the attempt and keeps the error; the mail stays 'queued'", async () => {
      const id = await t.email(participantId, groupId);
      const other = await t.email(participantId, groupId);
      await repo.recordTemporaryFailure(id, '421 try later');
      await repo.recordTemporaryFailure(id, 'connection reset');

      expect(await t.emailRow(id)).toEqual({
        id,
        status: 'queued',
        attempts: 2,
        error: 'connection reset',
        sentAt: null,
      });
      expect(await t.emailRow(other)).toMatchObject({ attempts: 0, error: null });
      expect(await repo.queued(10)).toEqual([id, other]);
    });
  });
});

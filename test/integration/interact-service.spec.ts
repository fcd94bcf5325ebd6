/**
 * Email requests (InteractService) and the email worker's send (EmailSender) below HTTP, on their
 * real repositories and PostgreSQL (docs/emails.md). Only SMTP is a stand-in: a mailer that keeps
 * what it is handed, or fails as nodemailer does. Pinned down:
 * - a group mail queues one row per member whose preference for that type is on (both are on by
 *   default), and answers how many; a participant mail is about their most recently joined group,
 *   and queues nothing when their preference is off or they are in no group;
 * - nobody gets the same type twice within EMAIL_DEDUP_WINDOW, whatever the group: a queued or
 *   sent mail counts, a failed or skipped one does not, another type does not; the window is the
 *   configured one, to the second;
 * - the notice of a raised privacy level is queued whatever the preferences, and no raise is ever
 *   dropped: a raise joins the notice still queued for that participant and group (one mail lists
 *   them in order); after a notice was sent, the raises of the window wait for its end in one
 *   notice; a raise made while its notice is being sent goes in the next; two at once share one;
 * - an unknown group is `Group not found`, another enterprise's `Group doesn't exist in associated
 *   groups`; an unknown, malformed or another enterprise's participant `Participant not found`;
 *   nothing is queued then;
 * - sending checks the preference again (turned off since: skipped, nothing sent), sends to the
 *   decrypted address in the enterprise's name and the participant's language, with a one-click
 *   unsubscribe for the mail's type (none on a notice); a 5xx fails for good, anything else is
 *   retried and fails on the last attempt; a mail no longer queued is not sent again;
 * - a sandbox enterprise's mail is captured (its text encrypted) and never reaches the mailer; a
 *   recipient that is not one plain address fails there too (`EADDRESS`).
 */
import { GroupErrors } from '../../src/groups/groups.errors';
import type { EmailType } from '../../src/interact/interact.errors';
import { EmailSender } from '../../src/interact/sending/email-sender';
import { EmailSendingRepository } from '../../src/interact/sending/email-sending.repository';
import type { Mailer, OutgoingMail } from '../../src/interact/sending/mailer';
import { InteractRepository } from '../../src/interact/interact.repository';
import { ParticipantErrors } from '../../src/participants/participants.errors';
import { eventually } from '../support/webhook-receiver';
import { noticeDetailsOf } from './participant-fixtures';
import { newExternalId, TestDatabase } from './support';
import { apiErrorOf, type Services, servicesOn, testConfig } from './tenant-fixtures';

const WINDOW_MS = 3_600_000;
const EMAIL_TYPES: EmailType[] = ['checkinReminder', 'privacyRequest'];

/** SMTP's stand-in: keeps each mail it is handed, or throws `failure` (nodemailer's shape). */
class RecordingMailer {
  readonly sent: OutgoingMail[] = [];
  failure: Error | null = null;
  /** Runs while a mail is being sent (before SMTP has it). */
  during: (() => Promise<void>) | null = null;

  async send(mail: OutgoingMail): Promise<void> {
    if (this.during) await this.during();
    if (this.failure) throw this.failure;
    this.sent.push(mail);
  }
}

const smtpError = (responseCode: number) =>
  Object.assign(new Error(`${responseCode} <ana@example.com>: refused`), {
    responseCode,
    code: 'EENVELOPE',
  });

describe('Email requests and sending (PostgreSQL)', () => {
  let t: TestDatabase;
  let s: Services;
  let acme: string;
  let globex: string;

  beforeAll(async () => {
    t = await TestDatabase.create();
    s = servicesOn(t);
    expect(s.config.email.dedupWindowMs).toBe(WINDOW_MS);
    acme = await t.enterprise('Acme');
    globex = await t.enterprise('Globex');
  });
  afterAll(() => t.close());

  let emails = 0;
  /**
   * A member of `groupId` (a new participant unless `participantId`), joined `joinedAgoMs` ago,
   * with their email encrypted as the service stores it.
   */
  const member = async (
    groupId: number,
    options: {
      enterpriseId?: string;
      participantId?: string;
      prefCheckinReminder?: boolean;
      prefPrivacyRequest?: boolean;
      joinedAgoMs?: number;
      email?: string;
    } = {},
  ): Promise<{ participantId: string; externalId: string; email: string }> => {
    const email = options.email ?? `member${++emails}@example.com`;
    const participantId =
      options.participantId ??
      (await t.participant(options.enterpriseId ?? acme, {
        prefCheckinReminder: options.prefCheckinReminder,
        prefPrivacyRequest: options.prefPrivacyRequest,
        emailCiphertext: s.cipher.encrypt(email),
      }));
    await t.membership(participantId, groupId);
    await t.rows(
      `UPDATE memberships SET join_date = now() - $3 * interval '1 millisecond'
        WHERE participant_id = $1 AND group_id = $2`,
      [participantId, groupId, options.joinedAgoMs ?? 0],
    );
    const { externalId } = await t.one<{ externalId: string }>(
      'SELECT external_id AS "externalId" FROM participants WHERE id = $1',
      [participantId],
    );
    return { participantId, externalId, email };
  };
  const mailsOf = (participantId: string) =>
    t.rows<{
      id: string;
      groupId: number;
      type: string;
      status: string;
      attempts: number;
      error: string | null;
      details: unknown;
    }>(
      `SELECT id, group_id AS "groupId", type, status, attempts, error, details
         FROM email_messages WHERE participant_id = $1 ORDER BY created_at, id`,
      [participantId],
    );
  const queued = (groupId: number, type: string) => ({
    id: expect.any(String) as unknown,
    groupId,
    type,
    status: 'queued',
    attempts: 0,
    error: null,
    details: null,
  });
  /** Moves a participant's mails back in time by `agoMs` (the dedup window's clock). */
  const age = (participantId: string, agoMs: number) =>
    t.rows(
      `UPDATE email_messages SET created_at = now() - $2 * interval '1 millisecond'
        WHERE participant_id = $1`,
      [participantId, agoMs],
    );
  const allMails = async () =>
    (await t.one<{ n: number }>('SELECT count(*)::int AS n FROM email_messages')).n;

  describe('a group mail', () => {
    it.each(EMAIL_TYPES)(
      '%s: one queued row per member whose preference for it is on, and the count',
      async (type) => {
        const groupId = await t.group(acme);
        const bothOn = await member(groupId);
        const reminderOff = await member(groupId, { prefCheckinReminder: false });
        const requestOff = await member(groupId, { prefPrivacyRequest: false });
        const bothOff = await member(groupId, {
          prefCheckinReminder: false,
          prefPrivacyRequest: false,
        });
        const elsewhere = await member(await t.group(acme));

        expect(await s.interact.emailGroup(acme, groupId, type)).toBe(2);
        const receives = type === 'checkinReminder' ? requestOff : reminderOff;
        for (const person of [bothOn, receives]) {
          expect(await mailsOf(person.participantId)).toEqual([queued(groupId, type)]);
        }
        for (const person of [type === 'checkinReminder' ? reminderOff : requestOff, bothOff]) {
          expect(await mailsOf(person.participantId)).toEqual([]);
        }
        expect(await mailsOf(elsewhere.participantId)).toEqual([]);
      },
    );

    it('answers 0 for a group without members', async () => {
      expect(await s.interact.emailGroup(acme, await t.group(acme), 'checkinReminder')).toBe(0);
    });

    it("refuses an unknown group and another enterprise's, queuing nothing", async () => {
      const foreign = await t.group(globex);
      await member(foreign, { enterpriseId: globex });
      const before = await allMails();
      expect(await apiErrorOf(s.interact.emailGroup(acme, foreign, 'checkinReminder'))).toEqual({
        status: 400,
        error: GroupErrors.NotAssociated,
      });
      expect(await apiErrorOf(s.interact.emailGroup(acme, 987_654_321, 'privacyRequest'))).toEqual({
        status: 400,
        error: GroupErrors.NotFound,
      });
      expect(await allMails()).toBe(before);
    });
  });

  describe('a participant mail', () => {
    it('is about their most recently joined group', async () => {
      const [older, newer] = [await t.group(acme), await t.group(acme)];
      const person = await member(newer, { joinedAgoMs: 60_000 });
      await member(older, { participantId: person.participantId, joinedAgoMs: 120_000 });
      expect(await s.interact.emailParticipant(acme, person.externalId, 'privacyRequest')).toBe(1);
      expect(await mailsOf(person.participantId)).toEqual([queued(newer, 'privacyRequest')]);
    });

    it.each(EMAIL_TYPES)('%s: 0 when their preference for it is off', async (type) => {
      const person = await member(await t.group(acme), {
        prefCheckinReminder: type !== 'checkinReminder',
        prefPrivacyRequest: type !== 'privacyRequest',
      });
      expect(await s.interact.emailParticipant(acme, person.externalId, type)).toBe(0);
      expect(await mailsOf(person.participantId)).toEqual([]);
    });

    it('0 when they are in no group', async () => {
      const participantId = await t.participant(acme);
      const { externalId } = await t.one<{ externalId: string }>(
        'SELECT external_id AS "externalId" FROM participants WHERE id = $1',
        [participantId],
      );
      expect(await s.interact.emailParticipant(acme, externalId, 'checkinReminder')).toBe(0);
      expect(await mailsOf(participantId)).toEqual([]);
    });

    it("refuses an unknown, malformed or another enterprise's participant, queuing nothing", async () => {
      const foreign = await member(await t.group(globex), { enterpriseId: globex });
      const before = await allMails();
      for (const externalId of [
        foreign.externalId,
        newExternalId(),
        'ok_123',
        `${foreign.externalId}\u0000`,
        foreign.externalId.toUpperCase(),
        '',
      ]) {
        expect({
          externalId,
          answer: await apiErrorOf(s.interact.emailParticipant(acme, externalId, 'privacyRequest')),
        }).toEqual({ externalId, answer: { status: 400, error: ParticipantErrors.NotFound } });
      }
      expect(await allMails()).toBe(before);
    });
  });

  describe('the dedup window', () => {
    it.each([
      ['queued', 0],
      ['sent', 0],
      ['failed', 1],
      ['skipped', 1],
    ] as const)('an earlier mail of the type %s within it: %i queued', async (status, count) => {
      const groupId = await t.group(acme);
      const person = await member(groupId);
      await t.email(person.participantId, groupId, { status, createdAgoMs: WINDOW_MS - 60_000 });
      expect(await s.interact.emailGroup(acme, groupId, 'checkinReminder')).toBe(count);
      expect(await s.interact.emailParticipant(acme, person.externalId, 'checkinReminder')).toBe(0);
    });

    it('holds to the second: an hour less a second blocks, an hour and a second does not', async () => {
      const groupId = await t.group(acme);
      const person = await member(groupId);
      await t.email(person.participantId, groupId, {
        status: 'sent',
        createdAgoMs: WINDOW_MS - 1_000,
      });
      expect(await s.interact.emailGroup(acme, groupId, 'checkinReminder')).toBe(0);
      expect(await s.interact.emailParticipant(acme, person.externalId, 'checkinReminder')).toBe(0);
      await age(person.participantId, WINDOW_MS + 1_000);
      expect(await s.interact.emailGroup(acme, groupId, 'checkinReminder')).toBe(1);
      // The one just queued now blocks the next request in turn.
      expect(await s.interact.emailParticipant(acme, person.externalId, 'checkinReminder')).toBe(0);
      expect((await mailsOf(person.participantId)).map((mail) => mail.status)).toEqual([
        'sent',
        'queued',
      ]);
    });

    it('is per participant and type, whatever the group', async () => {
      const [first, second] = [await t.group(acme), await t.group(acme)];
      const person = await member(first);
      await member(second, { participantId: person.participantId });
      const newcomer = await member(second);
      expect(await s.interact.emailGroup(acme, first, 'checkinReminder')).toBe(1);
      // Another group: the same type waits; the other type and the newcomer do not.
      expect(await s.interact.emailGroup(acme, second, 'checkinReminder')).toBe(1);
      expect(await s.interact.emailGroup(acme, second, 'privacyRequest')).toBe(2);
      expect(await mailsOf(person.participantId)).toEqual([
        queued(first, 'checkinReminder'),
        queued(second, 'privacyRequest'),
      ]);
      expect(await mailsOf(newcomer.participantId)).toEqual([
        queued(second, 'checkinReminder'),
        queued(second, 'privacyRequest'),
      ]);
    });

    it('is EMAIL_DEDUP_WINDOW as configured', async () => {
      const shortWindow = servicesOn(t, { config: testConfig(t, { EMAIL_DEDUP_WINDOW: '10m' }) });
      const groupId = await t.group(acme);
      const person = await member(groupId);
      await t.email(person.participantId, groupId, { status: 'sent', createdAgoMs: 9 * 60_000 });
      expect(await shortWindow.interact.emailGroup(acme, groupId, 'checkinReminder')).toBe(0);
      await age(person.participantId, 11 * 60_000);
      expect(await shortWindow.interact.emailGroup(acme, groupId, 'checkinReminder')).toBe(1);
    });
  });

  describe('the notice of a raised privacy level', () => {
    const raise = (
      person: { participantId: string; externalId: string },
      groupId: number,
      level: number,
    ) =>
      s.choices.setPrivacyLevel(
        {
          enterpriseId: acme,
          participantId: person.participantId,
          groupId,
          externalId: person.externalId,
        },
        level,
        'settings',
      );
    const notice = (groupId: number, ...raises: [number, number][]) => ({
      ...queued(groupId, 'privacyNotice'),
      details: noticeDetailsOf(...raises),
    });
    /** When the participant's queued notices may be sent (null: at once), oldest first. */
    const sendAfterOf = async (participantId: string) =>
      (
        await t.rows<{ sendAfter: Date | null }>(
          `SELECT send_after AS "sendAfter" FROM email_messages
            WHERE participant_id = $1 AND status = 'queued' ORDER BY created_at`,
          [participantId],
        )
      ).map((row) => row.sendAfter);
    /** As if the participant's notices had been sent `agoMs` ago. */
    const sentAgo = (participantId: string, agoMs: number) =>
      t.rows(
        `UPDATE email_messages SET status = 'sent', attempts = 1,
                sent_at = now() - $2 * interval '1 millisecond'
          WHERE participant_id = $1 AND status = 'queued'`,
        [participantId, agoMs],
      );
    let repository: EmailSendingRepository;
    let mailer: RecordingMailer;
    let sender: EmailSender;
    beforeAll(() => {
      repository = new EmailSendingRepository(t.db);
    });
    beforeEach(() => {
      mailer = new RecordingMailer();
      sender = new EmailSender(
        repository,
        mailer as unknown as Mailer,
        s.cipher,
        s.links,
        s.config,
      );
    });

    it('is queued whatever the preferences; a raise while one is queued joins it, in order; each group has its own', async () => {
      const [first, second] = [await t.group(acme), await t.group(acme)];
      const person = await member(first, { prefCheckinReminder: false, prefPrivacyRequest: false });
      await member(second, { participantId: person.participantId });
      await raise(person, first, 2);
      await raise(person, first, 4);
      await raise(person, first, 1); // a lowering: no notice
      await raise(person, first, 3);
      await raise(person, second, 5);
      expect(await mailsOf(person.participantId)).toEqual([
        notice(first, [0, 2], [2, 4], [1, 3]),
        notice(second, [0, 5]),
      ]);
      expect(await sendAfterOf(person.participantId)).toEqual([null, null]);
      // Requests for the types the participant turned off still queue nothing.
      expect(await s.interact.emailGroup(acme, first, 'checkinReminder')).toBe(0);
    });

    it('after a notice was sent, the raises made within the window wait for its end, in one notice; after the window a raise goes at once', async () => {
      const groupId = await t.group(acme, { name: 'Night shift' });
      const person = await member(groupId);
      await raise(person, groupId, 1);
      await sentAgo(person.participantId, 10 * 60_000);
      // The red team's second browser: 1 → 5 ten minutes later is not silenced…
      await raise(person, groupId, 5);
      await raise(person, groupId, 2);
      await raise(person, groupId, 4);
      const [, waiting] = await mailsOf(person.participantId);
      expect(waiting).toEqual(notice(groupId, [1, 5], [2, 4]));
      // …it waits for the end of the hour that began when the first notice was sent.
      const [sendAfter] = await sendAfterOf(person.participantId);
      const { sentAt } = await t.one<{ sentAt: Date }>(
        `SELECT sent_at AS "sentAt" FROM email_messages WHERE participant_id = $1 AND status = 'sent'`,
        [person.participantId],
      );
      expect(sendAfter!.getTime()).toBe(sentAt.getTime() + WINDOW_MS);
      expect(await repository.queued(1_000)).not.toContain(waiting.id);

      // At the window's end it is due, and one mail lists both raises.
      await t.rows(
        `UPDATE email_messages SET send_after = now() - interval '1 second' WHERE id = $1`,
        [waiting.id],
      );
      expect(await repository.queued(1_000)).toContain(waiting.id);
      expect(await sender.send(waiting.id, false)).toEqual({ outcome: 'sent', reason: null });
      expect(mailer.sent).toHaveLength(1);
      expect(mailer.sent[0].text).toContain('was raised 2 times:');
      expect(mailer.sent[0].text).toContain('1. From level 1 to level 5');
      expect(mailer.sent[0].text).toContain('2. From level 2 to level 4');

      // A window after that mail, a raise goes at once again.
      await t.rows(
        `UPDATE email_messages SET sent_at = sent_at - $2 * interval '1 millisecond'
          WHERE participant_id = $1`,
        [person.participantId, WINDOW_MS],
      );
      await raise(person, groupId, 5);
      expect((await mailsOf(person.participantId)).at(-1)).toEqual(notice(groupId, [4, 5]));
      expect(await sendAfterOf(person.participantId)).toEqual([null]);
    });

    it('a raise made while its notice is being sent is not lost: it goes in the next notice, at the window’s end', async () => {
      const groupId = await t.group(acme, { name: 'Night shift' });
      const person = await member(groupId);
      await raise(person, groupId, 1);
      const [first] = await mailsOf(person.participantId);
      // The raise commits after the worker read the notice, before it records it sent.
      mailer.during = () => raise(person, groupId, 5).then(() => undefined);
      expect(await sender.send(first.id, false)).toEqual({ outcome: 'sent', reason: null });
      expect(mailer.sent[0].text).toContain('was raised from level 0 to level 1.');
      expect(mailer.sent[0].text).not.toContain('level 5');
      expect(await mailsOf(person.participantId)).toEqual([
        { ...notice(groupId, [0, 1]), status: 'sent', attempts: 1 },
        notice(groupId, [1, 5]),
      ]);
      const [sendAfter] = await sendAfterOf(person.participantId);
      expect(sendAfter!.getTime()).toBeGreaterThan(Date.now() + WINDOW_MS - 60_000);
    });

    it('two raises at the same moment: neither is lost, both are in one notice', async () => {
      const groupId = await t.group(acme);
      const person = await member(groupId);
      const notices = new InteractRepository(t.db);
      const change = (from: number, to: number) => ({
        enterpriseId: acme,
        participantId: person.participantId,
        groupId,
        from,
        to,
      });
      // The first raise's transaction stays open while the second one starts.
      let commitFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => (commitFirst = resolve));
      let firstQueued!: () => void;
      const firstIsQueued = new Promise<void>((resolve) => (firstQueued = resolve));
      const firstRaise = t.db.transaction(async (sql) => {
        await notices.queuePrivacyNotice(change(0, 1), WINDOW_MS, sql);
        firstQueued();
        await firstMayCommit;
      });
      await firstIsQueued;
      const secondRaise = t.db.transaction((sql) =>
        notices.queuePrivacyNotice(change(1, 5), WINDOW_MS, sql),
      );
      // The second waits for the first's lock on the participant's notices in the group.
      await eventually(async () => {
        const waiting = await t.rows(
          `SELECT 1 FROM pg_locks
            WHERE locktype = 'advisory' AND NOT granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        expect(waiting).toHaveLength(1);
      });
      commitFirst();
      await Promise.all([firstRaise, secondRaise]);
      expect(await mailsOf(person.participantId)).toEqual([notice(groupId, [0, 1], [1, 5])]);
    });
  });

  describe('sending (the email worker)', () => {
    let mailer: RecordingMailer;
    let sender: EmailSender;
    let repository: EmailSendingRepository;

    beforeAll(() => {
      repository = new EmailSendingRepository(t.db);
    });
    beforeEach(() => {
      mailer = new RecordingMailer();
      sender = new EmailSender(
        repository,
        mailer as unknown as Mailer,
        s.cipher,
        s.links,
        s.config,
      );
    });

    /** A member of a new group of `enterpriseId` with one queued mail of `type`; answers its id. */
    const queuedMail = async (
      type: EmailType | 'privacyNotice',
      options: { enterpriseId?: string; email?: string; language?: string } = {},
    ) => {
      const enterpriseId = options.enterpriseId ?? acme;
      const groupId = await t.group(enterpriseId, { name: 'Night shift' });
      const person = await member(groupId, { enterpriseId, email: options.email });
      if (options.language)
        await s.participants.setLanguage(person.participantId, options.language);
      if (type === 'privacyNotice') {
        await s.choices.setPrivacyLevel(
          {
            enterpriseId,
            participantId: person.participantId,
            groupId,
            externalId: person.externalId,
          },
          3,
          'settings',
        );
      } else {
        expect(await s.interact.emailGroup(enterpriseId, groupId, type)).toBe(1);
      }
      const [mail] = await mailsOf(person.participantId);
      return { ...person, groupId, messageId: mail.id };
    };
    const mailRow = (id: string) =>
      t.one<{ status: string; attempts: number; error: string | null; sent: boolean }>(
        `SELECT status, attempts, error, sent_at IS NOT NULL AS sent FROM email_messages
          WHERE id = $1`,
        [id],
      );
    const unsubscribeTarget = (mail: OutgoingMail) => {
      const url = /^<(.+)>$/.exec(mail.headers['List-Unsubscribe'])?.[1] ?? '';
      return s.links.unsubscribeTargetOf(new URL(url).searchParams.get('token'));
    };

    it.each([
      ['checkinReminder', 'Time for your check-in with Night shift'],
      ['privacyRequest', 'Acme asks you to review your privacy settings'],
    ] as const)(
      '%s: to the decrypted address, in the enterprise’s name, with its one-click unsubscribe',
      async (type, subject) => {
        const mail = await queuedMail(type);
        expect(await sender.send(mail.messageId, false)).toEqual({ outcome: 'sent', reason: null });
        expect(mailer.sent).toHaveLength(1);
        const [sent] = mailer.sent;
        expect(sent).toMatchObject({
          id: mail.messageId,
          to: mail.email,
          fromName: 'Acme',
          subject,
        });
        expect(sent.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
        expect(unsubscribeTarget(sent)).toEqual({
          participantId: mail.participantId,
          emailType: type,
          membership: { groupId: mail.groupId, linkVersion: 0 },
        });
        expect(sent.text).toContain(`${s.config.publicBaseUrl}/participant/settings?token=`);
        expect(await mailRow(mail.messageId)).toEqual({
          status: 'sent',
          attempts: 1,
          error: null,
          sent: true,
        });
      },
    );

    it('the notice of a raise: no unsubscribe, sent whatever the preferences', async () => {
      const mail = await queuedMail('privacyNotice');
      await t.rows(
        'UPDATE participants SET pref_checkin_reminder = false, pref_privacy_request = false WHERE id = $1',
        [mail.participantId],
      );
      expect(await sender.send(mail.messageId, false)).toEqual({ outcome: 'sent', reason: null });
      expect(mailer.sent.map(({ subject, headers }) => ({ subject, headers }))).toEqual([
        { subject: 'Your privacy level with Night shift was raised', headers: {} },
      ]);
    });

    it('in the language the participant chose', async () => {
      const mail = await queuedMail('checkinReminder', { language: 'de' });
      await sender.send(mail.messageId, false);
      expect(mailer.sent.map((sent) => sent.subject)).toEqual([
        'Zeit für Ihren Check-in mit Night shift',
      ]);
    });

    it.each(EMAIL_TYPES)(
      '%s turned off since it was queued: skipped, nothing sent',
      async (type) => {
        const mail = await queuedMail(type);
        await s.participants.setEmailPreferences(mail.participantId, {
          checkinReminder: type !== 'checkinReminder',
          privacyRequest: type !== 'privacyRequest',
        });
        expect(await sender.send(mail.messageId, false)).toEqual({
          outcome: 'skipped',
          reason: null,
        });
        expect(mailer.sent).toEqual([]);
        expect(await mailRow(mail.messageId)).toEqual({
          status: 'skipped',
          attempts: 0,
          error: 'preference turned off',
          sent: false,
        });
      },
    );

    it('a mail no longer queued (sent already, or gone) is not sent again', async () => {
      const mail = await queuedMail('checkinReminder');
      await sender.send(mail.messageId, false);
      expect(await sender.send(mail.messageId, false)).toEqual({
        outcome: 'skipped',
        reason: null,
      });
      expect(await sender.send('00000000-0000-4000-8000-000000000000', false)).toEqual({
        outcome: 'skipped',
        reason: null,
      });
      expect(mailer.sent).toHaveLength(1);
      expect(await mailRow(mail.messageId)).toMatchObject({ status: 'sent', attempts: 1 });
    });

    it.each([
      {
        name: 'a 5xx',
        failure: smtpError(550),
        last: false,
        outcome: 'failed',
        reason: 'smtp 550',
      },
      { name: 'a 4xx', failure: smtpError(451), last: false, outcome: 'retry', reason: 'smtp 451' },
      {
        name: 'a 4xx on the last attempt',
        failure: smtpError(451),
        last: true,
        outcome: 'failed',
        reason: 'smtp 451',
      },
      {
        name: 'a connection failure',
        failure: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' }),
        last: false,
        outcome: 'retry',
        reason: 'ECONNECTION',
      },
    ])('$name: $outcome, kept as $reason', async ({ failure, last, outcome, reason }) => {
      const mail = await queuedMail('checkinReminder');
      mailer.failure = failure;
      expect(await sender.send(mail.messageId, last)).toEqual({ outcome, reason });
      // A retry stays queued (the queue tries again); each attempt is counted.
      expect(await mailRow(mail.messageId)).toEqual({
        status: outcome === 'retry' ? 'queued' : 'failed',
        attempts: 1,
        error: reason,
        sent: false,
      });
    });

    describe('a sandbox enterprise', () => {
      let sandbox: string;
      beforeAll(async () => {
        sandbox = await t.enterprise('Sandbox Inc', { sandbox: true });
      });
      const capturedOf = (messageId: string) =>
        t.rows<{ subject: string; textCiphertext: string }>(
          `SELECT subject, text_ciphertext AS "textCiphertext" FROM sandbox_emails
            WHERE email_message_id = $1`,
          [messageId],
        );

      it('captures the mail, its text only encrypted, and never hands it to the mailer', async () => {
        const mail = await queuedMail('privacyRequest', { enterpriseId: sandbox });
        expect(await sender.send(mail.messageId, false)).toEqual({ outcome: 'sent', reason: null });
        expect(mailer.sent).toEqual([]);
        const [captured] = await capturedOf(mail.messageId);
        expect(captured.subject).toBe('Sandbox Inc asks you to review your privacy settings');
        const text = s.cipher.decrypt(captured.textCiphertext);
        expect(text).toContain('Night shift');
        expect(captured.textCiphertext).not.toContain('Night shift');
        expect(await mailRow(mail.messageId)).toMatchObject({ status: 'sent', attempts: 1 });
      });

      it('a recipient that is not one plain address fails as EADDRESS, nothing captured', async () => {
        const mail = await queuedMail('checkinReminder', {
          enterpriseId: sandbox,
          email: 'ana@example.com, boss@example.com',
        });
        expect(await sender.send(mail.messageId, false)).toEqual({
          outcome: 'failed',
          reason: 'EADDRESS',
        });
        expect(await capturedOf(mail.messageId)).toEqual([]);
        expect(await mailRow(mail.messageId)).toMatchObject({
          status: 'failed',
          error: 'EADDRESS',
        });
      });
    });
  });
});

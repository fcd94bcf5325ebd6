import type { ParsedMail } from 'mailparser';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PiiCipher } from '../src/common/crypto/pii-cipher';
import { translator } from '../src/common/i18n/catalogue';
import { GroupErrors } from '../src/groups/groups.errors';
import { InteractErrors } from '../src/interact/interact.errors';
import { ParticipantErrors } from '../src/participants/participants.errors';
import { match } from './support/matchers';
import { strandJob } from './support/queues';
import { SmtpSink } from './support/smtp-sink';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';
import { eventually, sleep } from './support/webhook-receiver';

describe('Emails', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      // The default. Tests that need a second mail of a type take the first out of the window
      // (pastDedupWindow) rather than wait for it.
      EMAIL_DEDUP_WINDOW: '1h',
      CHECKIN_REMINDER_URL: 'https://app.example.com/checkin',
    });
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const member = async (group: TestGroup, email = `m${++n}@example.com`) =>
    ((await t.createSession(acme, group, email)).body as SessionCreated).userIdentifier;
  const emailGroup = (group: TestGroup | number, body: unknown, apiKey = acme.apiKey) =>
    t.request(
      'POST',
      `/interact/groups/${typeof group === 'number' ? group : group.groupID}/email`,
      {
        apiKey,
        body,
      },
    );
  /** How many messages were ever queued for a participant (the worker sends exactly these). */
  const messagesTo = async (externalId: string) =>
    (
      await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM email_messages e JOIN participants p ON p.id = e.participant_id
          WHERE p.external_id = $1`,
        [externalId],
      )
    ).rows[0].n;
  /**
   * Takes a participant's earlier mails of `type` out of the de-duplication window, as its passing
   * would: the window is measured on PostgreSQL's clock back from each message's created_at, so
   * their created_at moves back by EMAIL_DEDUP_WINDOW. Once they are sent: the sweeper reads the
   * age of a queued one.
   */
  const pastDedupWindow = async (externalId: string, type: string) => {
    const theirs = `participant_id = (SELECT id FROM participants WHERE external_id = $1)
                    AND type = $2`;
    await eventually(async () => {
      const queued = await t.db.query(
        `SELECT id FROM email_messages WHERE ${theirs} AND status = 'queued'`,
        [externalId, type],
      );
      expect(queued.rows).toEqual([]);
    });
    const moved = await t.db.query(
      `UPDATE email_messages SET created_at = created_at - $3 * interval '1 millisecond'
        WHERE ${theirs}`,
      [externalId, type, t.config.email.dedupWindowMs],
    );
    expect(moved.rowCount).toBeGreaterThan(0);
  };
  const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));
  /** Waits until `count` mails reached `address` (up to 10 s), and says so. */
  const mailsArrive = async (address: string, count: number) => {
    const deadline = Date.now() + 10_000;
    while (mailsTo(address).length < count && Date.now() < deadline) await sleep(50);
    expect(mailsTo(address)).toHaveLength(count);
  };
  /** A raw header value (mailparser folds List-* headers into a structure). */
  const header = (mail: ParsedMail, name: string) => {
    const line = mail.headerLines.find((candidate) => candidate.key === name)?.line ?? '';
    return line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n\s+/g, ' ')
      .trim();
  };

  it('uses the spec strings byte for byte, in the spec order', async () => {
    const group = await t.newGroup(acme, 'Errors');
    const theirs = await t.newGroup(globex, 'Theirs');
    const cases: [string, unknown, string][] = [
      ['/interact/groups//email', { emailType: 'checkinReminder' }, GroupErrors.GroupIdMissing],
      ['/interact/groups/x/email', {}, GroupErrors.GroupIdNotNumber],
      [`/interact/groups/${group.groupID}/email`, {}, InteractErrors.EmailTypeMissing],
      [
        `/interact/groups/${group.groupID}/email`,
        { emailType: 'newsletter' },
        InteractErrors.EmailTypeInvalid,
      ],
      ['/interact/groups/999999/email', { emailType: 'checkinReminder' }, GroupErrors.NotFound],
      [
        `/interact/groups/${theirs.groupID}/email`,
        { emailType: 'checkinReminder' },
        GroupErrors.NotAssociated,
      ],
      [
        '/interact/participants//email',
        { emailType: 'checkinReminder' },
        ParticipantErrors.ExternalIdMissing,
      ],
      [`/interact/participants/ok_${'3'.repeat(48)}/email`, {}, InteractErrors.EmailTypeMissing],
      [
        `/interact/participants/ok_${'3'.repeat(48)}/email`,
        { emailType: 'checkinReminder' },
        ParticipantErrors.NotFound,
      ],
    ];
    for (const [path, body, message] of cases) {
      const response = await t.request('POST', path, { apiKey: acme.apiKey, body });
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 400,
        body: { error: message },
      });
    }
    expect(InteractErrors.EmailTypeInvalid).toBe(
      "Invalid email type. Should be one of ['checkinReminder', 'privacyRequest'].",
    );
  });

  it('a group mail reaches exactly the members whose preference is on, with text, HTML and one-click unsubscribe', async () => {
    const group = await t.newGroup(acme, 'Night <shift>');
    const on1 = `on1.${n}@example.com`;
    const on2 = `on2.${n}@example.com`;
    const off = `off.${n}@example.com`;
    await member(group, on1);
    await member(group, on2);
    const offId = await member(group, off);
    await t.db.query(
      'UPDATE participants SET pref_checkin_reminder = false WHERE external_id = $1',
      [offId],
    );
    const response = await emailGroup(group, { emailType: 'checkinReminder' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'success' });
    const deadline = Date.now() + 10_000;
    while ((mailsTo(on1).length === 0 || mailsTo(on2).length === 0) && Date.now() < deadline)
      await sleep(50);
    expect(mailsTo(on1)).toHaveLength(1);
    expect(mailsTo(on2)).toHaveLength(1);
    const mail = mailsTo(on1)[0].parsed;
    expect(mail.subject).toBe('Time for your check-in with Night <shift>');
    // Sent in the enterprise's name, from EMAIL_FROM's address; it says why it was sent.
    expect(mail.from?.value).toEqual([{ name: 'Acme', address: 'no-reply@checkin.local' }]);
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr">/);
    expect(mail.text).toContain(
      'You receive this email because Acme invited you to check-ins with Night <shift> and your check-in reminders are on.',
    );
    expect(mail.text).toContain('https://app.example.com/checkin');
    expect(mail.html).toContain('Night &lt;shift&gt;');
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(header(mail, 'list-unsubscribe')).toMatch(
      /^<http:\/\/127\.0\.0\.1\/participant\/unsubscribe\?token=[^>]+>$/,
    );
    await eventually(async () => {
      const logged = await t.db.query(
        `SELECT status, count(*)::int AS n FROM email_messages WHERE group_id = $1 GROUP BY status`,
        [group.groupID],
      );
      expect(logged.rows).toEqual([{ status: 'sent', n: 2 }]);
    });
    // Both of the group's two messages are sent: none was queued for the member who opted out.
    expect(mailsTo(off)).toHaveLength(0);
  });

  it('a participant mail reaches only that participant; its settings link opens the settings page', async () => {
    const group = await t.newGroup(acme, 'Privacy review');
    await t.request('POST', `/configure/groups/${group.groupID}/privacy`, {
      apiKey: acme.apiKey,
      body: { requestedPrivacyLevel: ['transcript'] },
    });
    const target = `target.${n}@example.com`;
    const bystander = `bystander.${n}@example.com`;
    const externalId = await member(group, target);
    await member(group, bystander);
    const response = await t.request('POST', `/interact/participants/${externalId}/email`, {
      apiKey: acme.apiKey,
      body: { emailType: 'privacyRequest' },
    });
    expect(response.body).toEqual({ message: 'success' });
    const deadline = Date.now() + 10_000;
    while (mailsTo(target).length === 0 && Date.now() < deadline) await sleep(50);
    const mail = mailsTo(target)[0].parsed;
    expect(mail.subject).toBe('Acme asks you to review your privacy settings');
    expect(mail.from?.value).toEqual([{ name: 'Acme', address: 'no-reply@checkin.local' }]);
    expect(mail.text).toContain(
      'Acme asks you, as a member of Privacy review, to review your privacy settings.',
    );
    expect(mail.text).toContain('They would like to see level 4');
    expect(mail.text).not.toMatch(/rais/i);
    expect(mailsTo(bystander)).toHaveLength(0);
    const settingsLink = /http:\/\/127\.0\.0\.1(\/participant\/settings\?token=[^\s]+)/.exec(
      mail.text ?? '',
    )![1];
    const settings = await t.request('GET', settingsLink);
    expect(settings.status).toBe(200);
    expect(settings.text).toContain('Privacy review');
  });

  it('a language chosen on a page is the participant’s: their mails and their pages elsewhere follow it; Accept-Language is never saved', async () => {
    const group = await t.newGroup(acme, 'Nachtschicht');
    const address = `lang.${n}@example.com`;
    const externalId = await member(group, address);
    const language = async () =>
      (
        await t.db.query<{ language: string | null }>(
          'SELECT language FROM participants WHERE external_id = $1',
          [externalId],
        )
      ).rows[0].language;
    await emailGroup(group, { emailType: 'checkinReminder' });
    await mailsArrive(address, 1);
    const first = mailsTo(address)[0].parsed;
    expect(first.subject).toBe('Time for your check-in with Nachtschicht');
    const settingsPath = /http:\/\/127\.0\.0\.1(\/participant\/settings\?token=[^\s]+)/.exec(
      first.text ?? '',
    )![1];

    // A browser asking for French is answered in French, but that is not the person's choice.
    const french = await t.request('GET', settingsPath, { headers: { 'accept-language': 'fr' } });
    expect(french.text).toMatch(/<html lang="fr"/);
    expect(await language()).toBeNull();

    // Choosing German with the switcher is: another browser (no cookie, asking for French) and
    // the next mail are in German.
    expect((await t.request('GET', `${settingsPath}&lang=de`)).text).toMatch(/<html lang="de"/);
    expect(await language()).toBe('de');
    const elsewhere = await t.request('GET', settingsPath, {
      headers: { 'accept-language': 'fr' },
    });
    expect(elsewhere.text).toMatch(/<html lang="de"/);
    await t.request('POST', `/interact/participants/${externalId}/email`, {
      apiKey: acme.apiKey,
      body: { emailType: 'privacyRequest' },
    });
    await mailsArrive(address, 2);
    const german = mailsTo(address)[1].parsed;
    expect(german.subject).toBe(translator('de')('mailRequestSubject', { enterpriseName: 'Acme' }));
    expect(german.html).toMatch(/^<!doctype html>\n<html lang="de" dir="ltr">/);
    expect(german.text).toContain(translator('de')('mailGreeting'));
    expect(german.from?.value).toEqual([{ name: 'Acme', address: 'no-reply@checkin.local' }]);

    // Arabic mails are right to left.
    await t.request('GET', `${settingsPath}&lang=ar`);
    expect(await language()).toBe('ar');
    await pastDedupWindow(externalId, 'checkinReminder');
    await emailGroup(group, { emailType: 'checkinReminder' });
    await mailsArrive(address, 3);
    expect(mailsTo(address)[2].parsed.html).toMatch(/<html lang="ar" dir="rtl"><body dir="rtl"/);
  });

  it('one-click unsubscribe turns the preference off and stops the next mail', async () => {
    const group = await t.newGroup(acme, 'Unsubscribe');
    const address = `unsub.${n}@example.com`;
    const externalId = await member(group, address);
    await emailGroup(group, { emailType: 'checkinReminder' });
    const deadline = Date.now() + 10_000;
    while (mailsTo(address).length === 0 && Date.now() < deadline) await sleep(50);
    const link = header(mailsTo(address)[0].parsed, 'list-unsubscribe').replace(/^<|>$/g, '');
    const path = link.replace('http://127.0.0.1', '');
    const page = await t.request('GET', path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Stop receiving check-in reminders from Acme?');
    const oneClick = await t.request('POST', path, {
      rawBody: 'List-Unsubscribe=One-Click',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(oneClick.status).toBe(200);
    expect(oneClick.text).toContain('You are unsubscribed');
    expect(oneClick.text).toContain('You will no longer receive check-in reminders from Acme.');
    const stored = await t.db.query<{ pref_checkin_reminder: boolean }>(
      'SELECT pref_checkin_reminder FROM participants WHERE external_id = $1',
      [externalId],
    );
    expect(stored.rows[0].pref_checkin_reminder).toBe(false);
    await pastDedupWindow(externalId, 'checkinReminder');
    await emailGroup(group, { emailType: 'checkinReminder' });
    // The worker sends what a request queued; nothing was queued this time.
    expect(await messagesTo(externalId)).toBe(1);
    expect(mailsTo(address)).toHaveLength(1);
    const forged = await t.request('POST', '/participant/unsubscribe?token=nope', {
      rawBody: 'List-Unsubscribe=One-Click',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(forged.status).toBe(404);
  });

  it('does not send the same type twice to a participant within the window', async () => {
    const group = await t.newGroup(acme, 'Dedup');
    const address = `dedup.${n}@example.com`;
    const externalId = await member(group, address);
    await emailGroup(group, { emailType: 'checkinReminder' });
    await emailGroup(group, { emailType: 'checkinReminder' });
    // One message queued, so the worker sends one mail.
    expect(await messagesTo(externalId)).toBe(1);
    const deadline = Date.now() + 10_000;
    while (mailsTo(address).length === 0 && Date.now() < deadline) await sleep(50);
    expect(mailsTo(address)).toHaveLength(1);
  });

  it('retries a 451 once it clears; does not retry a 550', async () => {
    const group = await t.newGroup(acme, 'SMTP failures');
    const temporary = `temporary.${n}@example.com`;
    const temporaryId = await member(group, temporary);
    smtp.failures.push({ code: 451, message: 'Try again later' });
    await t.request('POST', `/interact/participants/${temporaryId}/email`, {
      apiKey: acme.apiKey,
      body: { emailType: 'checkinReminder' },
    });
    const deadline = Date.now() + 15_000;
    while (mailsTo(temporary).length === 0 && Date.now() < deadline) await sleep(50);
    expect(mailsTo(temporary)).toHaveLength(1);
    // The sink has the mail once SMTP accepted it; the worker records 'sent' just after.
    await eventually(async () => {
      const retried = await t.db.query(
        `SELECT e.status, e.attempts FROM email_messages e JOIN participants p ON p.id = e.participant_id
          WHERE p.external_id = $1`,
        [temporaryId],
      );
      expect(retried.rows).toEqual([{ status: 'sent', attempts: 2 }]);
    });

    const permanentId = await member(group, `permanent.${n}@example.com`);
    const before = smtp.dataAttempts;
    smtp.failures.push({ code: 550, message: 'No such user' });
    await t.request('POST', `/interact/participants/${permanentId}/email`, {
      apiKey: acme.apiKey,
      body: { emailType: 'checkinReminder' },
    });
    // 'failed' is final: once recorded, no further attempt is scheduled.
    await eventually(async () => {
      const failed = await t.db.query(
        `SELECT e.status, e.attempts, e.error FROM email_messages e JOIN participants p ON p.id = e.participant_id
          WHERE p.external_id = $1`,
        [permanentId],
      );
      expect(failed.rows).toEqual([
        { status: 'failed', attempts: 1, error: match.stringContaining('550') },
      ]);
    });
    expect(smtp.dataAttempts - before).toBe(1);
  });

  it('answers a 1 000-member group without waiting for a mail, then delivers to all', async () => {
    const group = await t.newGroup(acme, 'Big');
    // 1 000 members straight into the database (creating them through the API is not the point).
    await t.db.query(
      `WITH p AS (
         INSERT INTO participants (enterprise_id, external_id, email_ciphertext, email_hash)
         SELECT $1, 'ok_' || lpad(to_hex(i), 48, '0'), $3, 'bulk' || i
           FROM generate_series(1, 1000) AS i
         RETURNING id)
       INSERT INTO memberships (participant_id, group_id) SELECT id, $2 FROM p`,
      [acme.enterpriseId, group.groupID, t.app.get(PiiCipher).encrypt('bulk@example.com')],
    );
    // SMTP holds every mail until the answer is in: a request that waited for a mail would never
    // answer (docs/emails.md: a request is recorded, the worker sends).
    const release = smtp.hold();
    const response = await emailGroup(group, { emailType: 'checkinReminder' }).finally(release);
    expect(response.status).toBe(200);
    const before = smtp.mails.filter((mail) => mail.to.includes('bulk@example.com')).length;
    expect(before).toBe(0);
    await eventually(async () => {
      const rows = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM email_messages WHERE group_id = $1 AND status = 'sent'`,
        [group.groupID],
      );
      expect(rows.rows[0].n).toBe(1000);
    }, 120_000);
    expect(smtp.mails.filter((mail) => mail.to.includes('bulk@example.com')).length - before).toBe(
      1000,
    );
  }, 180_000);
});

describe('Emails: a stranded job', () => {
  // Its own app: the sweeper looks for stranded jobs at its first sweep and then every 30 s, so
  // an app that has already swept would make this test wait for the next look.
  let t: TestApp;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    t = await startTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it('sends a mail whose Bull job was stranded (held by Bull but in no list)', async () => {
    const acme = await t.newEnterprise('Acme');
    const group = await t.newGroup(acme, 'Stranded');
    const address = 'stranded@example.com';
    const externalId = ((await t.createSession(acme, group, address)).body as SessionCreated)
      .userIdentifier;
    // As after a Redis crash: the mail's job (its id is the message id) is stranded.
    const messageId = randomUUID();
    await strandJob(t, 'emails', 'send', messageId);
    await t.db.query(
      `INSERT INTO email_messages (id, enterprise_id, participant_id, group_id, type, created_at)
       SELECT $1, p.enterprise_id, p.id, $3, 'checkinReminder', now() - interval '1 minute'
         FROM participants p WHERE p.external_id = $2`,
      [messageId, externalId, group.groupID],
    );
    await smtp.waitFor(1, 45_000);
    expect(smtp.mails.map((mail) => mail.to)).toEqual([[address]]);
  }, 60_000);
});

describe('Emails without SMTP_URL', () => {
  let t: TestApp;
  let mailDir: string;

  beforeAll(async () => {
    mailDir = await mkdtemp(join(tmpdir(), 'checkin-mail-'));
    t = await startTestApp({ MAIL_DIR: mailDir });
  });
  afterAll(async () => {
    await t.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  it('writes each mail as an .eml file under MAIL_DIR', async () => {
    const acme = await t.newEnterprise('Acme');
    const group = await t.newGroup(acme, 'Files');
    const created = (await t.createSession(acme, group, 'file.person@example.com'))
      .body as SessionCreated;
    await t.request('POST', `/interact/participants/${created.userIdentifier}/email`, {
      apiKey: acme.apiKey,
      body: { emailType: 'checkinReminder' },
    });
    let files: string[] = [];
    await eventually(async () => {
      files = (await readdir(mailDir)).filter((file) => file.endsWith('.eml'));
      expect(files).toHaveLength(1);
    }, 10_000);
    const eml = await readFile(join(mailDir, files[0]), 'utf8');
    expect(eml).toContain('To: file.person@example.com');
    expect(eml).toContain('Subject: Time for your check-in with Files');
  });
});

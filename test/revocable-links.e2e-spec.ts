/**
 * Revocable links (docs/security.md), tried as the enterprise would: it holds copies of a
 * participant's emails (forwarded, or read on a shared mailbox) and replays their settings and
 * unsubscribe links after the participant signed them out, withdrew consent or was erased.
 * Real HTTP, PostgreSQL and SMTP; links are taken from the mails the service sent.
 */
import { PageTexts, PAGE_ERRORS, SAVED_MESSAGES } from '../src/pages/pages.messages';
import { LinkTokens } from '../src/participant-links/link-tokens';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import { PageBrowser } from './support/page-browser';
import { SmtpSink } from './support/smtp-sink';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';
import { sleep } from './support/webhook-receiver';

describe('Revocable links', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let acme: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    // No de-duplication window (that is emails.e2e-spec.ts's): a test asks for as many review
    // mails as it needs, without waiting one out.
    t = await startTestApp({ SMTP_URL: smtp.url, EMAIL_DEDUP_WINDOW: '0s' });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const path = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };
  const action = (settings: string, form: string) =>
    settings.replace('/participant/settings?', `/participant/settings/${form}?`);

  /** As `browser`, or as a browser that has never been here. */
  const get = (target: string, browser = new PageBrowser()) => browser.get(`${t.baseUrl}${target}`);
  const post = (target: string, browser = new PageBrowser(), form: Record<string, string> = {}) =>
    browser.post(`${t.baseUrl}${target}`, form);

  /** A participant in each of `groups` (the first session creates them). */
  const participantIn = async (...groups: TestGroup[]) => {
    const email = `links.${++n}@example.com`;
    let identifier = '';
    // The email joins the participant to each group (an external ID reaches only its groups).
    for (const group of groups) {
      const created = (await t.createSession(acme, group, email)).body as SessionCreated;
      identifier = created.userIdentifier;
    }
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM participants WHERE external_id = $1',
      [identifier],
    );
    return { email, externalId: identifier, id: rows[0].id };
  };

  /** Asks for a privacy review mail and answers its settings and unsubscribe links (paths). */
  const mailLinks = async (participant: { email: string; externalId: string }) => {
    // Privacy review mails only: a level increase also sends a notice, which has no unsubscribe.
    const reviews = () =>
      smtp.mails.filter(
        (mail) =>
          mail.to.includes(participant.email) &&
          mail.parsed.headerLines.some((header) => header.key === 'list-unsubscribe'),
      );
    const before = reviews().length;
    const response = await t.request(
      'POST',
      `/interact/participants/${participant.externalId}/email`,
      { apiKey: acme.apiKey, body: { emailType: 'privacyRequest' } },
    );
    expect(response.body).toEqual({ message: 'success' });
    const deadline = Date.now() + 10_000;
    while (reviews().length === before && Date.now() < deadline) await sleep(50);
    const mail = reviews()[before].parsed;
    const settings = /(http:\/\/127\.0\.0\.1\/participant\/settings\?token=\S+)/.exec(
      mail.text ?? '',
    )![1];
    const line = mail.headerLines.find((header) => header.key === 'list-unsubscribe')!.line;
    const unsubscribe = line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n\s+/g, '')
      .trim()
      .replace(/^<|>$/g, '');
    return { settings: path(settings), unsubscribe: path(unsubscribe) };
  };

  const preference = async (id: string) =>
    (
      await t.db.query<{ pref_privacy_request: boolean }>(
        'SELECT pref_privacy_request FROM participants WHERE id = $1',
        [id],
      )
    ).rows[0].pref_privacy_request;
  const level = async (id: string, groupId: number) =>
    (
      await t.db.query<{ privacy_level: number }>(
        'SELECT privacy_level FROM memberships WHERE participant_id = $1 AND group_id = $2',
        [id, groupId],
      )
    ).rows[0].privacy_level;

  /** Every way the enterprise could use a revoked link: all 404, nothing changed. */
  const expectRevoked = async (
    links: { settings: string; unsubscribe?: string },
    who: { id: string; groupId: number },
  ) => {
    const enterprise = new PageBrowser();
    const levelBefore = await level(who.id, who.groupId);
    const preferenceBefore = await preference(who.id);
    const notFound = PAGE_ERRORS['not-found'].title;
    expect(await get(links.settings, enterprise)).toMatchObject({ status: 404 });
    expect((await get(links.settings, enterprise)).html).toContain(notFound);
    for (const form of ['privacy', 'preferences', 'export', 'sign-out', 'consent/withdraw']) {
      const answer = await post(action(links.settings, form), enterprise, { privacyLevel: '5' });
      expect([form, answer.status]).toEqual([form, 404]);
    }
    expect((await get(action(links.settings, 'delete'), enterprise)).status).toBe(404);
    expect((await post(action(links.settings, 'delete'), enterprise)).status).toBe(404);
    if (links.unsubscribe) {
      expect((await get(links.unsubscribe)).status).toBe(404);
      expect((await post(links.unsubscribe)).status).toBe(404);
    }
    expect(await level(who.id, who.groupId)).toBe(levelBefore);
    expect(await preference(who.id)).toBe(preferenceBefore);
  };

  it('"Sign out my links" revokes every earlier settings and unsubscribe link, in every group; this browser moves to a fresh link', async () => {
    const day = await t.newGroup(acme, 'Day shift');
    const night = await t.newGroup(acme, 'Night shift');
    const me = await participantIn(night, day); // mails go to the latest membership: day
    const fromMail = await mailLinks(me);
    const links = t.app.get(ParticipantLinks);
    const nightLink = path(
      links.settingsUrl({ participantId: me.id, groupId: night.groupID, linkVersion: 0 }),
    );
    for (const link of [fromMail.settings, nightLink]) {
      expect((await get(link)).status).toBe(200);
    }
    expect((await get(fromMail.unsubscribe)).status).toBe(200);

    // The participant, in their own browser, signs out from the page the mail opened.
    const mine = new PageBrowser();
    const page = await get(fromMail.settings, mine);
    // A link to a page that confirms first (a GET changes nothing), whose form signs out.
    expect(page.html).toContain(PageTexts.signOutLink);
    const confirm = await get(action(fromMail.settings, 'sign-out'), mine);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain(PageTexts.signOutConfirmButton);
    expect(confirm.html).toContain(`action="${action(fromMail.settings, 'sign-out')}"`);
    const signedOut = await post(action(fromMail.settings, 'sign-out'), mine);
    expect(signedOut.status).toBe(303);
    const fresh = signedOut.location!;
    expect(fresh).toMatch(/^\/participant\/settings\?token=[\w.-]+&saved=signed-out$/);
    expect(fresh).not.toContain(new URL(`http://x${fromMail.settings}`).searchParams.get('token'));
    const freshPage = await get(fresh, mine);
    expect(freshPage.status).toBe(200);
    expect(freshPage.html).toContain(SAVED_MESSAGES['signed-out']);

    // Every earlier link is dead, whichever group it was minted for.
    await expectRevoked(fromMail, { id: me.id, groupId: day.groupID });
    await expectRevoked({ settings: nightLink }, { id: me.id, groupId: night.groupID });

    // The fresh link works in this browser (its binding moved), and is refused in another.
    const freshSettings = fresh.replace('&saved=signed-out', '');
    expect((await post(action(freshSettings, 'privacy'), mine, { privacyLevel: '2' })).status).toBe(
      303,
    );
    expect(await level(me.id, day.groupID)).toBe(2);
    const elsewhere = await post(action(freshSettings, 'privacy'), new PageBrowser(), {
      privacyLevel: '5',
    });
    expect(elsewhere.status).toBe(403);
    expect(await level(me.id, day.groupID)).toBe(2);

    // The next mail carries working links at the new version, which the participant opens in
    // this browser. (A link is its token, and a token names the second it was minted in, its
    // expiry being in seconds: a mail sent in the fresh link's second carries that very link,
    // which this browser holds; one sent later, a link no browser holds yet. Both open here.)
    const next = await mailLinks(me);
    const { rows: versions } = await t.db.query<{ link_version: number }>(
      'SELECT link_version FROM memberships WHERE participant_id = $1 AND group_id = $2',
      [me.id, day.groupID],
    );
    expect(versions[0].link_version).toBeGreaterThan(0);
    const nextToken = new URL(`http://x${next.settings}`).searchParams.get('token')!;
    expect(t.app.get(LinkTokens).verifyClaims('settings', nextToken)).toEqual({
      id: `${me.id}:${day.groupID}`,
      version: versions[0].link_version,
    });
    expect((await get(next.settings, mine)).status).toBe(200);
    expect((await post(next.unsubscribe)).status).toBe(200);
    expect(await preference(me.id)).toBe(false);
  });

  it('withdrawing consent revokes the membership’s earlier links; other groups keep theirs', async () => {
    const consenting = await t.newGroup(acme, 'Consent');
    await t.request('PUT', `/groups/${consenting.groupID}`, {
      apiKey: acme.apiKey,
      body: { consentRequired: 'true' },
    });
    const other = await t.newGroup(acme, 'Other');
    const me = await participantIn(consenting, other);
    await t.db.query(
      'UPDATE memberships SET consented_at = now(), privacy_level = 3 WHERE participant_id = $1 AND group_id = $2',
      [me.id, consenting.groupID],
    );
    const links = t.app.get(ParticipantLinks);
    const settings = path(
      links.settingsUrl({ participantId: me.id, groupId: consenting.groupID, linkVersion: 0 }),
    );
    const otherSettings = path(
      links.settingsUrl({ participantId: me.id, groupId: other.groupID, linkVersion: 0 }),
    );
    const unsubscribe = path(
      links.unsubscribeUrl(
        { participantId: me.id, groupId: consenting.groupID, linkVersion: 0 },
        'privacyRequest',
      ),
    );

    const mine = new PageBrowser();
    const withdrawn = await post(action(settings, 'consent/withdraw'), mine);
    expect(withdrawn.status).toBe(303);
    expect(withdrawn.location).toMatch(/^\/participant\/settings\?token=[\w.-]+&saved=withdrawn$/);
    expect((await get(withdrawn.location!, mine)).html).toContain(SAVED_MESSAGES.withdrawn);
    expect(await level(me.id, consenting.groupID)).toBe(0);

    await expectRevoked({ settings, unsubscribe }, { id: me.id, groupId: consenting.groupID });
    expect((await get(otherSettings)).status).toBe(200);
  });

  it('erasure revokes every link, also against a participant created again with the same email', async () => {
    const group = await t.newGroup(acme, 'Erased');
    const me = await participantIn(group);
    const fromMail = await mailLinks(me);
    expect((await get(fromMail.settings)).status).toBe(200);
    const erased = await t.request('DELETE', `/participants/${me.externalId}`, {
      apiKey: acme.apiKey,
    });
    expect(erased.status).toBe(200);
    // The same person invited again: a new participant, whom the old links do not reach.
    const again = (await t.createSession(acme, group, me.email)).body as SessionCreated;
    expect(again.userIdentifier).not.toBe(me.externalId);
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM participants WHERE external_id = $1',
      [again.userIdentifier],
    );
    await expectRevoked(fromMail, { id: rows[0].id, groupId: group.groupID });
  });

  it('settings and unsubscribe links expire after EMAIL_LINK_TTL_DAYS (14 days at most)', async () => {
    expect(t.config.email.linkTtlHours).toBe(14 * 24);
    const group = await t.newGroup(acme, 'Expiry');
    const me = await participantIn(group);
    const tokens = t.app.get(LinkTokens);
    const fifteenDaysAgo = Date.now() - 15 * 24 * 3600 * 1000;
    const thirteenDaysAgo = Date.now() - 13 * 24 * 3600 * 1000;
    const settings = (at: number) =>
      `/participant/settings?token=${tokens.sign('settings', `${me.id}:${group.groupID}`, at, 0)}`;
    const unsubscribe = (at: number) =>
      `/participant/unsubscribe?token=${tokens.sign(
        'unsubscribe',
        `${me.id}:privacyRequest:${group.groupID}`,
        at,
        0,
      )}`;
    expect((await get(settings(thirteenDaysAgo))).status).toBe(200);
    expect((await get(unsubscribe(thirteenDaysAgo))).status).toBe(200);
    expect((await get(settings(fifteenDaysAgo))).status).toBe(404);
    expect((await get(unsubscribe(fifteenDaysAgo))).status).toBe(404);
  });
});

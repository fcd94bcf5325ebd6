/**
 * The participant pages (DESIGN §8). A participant has no account: a signed, expiring token in
 * the address (ParticipantLinks) names either a session (`/checkin/{token}`, from `redirectUrl`) or a
 * membership (`/participant/settings?token=…`, from emails), and reaches that one membership.
 *
 * The check-in page shows, in order: consent (alone, until given, when the group requires it),
 * the privacy level (with a review notice on top when the requested level exceeds the
 * participant's), email preferences, and the hand-off to the analysis engine. Forms post back
 * (post/redirect/get, 303) and the page confirms with `?saved=…`. `/done` sends the participant to
 * the session's return URL once the result is in, and says "still analysing" until then.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { PiiCipher } from '../../common/crypto/pii-cipher';
import { MAX_PRIVACY_LEVEL } from '../../common/privacy-model';
import { ErasureService } from '../../erasure/erasure.service';
import { MembershipLink, ParticipantLinks } from '../../participant-links/participant-links';
import { normaliseReturnUrl } from '../../sessions/return-url';
import { sessionView } from '../../sessions/session-view';
import { openTranscript } from '../../sessions/transcript-codec';
import { SessionsRepository } from '../../sessions/sessions.repository';
import { ConsentLedgerRepository } from '../../participants/consent-ledger.repository';
import { CheckinPagesRepository, CheckinSession, MemberSettings } from './checkin-pages.repository';
import { PageError } from './page-error';
import { PageForm, parseEmailPreferences, parsePrivacyLevel, parseSavedFlag } from './page-forms';
import {
  CheckinForm,
  checkinDonePath,
  checkinFormPath,
  checkinPath,
  engineHandoffUrl,
  settingsPath,
  SettingsForm,
  withSavedFlag,
} from './page-links';
import { checkinPageModel, consentPending, settingsPageModel } from './page-models';
import { PageRenderer } from './page-renderer';
import { Browser, BrowserBinding, checkinLink, settingsLink } from './browser-binding';
import { PageVia, ParticipantChoices } from '../../privacy/participant-choices';
import { PageTexts } from './pages.messages';

/** The response, with the browser cookie set when this request minted one. */
function withCookie(response: Response, setCookie: string | null): Response {
  if (setCookie) response.headers.append('set-cookie', setCookie);
  return response;
}

/** How often the "still analysing" page reloads itself (a meta refresh; the pages run no script). */
export const PENDING_REFRESH_SECONDS = 5;

@Injectable()
export class CheckinPagesService {
  constructor(
    private readonly repository: CheckinPagesRepository,
    private readonly choices: ParticipantChoices,
    private readonly binding: BrowserBinding,
    private readonly ledger: ConsentLedgerRepository,
    private readonly erasure: ErasureService,
    private readonly sessions: SessionsRepository,
    private readonly cipher: PiiCipher,
    private readonly links: ParticipantLinks,
    private readonly renderer: PageRenderer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // --- /checkin/{token} ---------------------------------------------------------------------

  async checkinPage(token: string, saved: unknown, browser: Browser): Promise<Response> {
    const session = await this.sessionFor(token);
    const binding = await this.binding.state(checkinLink(session.sessionId), browser);
    if (binding === 'elsewhere') throw new PageError(403, 'opened-elsewhere');
    if (binding === 'unbound') {
      return this.renderer.page('start', {
        title: PageTexts.checkinTitle(session.groupName),
        text: session.sandbox
          ? `${PageTexts.startText(session.groupName)} ${PageTexts.sandboxNotice}`
          : PageTexts.startText(session.groupName),
        action: checkinFormPath(token, 'start'),
      });
    }
    const { engineUrl } = this.config.checkin;
    return this.renderer.page(
      'checkin',
      checkinPageModel({
        session,
        token,
        saved: parseSavedFlag(saved),
        // checkinPageModel drops it for a sandbox's check-in (DESIGN §17).
        engineHref: engineUrl ? engineHandoffUrl(engineUrl, session.sessionId) : null,
        developmentCommand: this.config.isProduction
          ? null
          : `npm run cli:dev -- sessions:simulate-result ${session.sessionId}`,
      }),
    );
  }

  /** "Start": binds the check-in to this browser (DESIGN §14), then shows the page. */
  async startCheckin(token: string, browser: Browser): Promise<Response> {
    const session = await this.sessionFor(token);
    const { binding, setCookie } = await this.binding.bind(
      checkinLink(session.sessionId),
      session.participantId,
      browser,
    );
    if (binding === 'elsewhere') throw new PageError(403, 'opened-elsewhere');
    return withCookie(this.renderer.redirect(checkinPath(token), 303), setCookie);
  }

  async giveConsent(token: string, browser: Browser): Promise<Response> {
    const session = await this.boundSessionFor(token, browser);
    this.found((await this.choices.setConsent(session, true, 'checkin')) !== null);
    return this.savedCheckin(token, 'consent');
  }

  async setCheckinPrivacyLevel(token: string, form: PageForm, browser: Browser): Promise<Response> {
    const session = await this.consentedSessionFor(token, browser);
    await this.applyPrivacyLevel(session, form, checkinPath(token), 'checkin');
    return this.savedCheckin(token, 'privacy');
  }

  async setCheckinEmailPreferences(
    token: string,
    form: PageForm,
    browser: Browser,
  ): Promise<Response> {
    const session = await this.consentedSessionFor(token, browser);
    await this.applyEmailPreferences(session, form, 'checkin');
    return this.savedCheckin(token, 'preferences');
  }

  /**
   * 302 to the return URL once the session is completed; until then a "still analysing" page.
   * The stored return URL is read through the rule that accepts it (DESIGN §15): a row written
   * before it was normalised is redirected to its normalised form, and one the rule now refuses
   * (a line break, a reserved address, …) gets a "your check-in is complete" page instead of a
   * redirect — never a 5xx.
   */
  async done(token: string): Promise<Response> {
    const session = await this.sessionFor(token);
    if (!session.completed) {
      return this.renderer.page('pending', {
        title: PageTexts.pendingTitle,
        retryHref: checkinDonePath(token),
        refreshSeconds: PENDING_REFRESH_SECONDS,
      });
    }
    const returnUrl = normaliseReturnUrl(session.returnUrl);
    return returnUrl === null
      ? this.renderer.page('notice', {
          title: PageTexts.completedTitle,
          text: PageTexts.completedText,
        })
      : this.renderer.redirect(returnUrl, 302);
  }

  // --- /participant/settings?token=… --------------------------------------------------------

  async settingsPage(token: unknown, saved: unknown, browser: Browser): Promise<Response> {
    const { member, token: valid } = await this.viewedMemberFor(token, browser);
    const history = await this.ledger.list(member.enterpriseId, member.participantId);
    return this.renderer.page(
      'settings',
      settingsPageModel(member, valid, parseSavedFlag(saved), history),
    );
  }

  async setSettingsPrivacyLevel(
    token: unknown,
    form: PageForm,
    browser: Browser,
  ): Promise<Response> {
    const { member, token: valid, setCookie } = await this.postingMemberFor(token, browser);
    await this.applyPrivacyLevel(member, form, settingsPath(valid), 'settings');
    return withCookie(this.savedSettings(valid, 'privacy'), setCookie);
  }

  async setSettingsEmailPreferences(
    token: unknown,
    form: PageForm,
    browser: Browser,
  ): Promise<Response> {
    const { member, token: valid, setCookie } = await this.postingMemberFor(token, browser);
    await this.applyEmailPreferences(member, form, 'settings');
    return withCookie(this.savedSettings(valid, 'preferences'), setCookie);
  }

  /**
   * Withdraws consent: the level drops to 0 and the next check-in asks again (DESIGN §14), and
   * every earlier link of the membership stops working (§15); this browser moves to a fresh one.
   */
  async withdrawConsent(token: unknown, browser: Browser): Promise<Response> {
    const { member, token: valid, setCookie } = await this.postingMemberFor(token, browser);
    if (member.consentedAt === null) {
      return withCookie(this.savedSettings(valid, 'withdrawn'), setCookie);
    }
    const changed = await this.choices.setConsent(member, false, 'settings');
    if (changed === null) throw PageError.notFound();
    return this.movedToFreshLink(valid, { ...member, ...changed }, 'withdrawn', setCookie);
  }

  /**
   * "Sign out my links" (DESIGN §15): every settings and unsubscribe link the participant was
   * sent (in every group) stops working; this browser moves to a fresh link to this page.
   */
  async signOutLinks(token: unknown, browser: Browser): Promise<Response> {
    const { member, token: valid, setCookie } = await this.postingMemberFor(token, browser);
    const versions = await this.choices.signOutLinks(member.participantId);
    const mine = versions.find((row) => row.groupId === member.groupId);
    if (!mine) throw PageError.notFound();
    return this.movedToFreshLink(valid, { ...member, ...mine }, 'signed-out', setCookie);
  }

  /** "Delete my data": a confirmation page first (GET changes nothing). */
  async confirmDelete(token: unknown, browser: Browser): Promise<Response> {
    const { member, token: valid } = await this.viewedMemberFor(token, browser);
    const data = await this.repository.exportOf(member.participantId);
    const groupNames = (data?.groups ?? []).map((group) => group.name).join(', ');
    return this.renderer.page('confirm-delete', {
      title: PageTexts.deleteTitle,
      text: PageTexts.deleteConfirmText(groupNames),
      action: settingsPath(valid, 'delete'),
      cancelHref: settingsPath(valid),
    });
  }

  /** Erases the participant (DESIGN §14), as the enterprise's DELETE would. */
  async deleteMyData(token: unknown, browser: Browser): Promise<Response> {
    const { member } = await this.postingMemberFor(token, browser);
    this.found(
      await this.erasure.erase(member.externalId, {
        by: 'participant',
        participantId: member.participantId,
      }),
    );
    return this.renderer.page('notice', {
      title: PageTexts.deletedTitle,
      text: PageTexts.deletedText,
    });
  }

  /**
   * "Download my data": everything held about the participant in this enterprise, as a JSON
   * attachment. A POST, so that link scanners and previews never fetch it; the enterprise has
   * no such route (it would bypass the participant's level).
   */
  async exportMyData(token: unknown, browser: Browser): Promise<Response> {
    const { member, setCookie } = await this.postingMemberFor(token, browser);
    const data = await this.repository.exportOf(member.participantId);
    if (!data) throw PageError.notFound();
    const sessions = await this.sessions.listForParticipant(member.participantId);
    const history = await this.ledger.list(member.enterpriseId, member.participantId);
    const file = this.renderer.attachment('my-checkin-data.json', {
      exportedAt: new Date().toISOString(),
      externalID: data.externalId,
      email: this.cipher.decrypt(data.emailCiphertext),
      emailPreferences: {
        checkinReminder: data.checkinReminder,
        privacyRequest: data.privacyRequest,
      },
      groups: data.groups,
      sessions: sessions.map((session) =>
        sessionView({ ...session, privacyLevel: MAX_PRIVACY_LEVEL }, (stored) =>
          openTranscript(this.cipher, stored),
        ),
      ),
      history: history.map((record) => ({ ...record, at: record.at.toISOString() })),
    });
    return withCookie(file, setCookie);
  }

  // --- rules shared by both pages -----------------------------------------------------------

  private async applyPrivacyLevel(
    member: MemberSettings,
    form: PageForm,
    backHref: string,
    via: PageVia,
  ): Promise<void> {
    const level = parsePrivacyLevel(form);
    if (level === null) throw new PageError(400, 'invalid-privacy-level', backHref);
    this.found(await this.choices.setPrivacyLevel(member, level, via));
  }

  private async applyEmailPreferences(
    member: MemberSettings,
    form: PageForm,
    via: PageVia,
  ): Promise<void> {
    const preferences = parseEmailPreferences(form);
    this.found(await this.choices.setEmailPreferences(member, preferences, via));
  }

  private async sessionFor(token: string): Promise<CheckinSession> {
    const sessionId = this.links.sessionOf(token);
    const session = sessionId === null ? null : await this.repository.findSession(sessionId);
    if (!session) throw PageError.notFound();
    return session;
  }

  /** The session of a check-in this browser started; others are refused (DESIGN §14). */
  private async boundSessionFor(token: string, browser: Browser): Promise<CheckinSession> {
    const session = await this.sessionFor(token);
    const binding = await this.binding.state(checkinLink(session.sessionId), browser);
    if (binding === 'unbound') throw new PageError(403, 'start-first', checkinPath(token));
    if (binding === 'elsewhere') throw new PageError(403, 'opened-elsewhere');
    return session;
  }

  /** Until consent is given (where the group requires it), nothing but consent is accepted. */
  private async consentedSessionFor(token: string, browser: Browser): Promise<CheckinSession> {
    const session = await this.boundSessionFor(token, browser);
    if (consentPending(session)) throw new PageError(403, 'consent-first', checkinPath(token));
    return session;
  }

  /** A settings link to show: refused in a browser other than the one it is bound to. */
  private async viewedMemberFor(
    token: unknown,
    browser: Browser,
  ): Promise<{ member: MemberSettings; token: string }> {
    const found = await this.memberFor(token);
    if ((await this.binding.state(settingsLink(found.token), browser)) === 'elsewhere') {
      throw new PageError(403, 'opened-elsewhere');
    }
    return found;
  }

  /** A settings link to act on: binds it to this browser on its first POST (DESIGN §14). */
  private async postingMemberFor(
    token: unknown,
    browser: Browser,
  ): Promise<{ member: MemberSettings; token: string; setCookie: string | null }> {
    const found = await this.memberFor(token);
    const { binding, setCookie } = await this.binding.bind(
      settingsLink(found.token),
      found.member.participantId,
      browser,
    );
    if (binding === 'elsewhere') throw new PageError(403, 'opened-elsewhere');
    return { ...found, setCookie };
  }

  /** The membership a settings link names, while the link's version is the membership's. */
  private async memberFor(token: unknown): Promise<{ member: MemberSettings; token: string }> {
    const link = this.links.membershipOf(token);
    const member = link ? await this.repository.findMember(link.participantId, link.groupId) : null;
    // A link signed before the last sign-out, consent withdrawal (or erasure) is revoked.
    if (!member || member.linkVersion !== link?.linkVersion) throw PageError.notFound();
    return { member, token: token as string };
  }

  /** A change that found no row: the membership went away (its group was deleted) meanwhile. */
  private found(changed: boolean): void {
    if (!changed) throw PageError.notFound();
  }

  private savedCheckin(token: string, form: CheckinForm): Response {
    return this.renderer.redirect(withSavedFlag(checkinPath(token), form), 303);
  }

  /**
   * After a change that revoked the membership's links: the settings page at a fresh link, bound
   * to the browser that held the old one (its binding moves), with the change confirmed.
   */
  private async movedToFreshLink(
    oldToken: string,
    link: MembershipLink,
    saved: SettingsForm,
    setCookie: string | null,
  ): Promise<Response> {
    const fresh = this.links.settingsToken(link);
    await this.binding.move(settingsLink(oldToken), settingsLink(fresh), link.participantId);
    return withCookie(this.savedSettings(fresh, saved), setCookie);
  }

  private savedSettings(token: string, form: SettingsForm): Response {
    return this.renderer.redirect(withSavedFlag(settingsPath(token), form), 303);
  }
}

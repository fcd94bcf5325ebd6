/**
 * The settings page (docs/checkin-flow.md): `/participant/settings?token=…`, reached from every
 * mail. A participant has no account: the signed, expiring token names one membership and
 * reaches only it; the link is bound to the first browser that posts on it (docs/privacy.md).
 * The page shows the privacy level, email preferences, consent, the enterprise's declared
 * programme (what the AI analyses and why), the history of changes, and the ways out: sign out
 * my links, download my data, delete my data. Forms post back (post/redirect/get, 303) and the
 * page confirms with `?saved=…`.
 */
import { Injectable } from '@nestjs/common';
import { PiiCipher } from '../common/crypto/pii-cipher';
import { openSealed } from '../common/crypto/sealed-reads';
import { MAX_PRIVACY_LEVEL } from '../common/privacy-model';
import { ProgrammesService } from '../enterprises/programme/programmes.service';
import { ErasureService } from '../erasure/erasure.service';
import { MembershipLink, ParticipantLinks } from '../participant-links/participant-links';
import { ConsentLedgerRepository } from '../participants/consent-ledger.repository';
import { ParticipantChoices } from '../privacy/participant-choices';
import { sessionView } from '../sessions/session-view';
import { SessionAccess } from '../sessions/session-access';
import { openSessionJson } from '../sessions/transcript-codec';
import { Browser, BrowserBinding, settingsLink } from './browser-binding';
import { CheckinPagesRepository, MemberSettings } from './checkin-pages.repository';
import type { PageLanguage } from './i18n/page-language';
import {
  adoptParticipantLanguage,
  applyEmailPreferences,
  applyPrivacyLevel,
  found,
  withCookie,
} from './page-actions';
import { PageError } from './page-error';
import { PageForm, parseSavedFlag, parseShareEarlier } from './page-forms';
import { settingsPath, SettingsForm, withSavedFlag } from './page-links';
import { settingsPageModel } from './page-models';
import { PageRenderer } from './page-renderer';
import { pageTextsIn } from './pages.messages';

@Injectable()
export class SettingsPagesService {
  constructor(
    private readonly repository: CheckinPagesRepository,
    private readonly choices: ParticipantChoices,
    private readonly binding: BrowserBinding,
    private readonly ledger: ConsentLedgerRepository,
    private readonly erasure: ErasureService,
    private readonly sessions: SessionAccess,
    private readonly cipher: PiiCipher,
    private readonly links: ParticipantLinks,
    private readonly renderer: PageRenderer,
    private readonly programmes: ProgrammesService,
  ) {}

  async settingsPage(
    token: unknown,
    saved: unknown,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const { member, token: valid } = await this.viewedMemberFor(token, browser, language);
    const history = await this.ledger.list(member.enterpriseId, member.participantId);
    const earlier = await this.sessions.countDoneIn(
      member.participantId,
      member.groupId,
      await this.binding.identities(browser),
      null,
    );
    const programme = await this.programmes.find(member.enterpriseId);
    return this.renderer.page(
      'settings',
      settingsPageModel(
        language.locale(),
        member,
        valid,
        parseSavedFlag(saved),
        history,
        earlier,
        programme,
      ),
      language,
    );
  }

  async setSettingsPrivacyLevel(
    token: unknown,
    form: PageForm,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const {
      member,
      token: valid,
      setCookie,
    } = await this.postingMemberFor(token, browser, language);
    await this.applyLevel(member, valid, form, browser);
    return withCookie(this.savedSettings(valid, 'privacy'), setCookie);
  }

  /**
   * The page's one form (docs/accessibility.md): the privacy level and the email preferences
   * together, so that neither choice is lost. The level first (an invalid one changes nothing).
   */
  async setSettingsChoices(
    token: unknown,
    form: PageForm,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const {
      member,
      token: valid,
      setCookie,
    } = await this.postingMemberFor(token, browser, language);
    await this.applyLevel(member, valid, form, browser);
    await applyEmailPreferences(this.choices, member, form, 'settings');
    return withCookie(this.savedSettings(valid, 'choices'), setCookie);
  }

  async setSettingsEmailPreferences(
    token: unknown,
    form: PageForm,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const {
      member,
      token: valid,
      setCookie,
    } = await this.postingMemberFor(token, browser, language);
    await applyEmailPreferences(this.choices, member, form, 'settings');
    return withCookie(this.savedSettings(valid, 'preferences'), setCookie);
  }

  /**
   * Withdraws consent: the level drops to 0 and the next check-in asks again (docs/privacy.md), and
   * every earlier link of the membership stops working (docs/security.md); this browser moves to a fresh one.
   */
  async withdrawConsent(
    token: unknown,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const {
      member,
      token: valid,
      setCookie,
    } = await this.postingMemberFor(token, browser, language);
    if (member.consentedAt === null) {
      return withCookie(this.savedSettings(valid, 'withdrawn'), setCookie);
    }
    const changed = await this.choices.setConsent(member, false, 'settings');
    if (changed === null) throw PageError.notFound();
    return this.movedToFreshLink(valid, { ...member, ...changed }, 'withdrawn', setCookie);
  }

  /**
   * "Sign out my links" (docs/security.md): every settings and unsubscribe link the participant was
   * sent (in every group) stops working; this browser moves to a fresh link to this page.
   */
  async signOutLinks(token: unknown, browser: Browser, language: PageLanguage): Promise<Response> {
    const {
      member,
      token: valid,
      setCookie,
    } = await this.postingMemberFor(token, browser, language);
    const versions = await this.choices.signOutLinks(member.participantId);
    const mine = versions.find((row) => row.groupId === member.groupId);
    if (!mine) throw PageError.notFound();
    return this.movedToFreshLink(valid, { ...member, ...mine }, 'signed-out', setCookie);
  }

  /** "Delete my data…": a confirmation page first (GET changes nothing). */
  async confirmDelete(token: unknown, browser: Browser, language: PageLanguage): Promise<Response> {
    const { member, token: valid } = await this.viewedMemberFor(token, browser, language);
    const data = await this.repository.exportOf(member.participantId);
    const groupNames = (data?.groups ?? []).map((group) => group.name).join(', ');
    const texts = pageTextsIn(language.locale());
    return this.renderer.page(
      'confirm',
      {
        title: texts.deleteTitle,
        text: texts.deleteConfirmText(groupNames),
        action: settingsPath(valid, 'delete'),
        confirmLabel: texts.deleteConfirmButton,
        cancelHref: settingsPath(valid),
        cancelLabel: texts.deleteCancel,
      },
      language,
    );
  }

  /** "Withdraw my consent…": a confirmation page first (GET changes nothing). */
  async confirmWithdrawConsent(
    token: unknown,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const { member, token: valid } = await this.viewedMemberFor(token, browser, language);
    const texts = pageTextsIn(language.locale());
    return this.renderer.page(
      'confirm',
      {
        title: texts.withdrawConfirmTitle,
        text: texts.withdrawText(member.groupName),
        action: settingsPath(valid, 'consent/withdraw'),
        confirmLabel: texts.withdrawConfirmButton,
        cancelHref: settingsPath(valid),
        cancelLabel: texts.withdrawCancel,
      },
      language,
    );
  }

  /** "Sign out my links…": a confirmation page first (GET changes nothing). */
  async confirmSignOut(
    token: unknown,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const { token: valid } = await this.viewedMemberFor(token, browser, language);
    const texts = pageTextsIn(language.locale());
    return this.renderer.page(
      'confirm',
      {
        title: texts.signOutConfirmTitle,
        text: texts.signOutText,
        action: settingsPath(valid, 'sign-out'),
        confirmLabel: texts.signOutConfirmButton,
        cancelHref: settingsPath(valid),
        cancelLabel: texts.signOutCancel,
      },
      language,
    );
  }

  /** Erases the participant (docs/privacy.md), as the enterprise's DELETE would. */
  async deleteMyData(token: unknown, browser: Browser, language: PageLanguage): Promise<Response> {
    const { member } = await this.postingMemberFor(token, browser, language);
    found(
      await this.erasure.erase(member.externalId, {
        by: 'participant',
        participantId: member.participantId,
      }),
    );
    const texts = pageTextsIn(language.locale());
    return this.renderer.page(
      'notice',
      { title: texts.deletedTitle, text: texts.deletedText },
      language,
    );
  }

  /**
   * "Download my data", only in a browser that did one of the participant's check-ins
   * (docs/privacy.md): the account data, the check-ins done in this browser in full, the others
   * by ID and time — a settings link alone (mailed to a work mailbox the employer may control)
   * exports nothing. A JSON attachment; a POST, so that link scanners and previews never fetch
   * it; the enterprise has no such route (it would bypass the participant's level).
   */
  async exportMyData(token: unknown, browser: Browser, language: PageLanguage): Promise<Response> {
    const { member: viewed } = await this.viewedMemberFor(token, browser, language);
    const doneHere = new Set(
      await this.sessions.doneIn(viewed.participantId, await this.binding.identities(browser)),
    );
    if (doneHere.size === 0) throw new PageError(403, 'export-elsewhere');
    const { member, setCookie } = await this.postingMemberFor(token, browser, language);
    const data = await this.repository.exportOf(member.participantId);
    if (!data) throw PageError.notFound();
    const sessions = await this.sessions.listForParticipant(member.participantId);
    const history = await this.ledger.list(member.enterpriseId, member.participantId);
    const file = this.renderer.attachment('my-checkin-data.json', {
      exportedAt: new Date().toISOString(),
      externalID: data.externalId,
      // null when the keys cannot open it (docs/data-at-rest.md, "Data the keys cannot open").
      email: openSealed(this.cipher, 'participants.email_ciphertext', data.emailCiphertext),
      emailPreferences: {
        checkinReminder: data.checkinReminder,
        privacyRequest: data.privacyRequest,
      },
      // The language chosen on these pages (docs/i18n.md); null: never chosen.
      language: data.language,
      groups: data.groups,
      sessions: sessions.map((session) => {
        const full = doneHere.has(session.sessionId);
        const view = sessionView(
          { ...session, privacyLevel: full ? MAX_PRIVACY_LEVEL : 0 },
          (stored, field) => openSessionJson(this.cipher, field, stored),
        );
        // Done in another browser (or never opened in one): which, and when, only.
        return full ? view : { sessionID: view.sessionID, timestamp: view.timestamp };
      }),
      history: history.map((record) => ({ ...record, at: record.at.toISOString() })),
    });
    return withCookie(file, setCookie);
  }

  /** A settings link to show: refused in a browser other than the one it is bound to. */
  private async viewedMemberFor(
    token: unknown,
    browser: Browser,
    language: PageLanguage,
  ): Promise<{ member: MemberSettings; token: string }> {
    const found = await this.memberFor(token, language);
    if ((await this.binding.state(settingsLink(found.token), browser)) === 'elsewhere') {
      throw new PageError(403, 'opened-elsewhere');
    }
    return found;
  }

  /** A settings link to act on: binds it to this browser on its first POST (docs/privacy.md). */
  private async postingMemberFor(
    token: unknown,
    browser: Browser,
    language: PageLanguage,
  ): Promise<{ member: MemberSettings; token: string; setCookie: string[] }> {
    const found = await this.memberFor(token, language);
    const { binding, setCookie } = await this.binding.bind(
      settingsLink(found.token),
      found.member.participantId,
      browser,
    );
    if (binding === 'elsewhere') throw new PageError(403, 'opened-elsewhere');
    return { ...found, setCookie };
  }

  /**
   * The membership a settings link names, while the link's version is the membership's; its
   * participant's saved language joins `language`'s.
   */
  /**
   * The level posted on the settings page. It follows the check-in page's rule: a raise reaches
   * earlier check-ins only when asked, and only those done in this browser (docs/privacy.md).
   */
  private async applyLevel(
    member: MemberSettings,
    token: string,
    form: PageForm,
    browser: Browser,
  ): Promise<void> {
    await applyPrivacyLevel(this.choices, member, form, settingsPath(token), 'settings', {
      madeIn: await this.binding.holderOf(settingsLink(token)),
      shareEarlierFrom: parseShareEarlier(form)
        ? await this.binding.identities(browser)
        : undefined,
    });
  }

  private async memberFor(
    token: unknown,
    language: PageLanguage,
  ): Promise<{ member: MemberSettings; token: string }> {
    const link = this.links.membershipOf(token);
    const member = link ? await this.repository.findMember(link.participantId, link.groupId) : null;
    // A link signed before the last sign-out, consent withdrawal (or erasure) is revoked.
    if (!member || member.linkVersion !== link?.linkVersion) throw PageError.notFound();
    await adoptParticipantLanguage(this.choices, member, language);
    return { member, token: token as string };
  }

  /**
   * After a change that revoked the membership's links: the settings page at a fresh link, bound
   * to the browser that held the old one (its binding moves), with the change confirmed.
   */
  private async movedToFreshLink(
    oldToken: string,
    link: MembershipLink,
    saved: SettingsForm,
    setCookie: string[],
  ): Promise<Response> {
    const fresh = this.links.settingsToken(link);
    await this.binding.move(settingsLink(oldToken), settingsLink(fresh), link.participantId);
    return withCookie(this.savedSettings(fresh, saved), setCookie);
  }

  private savedSettings(token: string, form: SettingsForm): Response {
    return this.renderer.redirect(withSavedFlag(settingsPath(token), form), 303);
  }
}

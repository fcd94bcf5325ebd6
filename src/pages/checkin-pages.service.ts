/**
 * The check-in page (docs/checkin-flow.md): `/checkin/{token}`, the `redirectUrl` of a session. A
 * participant has no account: the signed, expiring token names the session and reaches its one
 * membership; the check-in is bound to the browser that presses Start (docs/privacy.md).
 *
 * The page shows, in order: the AI notice (EU AI Act art. 50(3): what AI infers from, for which
 * declared purpose, before anything that starts the check-in), consent (alone, until given, when
 * the group requires it), the privacy level (with a review notice on top when the requested level
 * exceeds the participant's), email preferences, the hand-off to the analysis engine, and the
 * enterprise's declared programme in full (the start page, before Start: the AI notice, the
 * invitation, who asks, the programme). Forms post back (post/redirect/get, 303) and the page
 * confirms with `?saved=…`. `/done` sends the participant to the session's return URL once the
 * result is in, and says "still analysing" until then. The settings page is
 * settings-pages.service.ts.
 */
import { Inject, Injectable } from '@nestjs/common';
import { sha256Hex } from '../common/crypto/secrets';
import { HANDOFF_TOKEN, newHandoffToken } from '../sessions/handoff-token';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { ProgrammesService } from '../enterprises/programme/programmes.service';
import { ParticipantLinks } from '../participant-links/participant-links';
import { ParticipantChoices } from '../privacy/participant-choices';
import { normaliseReturnUrl } from '../sessions/return-url';
import { SessionAccess } from '../sessions/session-access';
import { MembershipsRepository } from '../participants/memberships.repository';
import { Browser, BrowserBinding, checkinLink } from './browser-binding';
import type { PageLanguage } from './i18n/page-language';
import { CheckinPagesRepository, CheckinSession } from './checkin-pages.repository';
import {
  adoptParticipantLanguage,
  applyEmailPreferences,
  applyPrivacyLevel,
  found,
  withCookie,
} from './page-actions';
import { PageError } from './page-error';
import { PageForm, parsePrivacyLevel, parseSavedFlag, parseShareEarlier } from './page-forms';
import {
  CheckinForm,
  checkinDonePath,
  checkinFormPath,
  checkinPath,
  engineHandoffUrl,
  withSavedFlag,
} from './page-links';
import {
  AboutSettings,
  aboutModel,
  aiNoticeModel,
  checkinPageModel,
  consentPending,
  programmeSection,
  raiseMadeElsewhere,
  whoLine,
} from './page-models';
import { PageRenderer } from './page-renderer';
import { pageTextsIn } from './pages.messages';

@Injectable()
export class CheckinPagesService {
  constructor(
    private readonly repository: CheckinPagesRepository,
    private readonly choices: ParticipantChoices,
    private readonly binding: BrowserBinding,
    private readonly sessions: SessionAccess,
    private readonly memberships: MembershipsRepository,
    private readonly links: ParticipantLinks,
    private readonly renderer: PageRenderer,
    private readonly programmes: ProgrammesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Who runs the service, for the start page and consent (docs/accessibility.md). */
  private get aboutSettings(): AboutSettings {
    return {
      operatorName: this.config.checkin.operatorName,
      privacyNoticeUrl: this.config.checkin.privacyNoticeUrl,
      retentionDays: this.config.retention.transcriptDays,
    };
  }

  // --- /checkin/{token} ---------------------------------------------------------------------

  async checkinPage(
    token: string,
    saved: unknown,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const session = await this.sessionFor(token, language);
    const { binding, identities } = await this.binding.standing(
      checkinLink(session.sessionId),
      browser,
    );
    if (binding === 'elsewhere') throw new PageError(403, 'opened-elsewhere');
    const locale = language.locale();
    // What the AI notice says comes from the enterprise's declaration as it stands now.
    const programme = await this.programmes.find(session.enterpriseId);
    if (binding === 'unbound') {
      const texts = pageTextsIn(locale);
      return this.renderer.page(
        'start',
        {
          title: texts.checkinTitle(session.groupName),
          who: whoLine(locale, session),
          aiNotice: aiNoticeModel(locale, session, programme),
          about: aboutModel(locale, session, this.aboutSettings, programme),
          text: session.sandbox
            ? `${texts.startText(session.groupName)} ${texts.sandboxNotice}`
            : texts.startText(session.groupName),
          action: checkinFormPath(token, 'start'),
          programme: programmeSection(locale, programme, session.enterpriseName),
        },
        language,
      );
    }
    return this.renderer.page(
      'checkin',
      checkinPageModel(locale, {
        session,
        programme,
        token,
        about: this.aboutSettings,
        saved: parseSavedFlag(saved),
        // checkinPageModel drops the hand-off for a sandbox's check-in (docs/integrating.md).
        engineConfigured: this.config.checkin.engineUrl !== null,
        raisedElsewhere: raiseMadeElsewhere(session, identities),
        earlierCheckins: await this.sessions.countDoneIn(
          session.participantId,
          session.groupId,
          identities,
          session.sessionId,
        ),
        developmentCommand: this.config.isProduction
          ? null
          : `npm run cli:dev -- sessions:simulate-result ${session.sessionId}`,
      }),
      language,
    );
  }

  /**
   * "Start": binds the check-in to this browser, giving the browser a new identity (docs/privacy.md),
   * then shows the page.
   */
  async startCheckin(token: string, browser: Browser, language: PageLanguage): Promise<Response> {
    const session = await this.sessionFor(token, language);
    // Every Start gives the browser a new identity (docs/privacy.md).
    const { binding, setCookie } = await this.binding.bind(
      checkinLink(session.sessionId),
      session.participantId,
      browser,
      { rotate: true },
    );
    if (binding === 'elsewhere') throw new PageError(403, 'opened-elsewhere');
    return withCookie(this.renderer.redirect(checkinPath(token), 303), setCookie);
  }

  async giveConsent(token: string, browser: Browser, language: PageLanguage): Promise<Response> {
    const session = await this.boundSessionFor(token, browser, language);
    found((await this.choices.setConsent(session, true, 'checkin', session.sessionId)) !== null);
    return this.savedCheckin(token, 'consent');
  }

  /**
   * The level posted on a check-in's page applies to the member and to this check-in; to the
   * earlier check-ins done in this browser only when `shareEarlier` is ticked (docs/privacy.md).
   */
  async setCheckinPrivacyLevel(
    token: string,
    form: PageForm,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const session = await this.consentedSessionFor(token, browser, language);
    await this.applyLevel(session, token, form, browser);
    return this.savedCheckin(token, 'privacy');
  }

  /**
   * "Start my check-in": the check-in will be shared at the member's level now (its own level,
   * docs/privacy.md), then the browser goes on to the analysis engine with a one-time hand-off
   * token, which only this browser can confirm (`confirmHandoff`). A completed check-in, or one
   * without an engine to go to, returns to its page.
   */
  async handOff(
    token: string,
    form: PageForm,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const session = await this.consentedSessionFor(token, browser, language);
    const { engineUrl } = this.config.checkin;
    if (session.sandbox || engineUrl === null || session.completed) {
      return this.renderer.redirect(checkinPath(token), 303);
    }
    // A raise made in another browser is kept or undone here, before anything is shared at it.
    // The check-in is bound here (consentedSessionFor), so its holder is this browser's identity.
    const here = (await this.binding.holderOf(checkinLink(session.sessionId)))!;
    const pending = raiseMadeElsewhere(session, [here]);
    if (pending) {
      const chosen = parsePrivacyLevel(form);
      if (chosen === pending.keep) {
        // The answer holds in this browser only: every other one still asks.
        await this.memberships.keepRaise(session.participantId, session.groupId, here, chosen);
      } else if (chosen === pending.back) {
        found(
          await this.choices.setPrivacyLevel(session, pending.back, 'checkin', {
            madeIn: here,
            sessionId: session.sessionId,
          }),
        );
      } else {
        return this.renderer.redirect(checkinPath(token), 303);
      }
    }
    const handoff = newHandoffToken();
    const handedOff = await this.sessions.handOff(session.sessionId, sha256Hex(handoff));
    if (!handedOff) return this.renderer.redirect(checkinPath(token), 303);
    return this.renderer.redirect(
      engineHandoffUrl(engineUrl, session.sessionId, handoff, {
        biometric: handedOff.biometric,
      }),
      303,
    );
  }

  /**
   * The engine's confirm step (docs/checkin-flow.md, "Hand-off"): `GET /checkin/confirm?handoff=…`.
   * The browser holding the check-in that handed off is sent back to the engine with
   * `confirmed=1` (again, if it asks again); any other browser, an unknown or replaced token, or
   * a completed check-in gets a 403 page saying why, and nothing is recorded.
   */
  async confirmHandoff(handoff: unknown, browser: Browser): Promise<Response> {
    const { engineUrl } = this.config.checkin;
    if (engineUrl === null || typeof handoff !== 'string' || !HANDOFF_TOKEN.test(handoff)) {
      throw new PageError(403, 'handoff-unknown');
    }
    const tokenHash = sha256Hex(handoff);
    const handedOff = await this.sessions.findHandoff(tokenHash);
    if (handedOff === null || handedOff.completed) throw new PageError(403, 'handoff-unknown');
    const binding = await this.binding.state(checkinLink(handedOff.sessionId), browser);
    if (binding !== 'here') throw new PageError(403, 'handoff-elsewhere');
    if (!(await this.sessions.confirmHandoff(handedOff.sessionId, tokenHash))) {
      throw new PageError(403, 'handoff-unknown');
    }
    return this.renderer.redirect(
      engineHandoffUrl(engineUrl, handedOff.sessionId, handoff, {
        biometric: handedOff.biometric,
        confirmed: true,
      }),
      303,
    );
  }

  /**
   * The page's one form (docs/accessibility.md): the privacy level (as `setCheckinPrivacyLevel`)
   * and the email preferences together, so that neither choice is lost.
   */
  async setCheckinChoices(
    token: string,
    form: PageForm,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const session = await this.consentedSessionFor(token, browser, language);
    await this.applyLevel(session, token, form, browser);
    await applyEmailPreferences(this.choices, session, form, 'checkin', session.sessionId);
    return this.savedCheckin(token, 'choices');
  }

  /** "No, thanks" on consent: a page saying so, and nothing recorded (a GET changes nothing). */
  async declined(token: string, language: PageLanguage): Promise<Response> {
    const session = await this.sessionFor(token, language);
    const locale = language.locale();
    const texts = pageTextsIn(locale);
    return this.renderer.page(
      'notice',
      { title: texts.declinedTitle, who: whoLine(locale, session), text: texts.declinedText },
      language,
    );
  }

  async setCheckinEmailPreferences(
    token: string,
    form: PageForm,
    browser: Browser,
    language: PageLanguage,
  ): Promise<Response> {
    const session = await this.consentedSessionFor(token, browser, language);
    await applyEmailPreferences(this.choices, session, form, 'checkin', session.sessionId);
    return this.savedCheckin(token, 'preferences');
  }

  /**
   * 302 to the return URL once the session is completed; until then a "still analysing" page.
   * The stored return URL is read through the rule that accepts it (docs/security.md): a row written
   * before it was normalised is redirected to its normalised form, and one the rule now refuses
   * (a line break, a reserved address, …) gets a "your check-in is complete" page instead of a
   * redirect — never a 5xx.
   */
  async done(token: string, language: PageLanguage): Promise<Response> {
    const session = await this.sessionFor(token, language);
    const texts = pageTextsIn(language.locale());
    if (!session.completed) {
      return this.renderer.page(
        'pending',
        { title: texts.pendingTitle, retryHref: checkinDonePath(token) },
        language,
      );
    }
    const returnUrl = normaliseReturnUrl(session.returnUrl);
    return returnUrl === null
      ? this.renderer.page(
          'notice',
          { title: texts.completedTitle, text: texts.completedText },
          language,
        )
      : this.renderer.redirect(returnUrl, 302);
  }

  /** The session a check-in link names; its participant's saved language joins `language`'s. */
  /**
   * The level posted on a check-in's page: to the member and to this check-in; to the earlier
   * check-ins done in this browser only when `shareEarlier` is ticked (docs/privacy.md).
   */
  private async applyLevel(
    session: CheckinSession,
    token: string,
    form: PageForm,
    browser: Browser,
  ): Promise<void> {
    await applyPrivacyLevel(this.choices, session, form, checkinPath(token), 'checkin', {
      madeIn: await this.binding.holderOf(checkinLink(session.sessionId)),
      sessionId: session.sessionId,
      shareEarlierFrom: parseShareEarlier(form)
        ? await this.binding.identities(browser)
        : undefined,
    });
  }

  private async sessionFor(token: string, language: PageLanguage): Promise<CheckinSession> {
    const sessionId = this.links.sessionOf(token);
    const session = sessionId === null ? null : await this.repository.findSession(sessionId);
    if (!session) throw PageError.notFound();
    await adoptParticipantLanguage(this.choices, session, language);
    return session;
  }

  /** The session of a check-in this browser started; others are refused (docs/privacy.md). */
  private async boundSessionFor(
    token: string,
    browser: Browser,
    language: PageLanguage,
  ): Promise<CheckinSession> {
    const session = await this.sessionFor(token, language);
    const binding = await this.binding.state(checkinLink(session.sessionId), browser);
    if (binding === 'unbound') throw new PageError(403, 'start-first', checkinPath(token));
    if (binding === 'elsewhere') throw new PageError(403, 'opened-elsewhere');
    return session;
  }

  /** Until consent is given (where the group requires it), nothing but consent is accepted. */
  private async consentedSessionFor(
    token: string,
    browser: Browser,
    language: PageLanguage,
  ): Promise<CheckinSession> {
    const session = await this.boundSessionFor(token, browser, language);
    if (consentPending(session)) throw new PageError(403, 'consent-first', checkinPath(token));
    return session;
  }

  private savedCheckin(token: string, form: CheckinForm): Response {
    return this.renderer.redirect(withSavedFlag(checkinPath(token), form), 303);
  }
}

"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CheckinPagesService = void 0;
/**
 * The check-in page (docs/checkin-flow.md): `/checkin/{token}`, the `redirectUrl` of a session. A
 * participant has no account: the signed, expiring token names the session and reaches its one
 * membership; the check-in is bound to the browser that presses Start (docs/privacy.md).
 *
 * The page shows, in order: consent (alone, until given, when the group requires it), the
 * privacy level (with a review notice on top when the requested level exceeds the participant's),
 * email preferences, and the hand-off to the analysis engine. Forms post back
 * (post/redirect/get, 303) and the page confirms with `?saved=…`. `/done` sends the participant to
 * the session's return URL once the result is in, and says "still analysing" until then. The
 * settings page is settings-pages.service.ts.
 */
const common_1 = require("@nestjs/common");
const secrets_1 = require("../common/crypto/secrets");
const handoff_token_1 = require("../sessions/handoff-token");
const config_module_1 = require("../config/config.module");
const participant_links_1 = require("../participant-links/participant-links");
const participant_choices_1 = require("../privacy/participant-choices");
const return_url_1 = require("../sessions/return-url");
const sessions_repository_1 = require("../sessions/sessions.repository");
const memberships_repository_1 = require("../participants/memberships.repository");
const browser_binding_1 = require("./browser-binding");
const checkin_pages_repository_1 = require("./checkin-pages.repository");
const page_actions_1 = require("./page-actions");
const page_error_1 = require("./page-error");
const page_forms_1 = require("./page-forms");
const page_links_1 = require("./page-links");
const page_models_1 = require("./page-models");
const page_renderer_1 = require("./page-renderer");
const pages_messages_1 = require("./pages.messages");
let CheckinPagesService = class CheckinPagesService {
    repository;
    choices;
    binding;
    sessions;
    memberships;
    links;
    renderer;
    config;
    constructor(repository, choices, binding, sessions, memberships, links, renderer, config) {
        this.repository = repository;
        this.choices = choices;
        this.binding = binding;
        this.sessions = sessions;
        this.memberships = memberships;
        this.links = links;
        this.renderer = renderer;
        this.config = config;
    }
    /** Who runs the service, for the start page and consent (docs/accessibility.md). */
    get aboutSettings() {
        return {
            operatorName: this.config.checkin.operatorName,
            privacyNoticeUrl: this.config.checkin.privacyNoticeUrl,
            retentionDays: this.config.retention.transcriptDays,
        };
    }
    // --- /checkin/{token} ---------------------------------------------------------------------
    async checkinPage(token, saved, browser, language) {
        const session = await this.sessionFor(token, language);
        const { binding, identities } = await this.binding.standing((0, browser_binding_1.checkinLink)(session.sessionId), browser);
        if (binding === 'elsewhere')
            throw new page_error_1.PageError(403, 'opened-elsewhere');
        const locale = language.locale();
        if (binding === 'unbound') {
            const texts = (0, pages_messages_1.pageTextsIn)(locale);
            return this.renderer.page('start', {
                title: texts.checkinTitle(session.groupName),
                who: (0, page_models_1.whoLine)(locale, session),
                about: (0, page_models_1.aboutModel)(locale, session, this.aboutSettings),
                text: session.sandbox
                    ? `${texts.startText(session.groupName)} ${texts.sandboxNotice}`
                    : texts.startText(session.groupName),
                action: (0, page_links_1.checkinFormPath)(token, 'start'),
            }, language);
        }
        return this.renderer.page('checkin', (0, page_models_1.checkinPageModel)(locale, {
            session,
            token,
            about: this.aboutSettings,
            saved: (0, page_forms_1.parseSavedFlag)(saved),
            // checkinPageModel drops the hand-off for a sandbox's check-in (docs/integrating.md).
            engineConfigured: this.config.checkin.engineUrl !== null,
            raisedElsewhere: (0, page_models_1.raiseMadeElsewhere)(session, identities),
            earlierCheckins: await this.sessions.countDoneIn(session.participantId, session.groupId, identities, session.sessionId),
            developmentCommand: this.config.isProduction
                ? null
                : `npm run cli:dev -- sessions:simulate-result ${session.sessionId}`,
        }), language);
    }
    /**
     * "Start": binds the check-in to this browser, giving the browser a new identity (docs/privacy.md),
     * then shows the page.
     */
    async startCheckin(token, browser, language) {
        const session = await this.sessionFor(token, language);
        // Every Start gives the browser a new identity (docs/privacy.md).
        const { binding, setCookie } = await this.binding.bind((0, browser_binding_1.checkinLink)(session.sessionId), session.participantId, browser, { rotate: true });
        if (binding === 'elsewhere')
            throw new page_error_1.PageError(403, 'opened-elsewhere');
        return (0, page_actions_1.withCookie)(this.renderer.redirect((0, page_links_1.checkinPath)(token), 303), setCookie);
    }
    async giveConsent(token, browser, language) {
        const session = await this.boundSessionFor(token, browser, language);
        (0, page_actions_1.found)((await this.choices.setConsent(session, true, 'checkin', session.sessionId)) !== null);
        return this.savedCheckin(token, 'consent');
    }
    /**
     * The level posted on a check-in's page applies to the member and to this check-in; to the
     * earlier check-ins done in this browser only when `shareEarlier` is ticked (docs/privacy.md).
     */
    async setCheckinPrivacyLevel(token, form, browser, language) {
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
    async handOff(token, form, browser, language) {
        const session = await this.consentedSessionFor(token, browser, language);
        const { engineUrl } = this.config.checkin;
        if (session.sandbox || engineUrl === null || session.completed) {
            return this.renderer.redirect((0, page_links_1.checkinPath)(token), 303);
        }
        // A raise made in another browser is kept or undone here, before anything is shared at it.
        // The check-in is bound here (consentedSessionFor), so its holder is this browser's identity.
        const here = (await this.binding.holderOf((0, browser_binding_1.checkinLink)(session.sessionId)));
        const pending = (0, page_models_1.raiseMadeElsewhere)(session, [here]);
        if (pending) {
            const chosen = (0, page_forms_1.parsePrivacyLevel)(form);
            if (chosen === pending.keep) {
                // The answer holds in this browser only: every other one still asks.
                await this.memberships.keepRaise(session.participantId, session.groupId, here, chosen);
            }
            else if (chosen === pending.back) {
                (0, page_actions_1.found)(await this.choices.setPrivacyLevel(session, pending.back, 'checkin', {
                    madeIn: here,
                    sessionId: session.sessionId,
                }));
            }
            else {
                return this.renderer.redirect((0, page_links_1.checkinPath)(token), 303);
            }
        }
        const handoff = (0, handoff_token_1.newHandoffToken)();
        if (!(await this.sessions.handOff(session.sessionId, (0, secrets_1.sha256Hex)(handoff)))) {
            return this.renderer.redirect((0, page_links_1.checkinPath)(token), 303);
        }
        return this.renderer.redirect((0, page_links_1.engineHandoffUrl)(engineUrl, session.sessionId, handoff), 303);
    }
    /**
     * The engine's confirm step (docs/checkin-flow.md, "Hand-off"): `GET /checkin/confirm?handoff=…`.
     * The browser holding the check-in that handed off is sent back to the engine with
     * `confirmed=1` (again, if it asks again); any other browser, an unknown or replaced token, or
     * a completed check-in gets a 403 page saying why, and nothing is recorded.
     */
    async confirmHandoff(handoff, browser) {
        const { engineUrl } = this.config.checkin;
        if (engineUrl === null || typeof handoff !== 'string' || !handoff_token_1.HANDOFF_TOKEN.test(handoff)) {
            throw new page_error_1.PageError(403, 'handoff-unknown');
        }
        const tokenHash = (0, secrets_1.sha256Hex)(handoff);
        const handedOff = await this.sessions.findHandoff(tokenHash);
        if (handedOff === null || handedOff.completed)
            throw new page_error_1.PageError(403, 'handoff-unknown');
        const binding = await this.binding.state((0, browser_binding_1.checkinLink)(handedOff.sessionId), browser);
        if (binding !== 'here')
            throw new page_error_1.PageError(403, 'handoff-elsewhere');
        if (!(await this.sessions.confirmHandoff(handedOff.sessionId, tokenHash))) {
            throw new page_error_1.PageError(403, 'handoff-unknown');
        }
        return this.renderer.redirect((0, page_links_1.engineHandoffUrl)(engineUrl, handedOff.sessionId, handoff, true), 303);
    }
    /**
     * The page's one form (docs/accessibility.md): the privacy level (as `setCheckinPrivacyLevel`)
     * and the email preferences together, so that neither choice is lost.
     */
    async setCheckinChoices(token, form, browser, language) {
        const session = await this.consentedSessionFor(token, browser, language);
        await this.applyLevel(session, token, form, browser);
        await (0, page_actions_1.applyEmailPreferences)(this.choices, session, form, 'checkin', session.sessionId);
        return this.savedCheckin(token, 'choices');
    }
    /** "No, thanks" on consent: a page saying so, and nothing recorded (a GET changes nothing). */
    async declined(token, language) {
        const session = await this.sessionFor(token, language);
        const locale = language.locale();
        const texts = (0, pages_messages_1.pageTextsIn)(locale);
        return this.renderer.page('notice', { title: texts.declinedTitle, who: (0, page_models_1.whoLine)(locale, session), text: texts.declinedText }, language);
    }
    async setCheckinEmailPreferences(token, form, browser, language) {
        const session = await this.consentedSessionFor(token, browser, language);
        await (0, page_actions_1.applyEmailPreferences)(this.choices, session, form, 'checkin', session.sessionId);
        return this.savedCheckin(token, 'preferences');
    }
    /**
     * 302 to the return URL once the session is completed; until then a "still analysing" page.
     * The stored return URL is read through the rule that accepts it (docs/security.md): a row written
     * before it was normalised is redirected to its normalised form, and one the rule now refuses
     * (a line break, a reserved address, …) gets a "your check-in is complete" page instead of a
     * redirect — never a 5xx.
     */
    async done(token, language) {
        const session = await this.sessionFor(token, language);
        const texts = (0, pages_messages_1.pageTextsIn)(language.locale());
        if (!session.completed) {
            return this.renderer.page('pending', { title: texts.pendingTitle, retryHref: (0, page_links_1.checkinDonePath)(token) }, language);
        }
        const returnUrl = (0, return_url_1.normaliseReturnUrl)(session.returnUrl);
        return returnUrl === null
            ? this.renderer.page('notice', { title: texts.completedTitle, text: texts.completedText }, language)
            : this.renderer.redirect(returnUrl, 302);
    }
    /** The session a check-in link names; its participant's saved language joins `language`'s. */
    /**
     * The level posted on a check-in's page: to the member and to this check-in; to the earlier
     * check-ins done in this browser only when `shareEarlier` is ticked (docs/privacy.md).
     */
    async applyLevel(session, token, form, browser) {
        await (0, page_actions_1.applyPrivacyLevel)(this.choices, session, form, (0, page_links_1.checkinPath)(token), 'checkin', {
            madeIn: await this.binding.holderOf((0, browser_binding_1.checkinLink)(session.sessionId)),
            sessionId: session.sessionId,
            shareEarlierFrom: (0, page_forms_1.parseShareEarlier)(form)
                ? await this.binding.identities(browser)
                : undefined,
        });
    }
    async sessionFor(token, language) {
        const sessionId = this.links.sessionOf(token);
        const session = sessionId === null ? null : await this.repository.findSession(sessionId);
        if (!session)
            throw page_error_1.PageError.notFound();
        await (0, page_actions_1.adoptParticipantLanguage)(this.choices, session, language);
        return session;
    }
    /** The session of a check-in this browser started; others are refused (docs/privacy.md). */
    async boundSessionFor(token, browser, language) {
        const session = await this.sessionFor(token, language);
        const binding = await this.binding.state((0, browser_binding_1.checkinLink)(session.sessionId), browser);
        if (binding === 'unbound')
            throw new page_error_1.PageError(403, 'start-first', (0, page_links_1.checkinPath)(token));
        if (binding === 'elsewhere')
            throw new page_error_1.PageError(403, 'opened-elsewhere');
        return session;
    }
    /** Until consent is given (where the group requires it), nothing but consent is accepted. */
    async consentedSessionFor(token, browser, language) {
        const session = await this.boundSessionFor(token, browser, language);
        if ((0, page_models_1.consentPending)(session))
            throw new page_error_1.PageError(403, 'consent-first', (0, page_links_1.checkinPath)(token));
        return session;
    }
    savedCheckin(token, form) {
        return this.renderer.redirect((0, page_links_1.withSavedFlag)((0, page_links_1.checkinPath)(token), form), 303);
    }
};
exports.CheckinPagesService = CheckinPagesService;
exports.CheckinPagesService = CheckinPagesService = __decorate([
    (0, common_1.Injectable)(),
    __param(7, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [checkin_pages_repository_1.CheckinPagesRepository,
        participant_choices_1.ParticipantChoices,
        browser_binding_1.BrowserBinding,
        sessions_repository_1.SessionsRepository,
        memberships_repository_1.MembershipsRepository,
        participant_links_1.ParticipantLinks,
        page_renderer_1.PageRenderer, Object])
], CheckinPagesService);
//# sourceMappingURL=checkin-pages.service.js.map
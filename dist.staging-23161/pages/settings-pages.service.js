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
Object.defineProperty(exports, "__esModule", { value: true });
exports.SettingsPagesService = void 0;
/**
 * The settings page (docs/checkin-flow.md): `/participant/settings?token=…`, reached from every
 * mail. A participant has no account: the signed, expiring token names one membership and
 * reaches only it; the link is bound to the first browser that posts on it (docs/privacy.md).
 * The page shows the privacy level, email preferences, consent, the history of changes, and
 * the ways out: sign out my links, download my data, delete my data. Forms post back
 * (post/redirect/get, 303) and the page confirms with `?saved=…`.
 */
const common_1 = require("@nestjs/common");
const pii_cipher_1 = require("../common/crypto/pii-cipher");
const sealed_reads_1 = require("../common/crypto/sealed-reads");
const privacy_model_1 = require("../common/privacy-model");
const erasure_service_1 = require("../erasure/erasure.service");
const participant_links_1 = require("../participant-links/participant-links");
const consent_ledger_repository_1 = require("../participants/consent-ledger.repository");
const participant_choices_1 = require("../privacy/participant-choices");
const session_view_1 = require("../sessions/session-view");
const sessions_repository_1 = require("../sessions/sessions.repository");
const transcript_codec_1 = require("../sessions/transcript-codec");
const browser_binding_1 = require("./browser-binding");
const checkin_pages_repository_1 = require("./checkin-pages.repository");
const page_actions_1 = require("./page-actions");
const page_error_1 = require("./page-error");
const page_forms_1 = require("./page-forms");
const page_links_1 = require("./page-links");
const page_models_1 = require("./page-models");
const page_renderer_1 = require("./page-renderer");
const pages_messages_1 = require("./pages.messages");
let SettingsPagesService = class SettingsPagesService {
    repository;
    choices;
    binding;
    ledger;
    erasure;
    sessions;
    cipher;
    links;
    renderer;
    constructor(repository, choices, binding, ledger, erasure, sessions, cipher, links, renderer) {
        this.repository = repository;
        this.choices = choices;
        this.binding = binding;
        this.ledger = ledger;
        this.erasure = erasure;
        this.sessions = sessions;
        this.cipher = cipher;
        this.links = links;
        this.renderer = renderer;
    }
    async settingsPage(token, saved, browser, language) {
        const { member, token: valid } = await this.viewedMemberFor(token, browser, language);
        const history = await this.ledger.list(member.enterpriseId, member.participantId);
        const earlier = await this.sessions.countDoneIn(member.participantId, member.groupId, await this.binding.identities(browser), null);
        return this.renderer.page('settings', (0, page_models_1.settingsPageModel)(language.locale(), member, valid, (0, page_forms_1.parseSavedFlag)(saved), history, earlier), language);
    }
    async setSettingsPrivacyLevel(token, form, browser, language) {
        const { member, token: valid, setCookie, } = await this.postingMemberFor(token, browser, language);
        await this.applyLevel(member, valid, form, browser);
        return (0, page_actions_1.withCookie)(this.savedSettings(valid, 'privacy'), setCookie);
    }
    /**
     * The page's one form (docs/accessibility.md): the privacy level and the email preferences
     * together, so that neither choice is lost. The level first (an invalid one changes nothing).
     */
    async setSettingsChoices(token, form, browser, language) {
        const { member, token: valid, setCookie, } = await this.postingMemberFor(token, browser, language);
        await this.applyLevel(member, valid, form, browser);
        await (0, page_actions_1.applyEmailPreferences)(this.choices, member, form, 'settings');
        return (0, page_actions_1.withCookie)(this.savedSettings(valid, 'choices'), setCookie);
    }
    async setSettingsEmailPreferences(token, form, browser, language) {
        const { member, token: valid, setCookie, } = await this.postingMemberFor(token, browser, language);
        await (0, page_actions_1.applyEmailPreferences)(this.choices, member, form, 'settings');
        return (0, page_actions_1.withCookie)(this.savedSettings(valid, 'preferences'), setCookie);
    }
    /**
     * Withdraws consent: the level drops to 0 and the next check-in asks again (docs/privacy.md), and
     * every earlier link of the membership stops working (docs/security.md); this browser moves to a fresh one.
     */
    async withdrawConsent(token, browser, language) {
        const { member, token: valid, setCookie, } = await this.postingMemberFor(token, browser, language);
        if (member.consentedAt === null) {
            return (0, page_actions_1.withCookie)(this.savedSettings(valid, 'withdrawn'), setCookie);
        }
        const changed = await this.choices.setConsent(member, false, 'settings');
        if (changed === null)
            throw page_error_1.PageError.notFound();
        return this.movedToFreshLink(valid, { ...member, ...changed }, 'withdrawn', setCookie);
    }
    /**
     * "Sign out my links" (docs/security.md): every settings and unsubscribe link the participant was
     * sent (in every group) stops working; this browser moves to a fresh link to this page.
     */
    async signOutLinks(token, browser, language) {
        const { member, token: valid, setCookie, } = await this.postingMemberFor(token, browser, language);
        const versions = await this.choices.signOutLinks(member.participantId);
        const mine = versions.find((row) => row.groupId === member.groupId);
        if (!mine)
            throw page_error_1.PageError.notFound();
        return this.movedToFreshLink(valid, { ...member, ...mine }, 'signed-out', setCookie);
    }
    /** "Delete my data…": a confirmation page first (GET changes nothing). */
    async confirmDelete(token, browser, language) {
        const { member, token: valid } = await this.viewedMemberFor(token, browser, language);
        const data = await this.repository.exportOf(member.participantId);
        const groupNames = (data?.groups ?? []).map((group) => group.name).join(', ');
        const texts = (0, pages_messages_1.pageTextsIn)(language.locale());
        return this.renderer.page('confirm', {
            title: texts.deleteTitle,
            text: texts.deleteConfirmText(groupNames),
            action: (0, page_links_1.settingsPath)(valid, 'delete'),
            confirmLabel: texts.deleteConfirmButton,
            cancelHref: (0, page_links_1.settingsPath)(valid),
            cancelLabel: texts.deleteCancel,
        }, language);
    }
    /** "Withdraw my consent…": a confirmation page first (GET changes nothing). */
    async confirmWithdrawConsent(token, browser, language) {
        const { member, token: valid } = await this.viewedMemberFor(token, browser, language);
        const texts = (0, pages_messages_1.pageTextsIn)(language.locale());
        return this.renderer.page('confirm', {
            title: texts.withdrawConfirmTitle,
            text: texts.withdrawText(member.groupName),
            action: (0, page_links_1.settingsPath)(valid, 'consent/withdraw'),
            confirmLabel: texts.withdrawConfirmButton,
            cancelHref: (0, page_links_1.settingsPath)(valid),
            cancelLabel: texts.withdrawCancel,
        }, language);
    }
    /** "Sign out my links…": a confirmation page first (GET changes nothing). */
    async confirmSignOut(token, browser, language) {
        const { token: valid } = await this.viewedMemberFor(token, browser, language);
        const texts = (0, pages_messages_1.pageTextsIn)(language.locale());
        return this.renderer.page('confirm', {
            title: texts.signOutConfirmTitle,
            text: texts.signOutText,
            action: (0, page_links_1.settingsPath)(valid, 'sign-out'),
            confirmLabel: texts.signOutConfirmButton,
            cancelHref: (0, page_links_1.settingsPath)(valid),
            cancelLabel: texts.signOutCancel,
        }, language);
    }
    /** Erases the participant (docs/privacy.md), as the enterprise's DELETE would. */
    async deleteMyData(token, browser, language) {
        const { member } = await this.postingMemberFor(token, browser, language);
        (0, page_actions_1.found)(await this.erasure.erase(member.externalId, {
            by: 'participant',
            participantId: member.participantId,
        }));
        const texts = (0, pages_messages_1.pageTextsIn)(language.locale());
        return this.renderer.page('notice', { title: texts.deletedTitle, text: texts.deletedText }, language);
    }
    /**
     * "Download my data", only in a browser that did one of the participant's check-ins
     * (docs/privacy.md): the account data, the check-ins done in this browser in full, the others
     * by ID and time — a settings link alone (mailed to a work mailbox the employer may control)
     * exports nothing. A JSON attachment; a POST, so that link scanners and previews never fetch
     * it; the enterprise has no such route (it would bypass the participant's level).
     */
    async exportMyData(token, browser, language) {
        const { member: viewed } = await this.viewedMemberFor(token, browser, language);
        const doneHere = new Set(await this.sessions.doneIn(viewed.participantId, await this.binding.identities(browser)));
        if (doneHere.size === 0)
            throw new page_error_1.PageError(403, 'export-elsewhere');
        const { member, setCookie } = await this.postingMemberFor(token, browser, language);
        const data = await this.repository.exportOf(member.participantId);
        if (!data)
            throw page_error_1.PageError.notFound();
        const sessions = await this.sessions.listForParticipant(member.participantId);
        const history = await this.ledger.list(member.enterpriseId, member.participantId);
        const file = this.renderer.attachment('my-checkin-data.json', {
            exportedAt: new Date().toISOString(),
            externalID: data.externalId,
            // null when the keys cannot open it (docs/data-at-rest.md, "Data the keys cannot open").
            email: (0, sealed_reads_1.openSealed)(this.cipher, 'participants.email_ciphertext', data.emailCiphertext),
            emailPreferences: {
                checkinReminder: data.checkinReminder,
                privacyRequest: data.privacyRequest,
            },
            // The language chosen on these pages (docs/i18n.md); null: never chosen.
            language: data.language,
            groups: data.groups,
            sessions: sessions.map((session) => {
                const full = doneHere.has(session.sessionId);
                const view = (0, session_view_1.sessionView)({ ...session, privacyLevel: full ? privacy_model_1.MAX_PRIVACY_LEVEL : 0 }, (stored, field) => (0, transcript_codec_1.openSessionJson)(this.cipher, field, stored));
                // Done in another browser (or never opened in one): which, and when, only.
                return full ? view : { sessionID: view.sessionID, timestamp: view.timestamp };
            }),
            history: history.map((record) => ({ ...record, at: record.at.toISOString() })),
        });
        return (0, page_actions_1.withCookie)(file, setCookie);
    }
    /** A settings link to show: refused in a browser other than the one it is bound to. */
    async viewedMemberFor(token, browser, language) {
        const found = await this.memberFor(token, language);
        if ((await this.binding.state((0, browser_binding_1.settingsLink)(found.token), browser)) === 'elsewhere') {
            throw new page_error_1.PageError(403, 'opened-elsewhere');
        }
        return found;
    }
    /** A settings link to act on: binds it to this browser on its first POST (docs/privacy.md). */
    async postingMemberFor(token, browser, language) {
        const found = await this.memberFor(token, language);
        const { binding, setCookie } = await this.binding.bind((0, browser_binding_1.settingsLink)(found.token), found.member.participantId, browser);
        if (binding === 'elsewhere')
            throw new page_error_1.PageError(403, 'opened-elsewhere');
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
    async applyLevel(member, token, form, browser) {
        await (0, page_actions_1.applyPrivacyLevel)(this.choices, member, form, (0, page_links_1.settingsPath)(token), 'settings', {
            madeIn: await this.binding.holderOf((0, browser_binding_1.settingsLink)(token)),
            shareEarlierFrom: (0, page_forms_1.parseShareEarlier)(form)
                ? await this.binding.identities(browser)
                : undefined,
        });
    }
    async memberFor(token, language) {
        const link = this.links.membershipOf(token);
        const member = link ? await this.repository.findMember(link.participantId, link.groupId) : null;
        // A link signed before the last sign-out, consent withdrawal (or erasure) is revoked.
        if (!member || member.linkVersion !== link?.linkVersion)
            throw page_error_1.PageError.notFound();
        await (0, page_actions_1.adoptParticipantLanguage)(this.choices, member, language);
        return { member, token: token };
    }
    /**
     * After a change that revoked the membership's links: the settings page at a fresh link, bound
     * to the browser that held the old one (its binding moves), with the change confirmed.
     */
    async movedToFreshLink(oldToken, link, saved, setCookie) {
        const fresh = this.links.settingsToken(link);
        await this.binding.move((0, browser_binding_1.settingsLink)(oldToken), (0, browser_binding_1.settingsLink)(fresh), link.participantId);
        return (0, page_actions_1.withCookie)(this.savedSettings(fresh, saved), setCookie);
    }
    savedSettings(token, form) {
        return this.renderer.redirect((0, page_links_1.withSavedFlag)((0, page_links_1.settingsPath)(token), form), 303);
    }
};
exports.SettingsPagesService = SettingsPagesService;
exports.SettingsPagesService = SettingsPagesService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [checkin_pages_repository_1.CheckinPagesRepository,
        participant_choices_1.ParticipantChoices,
        browser_binding_1.BrowserBinding,
        consent_ledger_repository_1.ConsentLedgerRepository,
        erasure_service_1.ErasureService,
        sessions_repository_1.SessionsRepository,
        pii_cipher_1.PiiCipher,
        participant_links_1.ParticipantLinks,
        page_renderer_1.PageRenderer])
], SettingsPagesService);
//# sourceMappingURL=settings-pages.service.js.map
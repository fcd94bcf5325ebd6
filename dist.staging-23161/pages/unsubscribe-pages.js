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
var UnsubscribePages_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.UnsubscribePages = void 0;
/**
 * One-click unsubscribe (RFC 8058) for the `List-Unsubscribe` link of every mail, rendered like
 * every other participant page (one template engine, one set of page headers). POST — what mail
 * clients send, `List-Unsubscribe=One-Click` — turns the preference off; GET only shows the
 * button, because link scanners follow GET links on their own.
 */
const common_1 = require("@nestjs/common");
const interact_errors_1 = require("../interact/interact.errors");
const link_paths_1 = require("../participant-links/link-paths");
const participant_links_1 = require("../participant-links/participant-links");
const participants_repository_1 = require("../participants/participants.repository");
const participant_choices_1 = require("../privacy/participant-choices");
const page_actions_1 = require("./page-actions");
const page_error_1 = require("./page-error");
const page_renderer_1 = require("./page-renderer");
const pages_messages_1 = require("./pages.messages");
let UnsubscribePages = UnsubscribePages_1 = class UnsubscribePages {
    links;
    participants;
    choices;
    renderer;
    constructor(links, participants, choices, renderer) {
        this.links = links;
        this.participants = participants;
        this.choices = choices;
        this.renderer = renderer;
    }
    /**
     * GET: asks, changes nothing. A revoked link (docs/security.md) is not valid here already. The
     * page names the enterprise whose mails stop, in the participant's language.
     */
    async confirm(token, language) {
        const target = this.targetOf(token);
        const { enterpriseName } = await this.shownTarget(target, language);
        const texts = (0, pages_messages_1.pageTextsIn)(language.locale());
        return this.renderer.page('unsubscribe', {
            title: texts.unsubscribeTitle,
            text: texts.unsubscribeQuestion(target.emailType, enterpriseName),
            action: (0, link_paths_1.unsubscribePath)(target.token),
        }, language);
    }
    /** POST: turns the preference off, with its ledger row. */
    async unsubscribe(token, language) {
        const target = this.targetOf(token);
        const { enterpriseName } = await this.shownTarget(target, language);
        if (!(await this.choices.unsubscribe(target, target.emailType))) {
            throw UnsubscribePages_1.notValid();
        }
        const texts = (0, pages_messages_1.pageTextsIn)(language.locale());
        return this.renderer.page('notice', {
            title: texts.unsubscribedTitle,
            text: texts.unsubscribedText(target.emailType, enterpriseName),
        }, language);
    }
    /**
     * What the page shows of a valid link's participant (whose saved language joins `language`'s);
     * a 404 page when the link is not valid.
     */
    async shownTarget(target, language) {
        const shown = await this.participants.unsubscribeLinkTarget(target);
        if (!shown)
            throw UnsubscribePages_1.notValid();
        await (0, page_actions_1.adoptParticipantLanguage)(this.choices, { participantId: target.participantId, language: shown.language }, language);
        return shown;
    }
    /** The preference an unsubscribe token names; a 404 page when it is not valid. */
    targetOf(token) {
        const target = this.links.unsubscribeTargetOf(token);
        if (!target || !interact_errors_1.EMAIL_TYPES.includes(target.emailType)) {
            throw UnsubscribePages_1.notValid();
        }
        return {
            participantId: target.participantId,
            membership: target.membership,
            emailType: target.emailType,
            token: token,
        };
    }
    static notValid() {
        return new page_error_1.PageError(404, 'unsubscribe-not-valid');
    }
};
exports.UnsubscribePages = UnsubscribePages;
exports.UnsubscribePages = UnsubscribePages = UnsubscribePages_1 = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [participant_links_1.ParticipantLinks,
        participants_repository_1.ParticipantsRepository,
        participant_choices_1.ParticipantChoices,
        page_renderer_1.PageRenderer])
], UnsubscribePages);
//# sourceMappingURL=unsubscribe-pages.js.map
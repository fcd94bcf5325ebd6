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
exports.CheckinPagesController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const public_decorator_1 = require("../common/auth/public.decorator");
const browser_binding_1 = require("./browser-binding");
const checkin_pages_service_1 = require("./checkin-pages.service");
const html_exception_filter_1 = require("./html-exception.filter");
const page_language_1 = require("./i18n/page-language");
const same_origin_forms_guard_1 = require("./same-origin-forms.guard");
const page_error_1 = require("./page-error");
/**
 * The check-in page a participant reaches from `redirectUrl` (HTML, public: the signed token in
 * the path is the capability). Not part of the enterprise API, so not in the OpenAPI document.
 */
let CheckinPagesController = class CheckinPagesController {
    pages;
    constructor(pages) {
        this.pages = pages;
    }
    /**
     * The engine's confirm step (docs/checkin-flow.md, "Hand-off"). A static route: Fastify's
     * router matches it before `:token`.
     */
    confirm(handoff, browser) {
        return this.pages.confirmHandoff(handoff, browser);
    }
    page(token, saved, browser, language) {
        return this.pages.checkinPage(token, saved, browser, language);
    }
    start(token, browser, language) {
        return this.pages.startCheckin(token, browser, language);
    }
    consent(token, browser, language) {
        return this.pages.giveConsent(token, browser, language);
    }
    privacy(token, form, browser, language) {
        return this.pages.setCheckinPrivacyLevel(token, form, browser, language);
    }
    handOff(token, form, browser, language) {
        return this.pages.handOff(token, form, browser, language);
    }
    /** The page's one form: privacy level and email preferences together. */
    choices(token, form, browser, language) {
        return this.pages.setCheckinChoices(token, form, browser, language);
    }
    preferences(token, form, browser, language) {
        return this.pages.setCheckinEmailPreferences(token, form, browser, language);
    }
    /** "No, thanks" on consent: records nothing. */
    declined(token, language) {
        return this.pages.declined(token, language);
    }
    done(token, language) {
        return this.pages.done(token, language);
    }
    // `/checkin/` without a token: the same page as any other link that is not valid.
    withoutToken() {
        throw page_error_1.PageError.notFound();
    }
};
exports.CheckinPagesController = CheckinPagesController;
__decorate([
    (0, common_1.Get)('confirm'),
    __param(0, (0, common_1.Query)('handoff')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "confirm", null);
__decorate([
    (0, common_1.Get)(':token'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, common_1.Query)('saved')),
    __param(2, (0, browser_binding_1.RequestBrowser)()),
    __param(3, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object, Object, Function]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "page", null);
__decorate([
    (0, common_1.Post)(':token/start'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __param(2, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object, Function]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "start", null);
__decorate([
    (0, common_1.Post)(':token/consent'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __param(2, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object, Function]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "consent", null);
__decorate([
    (0, common_1.Post)(':token/privacy'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, common_1.Body)()),
    __param(2, (0, browser_binding_1.RequestBrowser)()),
    __param(3, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object, Object, Function]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "privacy", null);
__decorate([
    (0, common_1.Post)(':token/handoff'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, common_1.Body)()),
    __param(2, (0, browser_binding_1.RequestBrowser)()),
    __param(3, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object, Object, Function]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "handOff", null);
__decorate([
    (0, common_1.Post)(':token/choices'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, common_1.Body)()),
    __param(2, (0, browser_binding_1.RequestBrowser)()),
    __param(3, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object, Object, Function]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "choices", null);
__decorate([
    (0, common_1.Post)(':token/preferences'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, common_1.Body)()),
    __param(2, (0, browser_binding_1.RequestBrowser)()),
    __param(3, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object, Object, Function]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "preferences", null);
__decorate([
    (0, common_1.Get)(':token/declined'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Function]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "declined", null);
__decorate([
    (0, common_1.Get)(':token/done'),
    __param(0, (0, common_1.Param)('token')),
    __param(1, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Function]),
    __metadata("design:returntype", Promise)
], CheckinPagesController.prototype, "done", null);
__decorate([
    (0, common_1.Get)(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], CheckinPagesController.prototype, "withoutToken", null);
exports.CheckinPagesController = CheckinPagesController = __decorate([
    (0, swagger_1.ApiExcludeController)(),
    (0, public_decorator_1.Public)(),
    (0, common_1.UseFilters)(html_exception_filter_1.HtmlPageExceptionFilter)
    // Forms posted from another site's page change nothing (same-origin-forms.guard.ts).
    ,
    (0, common_1.UseGuards)(same_origin_forms_guard_1.SameOriginFormsGuard),
    (0, common_1.Controller)('checkin'),
    __metadata("design:paramtypes", [checkin_pages_service_1.CheckinPagesService])
], CheckinPagesController);
//# sourceMappingURL=checkin-pages.controller.js.map
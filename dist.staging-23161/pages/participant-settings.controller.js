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
exports.ParticipantSettingsController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const public_decorator_1 = require("../common/auth/public.decorator");
const browser_binding_1 = require("./browser-binding");
const settings_pages_service_1 = require("./settings-pages.service");
const html_exception_filter_1 = require("./html-exception.filter");
const page_language_1 = require("./i18n/page-language");
const same_origin_forms_guard_1 = require("./same-origin-forms.guard");
/**
 * A membership's settings page, linked from emails (`?token=…`, signed for one membership):
 * privacy level and email preferences, as on the check-in page.
 */
let ParticipantSettingsController = class ParticipantSettingsController {
    pages;
    constructor(pages) {
        this.pages = pages;
    }
    page(token, saved, browser, language) {
        return this.pages.settingsPage(token, saved, browser, language);
    }
    privacy(token, form, browser, language) {
        return this.pages.setSettingsPrivacyLevel(token, form, browser, language);
    }
    /** The page's one form: privacy level and email preferences together. */
    choices(token, form, browser, language) {
        return this.pages.setSettingsChoices(token, form, browser, language);
    }
    /** Withdrawing consent and signing out links confirm first (a GET changes nothing). */
    confirmWithdrawConsent(token, browser, language) {
        return this.pages.confirmWithdrawConsent(token, browser, language);
    }
    confirmSignOut(token, browser, language) {
        return this.pages.confirmSignOut(token, browser, language);
    }
    withdrawConsent(token, browser, language) {
        return this.pages.withdrawConsent(token, browser, language);
    }
    signOut(token, browser, language) {
        return this.pages.signOutLinks(token, browser, language);
    }
    exportData(token, browser, language) {
        return this.pages.exportMyData(token, browser, language);
    }
    confirmDelete(token, browser, language) {
        return this.pages.confirmDelete(token, browser, language);
    }
    deleteData(token, browser, language) {
        return this.pages.deleteMyData(token, browser, language);
    }
    preferences(token, form, browser, language) {
        return this.pages.setSettingsEmailPreferences(token, form, browser, language);
    }
};
exports.ParticipantSettingsController = ParticipantSettingsController;
__decorate([
    (0, common_1.Get)(),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, common_1.Query)('saved')),
    __param(2, (0, browser_binding_1.RequestBrowser)()),
    __param(3, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "page", null);
__decorate([
    (0, common_1.Post)('privacy'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, common_1.Body)()),
    __param(2, (0, browser_binding_1.RequestBrowser)()),
    __param(3, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "privacy", null);
__decorate([
    (0, common_1.Post)('choices'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, common_1.Body)()),
    __param(2, (0, browser_binding_1.RequestBrowser)()),
    __param(3, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "choices", null);
__decorate([
    (0, common_1.Get)('consent/withdraw'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __param(2, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "confirmWithdrawConsent", null);
__decorate([
    (0, common_1.Get)('sign-out'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __param(2, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "confirmSignOut", null);
__decorate([
    (0, common_1.Post)('consent/withdraw'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __param(2, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "withdrawConsent", null);
__decorate([
    (0, common_1.Post)('sign-out'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __param(2, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "signOut", null);
__decorate([
    (0, common_1.Post)('export'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __param(2, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "exportData", null);
__decorate([
    (0, common_1.Get)('delete'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __param(2, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "confirmDelete", null);
__decorate([
    (0, common_1.Post)('delete'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, browser_binding_1.RequestBrowser)()),
    __param(2, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "deleteData", null);
__decorate([
    (0, common_1.Post)('preferences'),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, common_1.Body)()),
    __param(2, (0, browser_binding_1.RequestBrowser)()),
    __param(3, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object, Object, Function]),
    __metadata("design:returntype", Promise)
], ParticipantSettingsController.prototype, "preferences", null);
exports.ParticipantSettingsController = ParticipantSettingsController = __decorate([
    (0, swagger_1.ApiExcludeController)(),
    (0, public_decorator_1.Public)(),
    (0, common_1.UseFilters)(html_exception_filter_1.HtmlPageExceptionFilter)
    // Forms posted from another site's page change nothing (same-origin-forms.guard.ts).
    ,
    (0, common_1.UseGuards)(same_origin_forms_guard_1.SameOriginFormsGuard),
    (0, common_1.Controller)('participant/settings'),
    __metadata("design:paramtypes", [settings_pages_service_1.SettingsPagesService])
], ParticipantSettingsController);
//# sourceMappingURL=participant-settings.controller.js.map
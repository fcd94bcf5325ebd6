"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CheckinPagesModule = void 0;
const common_1 = require("@nestjs/common");
const page_error_handler_1 = require("../common/http/page-error-handler");
const html_exception_filter_1 = require("./html-exception.filter");
const erasure_module_1 = require("../erasure/erasure.module");
const participant_links_module_1 = require("../participant-links/participant-links.module");
const participants_module_1 = require("../participants/participants.module");
const participant_choices_module_1 = require("../privacy/participant-choices.module");
const session_records_module_1 = require("../sessions/session-records.module");
const checkin_pages_controller_1 = require("./checkin-pages.controller");
const checkin_pages_repository_1 = require("./checkin-pages.repository");
const checkin_pages_service_1 = require("./checkin-pages.service");
const browser_binding_1 = require("./browser-binding");
const page_renderer_1 = require("./page-renderer");
const link_bindings_repository_1 = require("./link-bindings.repository");
const browsers_repository_1 = require("./browsers.repository");
const participant_settings_controller_1 = require("./participant-settings.controller");
const unsubscribe_controller_1 = require("./unsubscribe.controller");
const settings_pages_service_1 = require("./settings-pages.service");
const unsubscribe_pages_1 = require("./unsubscribe-pages");
/**
 * Participant-facing pages: `/checkin/{token}` (consent, privacy review, email preferences,
 * hand-off to the analysis engine, `/done`), `/participant/settings?token=…` and the one-click
 * `/participant/unsubscribe?token=…` of every mail. Server-rendered HTML without scripts, one
 * template engine and one set of headers for all of them; errors are HTML pages too
 * (HtmlPageExceptionFilter). The links' tokens are read through ParticipantLinks, which also
 * mints them for sessions and emails.
 */
let CheckinPagesModule = class CheckinPagesModule {
};
exports.CheckinPagesModule = CheckinPagesModule;
exports.CheckinPagesModule = CheckinPagesModule = __decorate([
    (0, common_1.Module)({
        imports: [
            participant_links_module_1.ParticipantLinksModule,
            participants_module_1.ParticipantsModule,
            participant_choices_module_1.ParticipantChoicesModule,
            erasure_module_1.ErasureModule,
            session_records_module_1.SessionRecordsModule,
        ],
        controllers: [checkin_pages_controller_1.CheckinPagesController, participant_settings_controller_1.ParticipantSettingsController, unsubscribe_controller_1.UnsubscribeController],
        providers: [
            checkin_pages_repository_1.CheckinPagesRepository,
            checkin_pages_service_1.CheckinPagesService,
            settings_pages_service_1.SettingsPagesService,
            link_bindings_repository_1.LinkBindingsRepository,
            browsers_repository_1.BrowsersRepository,
            unsubscribe_pages_1.UnsubscribePages,
            browser_binding_1.BrowserBinding,
            page_renderer_1.PageRenderer,
            html_exception_filter_1.HtmlPageExceptionFilter,
            // Errors raised before the pages' own filter runs (e.g. a 413 body) are HTML too.
            { provide: page_error_handler_1.PAGE_ERROR_HANDLER, useExisting: html_exception_filter_1.HtmlPageExceptionFilter },
        ],
        exports: [page_error_handler_1.PAGE_ERROR_HANDLER],
    })
], CheckinPagesModule);
//# sourceMappingURL=checkin-pages.module.js.map
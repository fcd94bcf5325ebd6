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
exports.HtmlPageExceptionFilter = void 0;
exports.pageFailureFor = pageFailureFor;
const common_1 = require("@nestjs/common");
const error_response_1 = require("../common/http/error-response");
const link_paths_1 = require("../participant-links/link-paths");
const page_language_1 = require("./i18n/page-language");
const page_error_1 = require("./page-error");
const page_renderer_1 = require("./page-renderer");
const page_templates_1 = require("./page-templates");
const pages_messages_1 = require("./pages.messages");
/** Which error page answers an exception (pure). Statuses follow the API's error mapping. */
function pageFailureFor(exception) {
    if (exception instanceof page_error_1.PageError) {
        const { status, kind, backHref } = exception;
        return { status, kind, backHref, headers: {}, unexpected: false };
    }
    const { status, headers, unexpected } = (0, error_response_1.toErrorResponse)(exception);
    const kind = status === 404
        ? 'not-found'
        : status === 429
            ? 'too-many-requests'
            : status === 503
                ? 'unavailable'
                : status >= 500
                    ? 'unexpected'
                    : 'unreadable-form';
    return { status, kind, backHref: null, headers, unexpected };
}
/**
 * The participant pages' exception filter (controller-scoped, so it takes precedence over the
 * API's JSON filter): every failure is a small HTML page with the page headers, never JSON and
 * never a stack. The page is in the request's language (its PageLanguage, which the handler may
 * have told the participant's saved language before it failed; docs/i18n.md).
 */
let HtmlPageExceptionFilter = class HtmlPageExceptionFilter {
    renderer;
    logger = new common_1.Logger('CheckinPages');
    constructor(renderer) {
        this.renderer = renderer;
    }
    handles(path) {
        return (0, link_paths_1.isParticipantPagePath)(path);
    }
    catch(exception, host) {
        const http = host.switchToHttp();
        const reply = http.getResponse();
        const request = http.getRequest();
        const failure = pageFailureFor(exception);
        if (failure.unexpected)
            (0, error_response_1.logUnexpected)(this.logger, request, exception, failure.status);
        if (reply.sent)
            return;
        const language = (0, page_language_1.pageLanguageOf)(request);
        const page = (0, page_templates_1.renderPage)('error', { ...(0, pages_messages_1.pageErrorsIn)(language.locale())[failure.kind], backHref: failure.backHref }, page_renderer_1.PageRenderer.contextOf(language));
        void reply
            .status(failure.status)
            .headers({ ...failure.headers, ...this.renderer.pageHeaders(language) })
            .send(page);
    }
};
exports.HtmlPageExceptionFilter = HtmlPageExceptionFilter;
exports.HtmlPageExceptionFilter = HtmlPageExceptionFilter = __decorate([
    (0, common_1.Catch)(),
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [page_renderer_1.PageRenderer])
], HtmlPageExceptionFilter);
//# sourceMappingURL=html-exception.filter.js.map
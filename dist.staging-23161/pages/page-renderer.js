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
var PageRenderer_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.PageRenderer = exports.PAGE_CONTENT_TYPE = void 0;
exports.pageHeaders = pageHeaders;
/**
 * The participant pages as responses. Where the markup lives: every page is an Eta template of
 * its own in `src/pages/templates/` (`checkin.eta`, `settings.eta`, …), the parts pages
 * share (layout, saved message, privacy, preferences and hand-off sections) in
 * `templates/partials/`, and the stylesheet in `templates/style.css`, which the layout inlines
 * (the pages load nothing). The mails are alike in `src/interact/sending/templates/`. The build
 * copies these folders to the same place under `dist/` (`scripts/build-app.js`), and the code
 * finds them next to itself, so `src/` (tests) and `dist/` (a build) behave the same. How they
 * are loaded: once, when the process starts (common/templates/template-folder.ts), by one Eta
 * engine with auto-escaping, following `include(…)`/`layout(…)` from each page; a page naming a
 * missing template stops the start, and a render never reads the disk. Whitespace is output as
 * written (`autoTrim` off); `-%>` ends a tag without the line break after it. The typed page models
 * stay in TypeScript (page-templates.ts), the texts in pages.messages.ts. See docs/design.md
 * "Templates".
 */
const common_1 = require("@nestjs/common");
const config_module_1 = require("../config/config.module");
const page_templates_1 = require("./page-templates");
exports.PAGE_CONTENT_TYPE = 'text/html; charset=utf-8';
/**
 * Headers of every participant page, error pages and redirects included. The token is in the
 * address, so it must not leak: no caching, no Referer (not to the analysis engine, not to the
 * return URL), no framing. The pages run no script and load nothing; forms post only to us (and
 * the engine's origin, should the hand-off ever become a form).
 */
function pageHeaders(engineUrl) {
    const formAction = ["'self'", ...(engineUrl ? [new URL(engineUrl).origin] : [])].join(' ');
    return {
        'content-type': exports.PAGE_CONTENT_TYPE,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'content-security-policy': `default-src 'none'; style-src 'self' 'unsafe-inline'; form-action ${formAction}; ` +
            `base-uri 'none'; frame-ancestors 'none'`,
    };
}
/**
 * Turns page models into responses. Handlers return a web `Response`, whose status and headers
 * Nest sends as they are: one return type for pages (200), redirects (302/303) and anything else
 * a page may need, with no branching in controllers.
 */
let PageRenderer = PageRenderer_1 = class PageRenderer {
    headers;
    constructor(config) {
        this.headers = pageHeaders(config.checkin.engineUrl);
    }
    /** A page in the request's language (`language`), with its switcher when a GET loads it. */
    page(name, model, language, status = 200) {
        return new Response((0, page_templates_1.renderPage)(name, model, PageRenderer_1.contextOf(language)), {
            status,
            headers: this.pageHeaders(language),
        });
    }
    /** What a page answered to this request is rendered for (renderPage). */
    static contextOf(language) {
        return { locale: language.locale(), url: language.reloadablePageUrl() };
    }
    /** The headers of a page answered now: these, and the language it is written in. */
    pageHeaders(language) {
        return { ...this.headers, 'content-language': language.locale() };
    }
    /** A JSON file to save (`Content-Disposition: attachment`), with the pages' other headers. */
    attachment(filename, value) {
        return new Response(`${JSON.stringify(value, null, 2)}\n`, {
            status: 200,
            headers: {
                ...this.headers,
                'content-type': 'application/json; charset=utf-8',
                'content-disposition': `attachment; filename="${filename}"`,
            },
        });
    }
    redirect(location, status) {
        return new Response(null, { status, headers: { ...this.headers, location } });
    }
};
exports.PageRenderer = PageRenderer;
exports.PageRenderer = PageRenderer = PageRenderer_1 = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], PageRenderer);
//# sourceMappingURL=page-renderer.js.map
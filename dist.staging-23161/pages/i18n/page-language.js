"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RequestPageLanguage = exports.NO_PAGE_LANGUAGE = exports.PageLanguage = exports.LANGUAGE_COOKIE = void 0;
exports.installPageLanguage = installPageLanguage;
exports.pageLanguageOf = pageLanguageOf;
exports.pageUrlIn = pageUrlIn;
/**
 * The language of the participant page a request asks for (docs/i18n.md). A Fastify `onRequest`
 * hook gives every request under the participant pages' prefixes a PageLanguage: what the request
 * says (`?lang=`, the language cookie, `Accept-Language`, its address), kept on the request. The
 * controllers take it with `@RequestPageLanguage()` and hand it to the page services, which pass
 * it (or its locale) on to the models, the renderer and the texts; the HTML error filter takes
 * it from the request (pageLanguageOf). Requests elsewhere (the API) have none and read English.
 *
 * Why not an AsyncLocalStorage: on Node 20 the first `AsyncLocalStorage.run` turns promise hooks
 * on for the whole process, for good. After one page view every later request (the API's too)
 * cost 6–11 % more CPU (docs/performance.md, "Where the time goes"). So nothing here uses
 * `node:async_hooks`.
 *
 * A language chosen with `?lang=` is remembered in this browser (the `checkin_lang` cookie, a
 * year), so the answers to its forms and the pages after them stay in it, and for the participant
 * the page is about (`participants.language`, PageLanguage.participantLanguage), so their other
 * browsers and their mails follow it.
 */
const common_1 = require("@nestjs/common");
const cookie_1 = require("cookie");
const locales_1 = require("../../common/i18n/locales");
/** The browser's chosen language (not a secret, not tied to anyone: only a language code). */
exports.LANGUAGE_COOKIE = 'checkin_lang';
const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;
/** What a page request asks to remember, kept on the request for the `onSend` hook. */
const REMEMBER = Symbol('rememberLanguage');
/** The page request's PageLanguage, kept on the request by the `onRequest` hook. */
const PAGE_LANGUAGE = Symbol('pageLanguage');
/**
 * The language of one page request. One per request (the `onRequest` hook makes it): it learns
 * the participant the page is about (participantLanguage) and negotiates once, on the first read.
 */
class PageLanguage {
    sources;
    /** The saved language of the participant the page is about, once the page knows them. */
    participant;
    /** Negotiated once, on the first read (the page models read it many times). */
    negotiated;
    /** `sources`: null outside a page request (English, nothing to save, no switcher). */
    constructor(sources) {
        this.sources = sources;
    }
    /** The page's language (English outside a page request). */
    locale() {
        const sources = this.sources;
        if (!sources)
            return locales_1.DEFAULT_LOCALE;
        this.negotiated ??= (0, locales_1.negotiateLocale)({
            query: sources.query,
            saved: this.participant,
            remembered: sources.cookie,
            acceptLanguage: sources.acceptLanguage,
        });
        return this.negotiated;
    }
    /**
     * The page is about a participant whose saved language is `saved` (null: never chosen): it now
     * comes after `?lang=` and before the browser's own choices. Answers the language to save for
     * them, when this request chose one (docs/i18n.md): a `?lang=` other than the saved one, or,
     * with nothing saved yet, the language this browser remembers. `Accept-Language` is never
     * saved: it says what a browser reads, not what the person chose (and would be whoever opened
     * the link first). Null outside a page request or when there is nothing to save.
     */
    participantLanguage(saved) {
        const sources = this.sources;
        if (!sources)
            return null;
        this.participant = saved;
        this.negotiated = undefined;
        const query = (0, locales_1.supportedLocale)(sources.query);
        if (query)
            return query === saved ? null : query;
        if (saved !== null)
            return null;
        return (0, locales_1.supportedLocale)(sources.cookie);
    }
    /**
     * The address of the page being answered, for the language switcher: the request's path and
     * query when it is a GET (a page that can be loaded again); null for a form's answer (a POST,
     * whose result pages link back to their page) and outside a page request.
     */
    reloadablePageUrl() {
        const sources = this.sources;
        return sources && (sources.method === 'GET' || sources.method === 'HEAD') ? sources.url : null;
    }
}
exports.PageLanguage = PageLanguage;
/**
 * Outside a page request (the API, or a page service called by a test): English, nothing to
 * save for the participant, no switcher. It never changes.
 */
exports.NO_PAGE_LANGUAGE = new PageLanguage(null);
/**
 * Gives every request under `prefixes` its PageLanguage, and remembers a language chosen with
 * `?lang=` in the browser (`secure`: the cookie is sent over https only).
 */
function installPageLanguage(fastify, prefixes, options) {
    fastify.addHook('onRequest', (request, _reply, done) => {
        if (!prefixes.some((prefix) => request.url.startsWith(prefix)))
            return done();
        const header = request.headers['accept-language'];
        let query = null;
        try {
            query = new URL(request.url, 'http://page.invalid').searchParams.get('lang');
        }
        catch {
            // An address the URL parser refuses: no ?lang=, the page answers it as it would.
        }
        let cookie = null;
        try {
            cookie = (0, cookie_1.parseCookie)(request.headers.cookie ?? '')[exports.LANGUAGE_COOKIE] ?? null;
        }
        catch {
            // A cookie header the parser refuses: no remembered language.
        }
        const chosen = (0, locales_1.supportedLocale)(query);
        if (chosen && chosen !== (0, locales_1.supportedLocale)(cookie)) {
            request[REMEMBER] = chosen;
        }
        request[PAGE_LANGUAGE] = new PageLanguage({
            query,
            cookie,
            acceptLanguage: header,
            url: request.url,
            method: request.method,
        });
        done();
    });
    fastify.addHook('onSend', (request, reply, _payload, done) => {
        const chosen = request[REMEMBER];
        if (chosen) {
            // Fastify appends to the Set-Cookie the page itself may send (the browser identity).
            void reply.header('set-cookie', (0, cookie_1.stringifySetCookie)({
                name: exports.LANGUAGE_COOKIE,
                value: chosen,
                path: '/',
                maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS,
                sameSite: 'lax',
                httpOnly: true,
                secure: options.secure,
            }));
        }
        done();
    });
}
/** The request's PageLanguage; NO_PAGE_LANGUAGE (English) for a request outside the pages. */
function pageLanguageOf(request) {
    return request?.[PAGE_LANGUAGE] ?? exports.NO_PAGE_LANGUAGE;
}
/** The page request's language, for page handlers: `@RequestPageLanguage() language: PageLanguage`. */
exports.RequestPageLanguage = (0, common_1.createParamDecorator)((_, context) => pageLanguageOf(context.switchToHttp().getRequest()));
/** The address of the current page in `locale`: its path and query with `lang` set. */
function pageUrlIn(url, locale) {
    const parsed = new URL(url, 'http://page.invalid');
    parsed.searchParams.set('lang', locale);
    return `${parsed.pathname}${parsed.search}`;
}
//# sourceMappingURL=page-language.js.map
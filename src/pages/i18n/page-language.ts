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
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DEFAULT_LOCALE,
  type Locale,
  negotiateLocale,
  supportedLocale,
} from '../../common/i18n/locales';

/** The browser's chosen language (not a secret, not tied to anyone: only a language code). */
export const LANGUAGE_COOKIE = 'checkin_lang';
const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** What a page request asks to remember, kept on the request for the `onSend` hook. */
const REMEMBER = Symbol('rememberLanguage');
/** The page request's PageLanguage, kept on the request by the `onRequest` hook. */
const PAGE_LANGUAGE = Symbol('pageLanguage');
type PageLanguageRequest = FastifyRequest & {
  [REMEMBER]?: Locale;
  [PAGE_LANGUAGE]?: PageLanguage;
};

/** What a page request says about its language. */
export interface PageLanguageSources {
  /** `?lang=`, as sent. */
  query: string | null;
  /** The language cookie, as sent. */
  cookie: string | null;
  acceptLanguage: string | undefined;
  /** The request's path and query, for the language switcher's links. */
  url: string;
  method: string;
}

/**
 * The language of one page request. One per request (the `onRequest` hook makes it): it learns
 * the participant the page is about (participantLanguage) and negotiates once, on the first read.
 */
export class PageLanguage {
  /** The saved language of the participant the page is about, once the page knows them. */
  private participant: string | null | undefined;
  /** Negotiated once, on the first read (the page models read it many times). */
  private negotiated: Locale | undefined;

  /** `sources`: null outside a page request (English, nothing to save, no switcher). */
  constructor(private readonly sources: PageLanguageSources | null) {}

  /** The page's language (English outside a page request). */
  locale(): Locale {
    const sources = this.sources;
    if (!sources) return DEFAULT_LOCALE;
    this.negotiated ??= negotiateLocale({
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
  participantLanguage(saved: string | null): Locale | null {
    const sources = this.sources;
    if (!sources) return null;
    this.participant = saved;
    this.negotiated = undefined;
    const query = supportedLocale(sources.query);
    if (query) return query === saved ? null : query;
    if (saved !== null) return null;
    return supportedLocale(sources.cookie);
  }

  /**
   * The address of the page being answered, for the language switcher: the request's path and
   * query when it is a GET (a page that can be loaded again); null for a form's answer (a POST,
   * whose result pages link back to their page) and outside a page request.
   */
  reloadablePageUrl(): string | null {
    const sources = this.sources;
    return sources && (sources.method === 'GET' || sources.method === 'HEAD') ? sources.url : null;
  }
}

/**
 * Outside a page request (the API, or a page service called by a test): English, nothing to
 * save for the participant, no switcher. It never changes.
 */
export const NO_PAGE_LANGUAGE = new PageLanguage(null);

/**
 * Gives every request under `prefixes` its PageLanguage, and remembers a language chosen with
 * `?lang=` in the browser (`secure`: the cookie is sent over https only).
 */
export function installPageLanguage(
  fastify: FastifyInstance,
  prefixes: readonly string[],
  options: { secure: boolean },
): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!prefixes.some((prefix) => request.url.startsWith(prefix))) return done();
    const header = request.headers['accept-language'];
    let query: string | null = null;
    try {
      query = new URL(request.url, 'http://page.invalid').searchParams.get('lang');
    } catch {
      // An address the URL parser refuses: no ?lang=, the page answers it as it would.
    }
    let cookie: string | null = null;
    try {
      cookie = parseCookie(request.headers.cookie ?? '')[LANGUAGE_COOKIE] ?? null;
    } catch {
      // A cookie header the parser refuses: no remembered language.
    }
    const chosen = supportedLocale(query);
    if (chosen && chosen !== supportedLocale(cookie)) {
      (request as PageLanguageRequest)[REMEMBER] = chosen;
    }
    (request as PageLanguageRequest)[PAGE_LANGUAGE] = new PageLanguage({
      query,
      cookie,
      acceptLanguage: header,
      url: request.url,
      method: request.method,
    });
    done();
  });
  fastify.addHook('onSend', (request, reply, _payload, done) => {
    const chosen = (request as PageLanguageRequest)[REMEMBER];
    if (chosen) {
      // Fastify appends to the Set-Cookie the page itself may send (the browser identity).
      void reply.header(
        'set-cookie',
        stringifySetCookie({
          name: LANGUAGE_COOKIE,
          value: chosen,
          path: '/',
          maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS,
          sameSite: 'lax',
          httpOnly: true,
          secure: options.secure,
        }),
      );
    }
    done();
  });
}

/** The request's PageLanguage; NO_PAGE_LANGUAGE (English) for a request outside the pages. */
export function pageLanguageOf(request: PageLanguageRequest | undefined): PageLanguage {
  return request?.[PAGE_LANGUAGE] ?? NO_PAGE_LANGUAGE;
}

/** The page request's language, for page handlers: `@RequestPageLanguage() language: PageLanguage`. */
export const RequestPageLanguage = createParamDecorator(
  (_: unknown, context: ExecutionContext): PageLanguage =>
    pageLanguageOf(context.switchToHttp().getRequest<FastifyRequest>()),
);

/** The address of the current page in `locale`: its path and query with `lang` set. */
export function pageUrlIn(url: string, locale: Locale): string {
  const parsed = new URL(url, 'http://page.invalid');
  parsed.searchParams.set('lang', locale);
  return `${parsed.pathname}${parsed.search}`;
}

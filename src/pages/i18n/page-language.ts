/**
 * The language of the participant page a request asks for (docs/i18n.md). A Fastify `onRequest`
 * hook runs every request under the participant pages' prefixes inside an AsyncLocalStorage
 * holding what the request says (`?lang=`, the language cookie, `Accept-Language`, its
 * address); the page services, the renderer and the HTML error filter read the language from it,
 * so no handler passes it along. Requests elsewhere (the API) have none and read English.
 *
 * A language chosen with `?lang=` is remembered in this browser (the `checkin_lang` cookie, a
 * year), so the answers to its forms and the pages after them stay in it, and for the participant
 * the page is about (`participants.language`, pageParticipantLanguage), so their other browsers
 * and their mails follow it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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
type RememberingRequest = FastifyRequest & { [REMEMBER]?: Locale };

interface PageRequest {
  /** `?lang=`, as sent. */
  query: string | null;
  /** The language cookie, as sent. */
  cookie: string | null;
  /** The saved language of the participant the page is about, once the page knows them. */
  participant?: string | null;
  acceptLanguage: string | undefined;
  /** The request's path and query, for the language switcher's links. */
  url: string;
  method: string;
  /** Negotiated once, on the first read (the page models read it many times). */
  locale?: Locale;
}

const storage = new AsyncLocalStorage<PageRequest>();

/**
 * Runs every request under `prefixes` with its page language context, and remembers a language
 * chosen with `?lang=` in the browser (`secure`: the cookie is sent over https only).
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
      (request as RememberingRequest)[REMEMBER] = chosen;
    }
    storage.run(
      { query, cookie, acceptLanguage: header, url: request.url, method: request.method },
      done,
    );
  });
  fastify.addHook('onSend', (request, reply, _payload, done) => {
    const chosen = (request as RememberingRequest)[REMEMBER];
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

/** The current page request's language (English outside one). */
export function pageLocale(): Locale {
  const request = storage.getStore();
  if (!request) return DEFAULT_LOCALE;
  request.locale ??= negotiateLocale({
    query: request.query,
    saved: request.participant,
    remembered: request.cookie,
    acceptLanguage: request.acceptLanguage,
  });
  return request.locale;
}

/**
 * The page is about a participant whose saved language is `saved` (null: never chosen): it now
 * comes after `?lang=` and before the browser's own choices. Answers the language to save for
 * them, when this request chose one (docs/i18n.md): a `?lang=` other than the saved one, or,
 * with nothing saved yet, the language this browser remembers. `Accept-Language` is never saved:
 * it says what a browser reads, not what the person chose (and would be whoever opened the link
 * first). Null outside a page request or when there is nothing to save.
 */
export function pageParticipantLanguage(saved: string | null): Locale | null {
  const request = storage.getStore();
  if (!request) return null;
  request.participant = saved;
  request.locale = undefined;
  const query = supportedLocale(request.query);
  if (query) return query === saved ? null : query;
  if (saved !== null) return null;
  return supportedLocale(request.cookie);
}

/**
 * The address of the page being answered, for the language switcher: the request's path and
 * query when it is a GET (a page that can be loaded again); null for a form's answer (a POST,
 * whose result pages link back to their page) and outside a page request.
 */
export function reloadablePageUrl(): string | null {
  const request = storage.getStore();
  return request && (request.method === 'GET' || request.method === 'HEAD') ? request.url : null;
}

/** The address of the current page in `locale`: its path and query with `lang` set. */
export function pageUrlIn(url: string, locale: Locale): string {
  const parsed = new URL(url, 'http://page.invalid');
  parsed.searchParams.set('lang', locale);
  return `${parsed.pathname}${parsed.search}`;
}

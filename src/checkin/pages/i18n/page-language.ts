/**
 * The language of the participant page a request asks for (docs/i18n.md). A Fastify `onRequest`
 * hook runs every request under the participant pages' prefixes inside an AsyncLocalStorage
 * holding what the request says (`?lang=`, `Accept-Language`, its address); the page services,
 * the renderer and the HTML error filter read the language from it, so no handler passes it
 * along. Requests elsewhere (the API) have none and read English.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_LOCALE, type Locale, negotiateLocale } from './locales';

interface PageRequest {
  /** `?lang=`, as sent. */
  query: string | null;
  acceptLanguage: string | undefined;
  /** The request's path and query, for the language switcher's links. */
  url: string;
  method: string;
}

const storage = new AsyncLocalStorage<PageRequest>();

/** Runs every request under `prefixes` with its page language context. */
export function installPageLanguage(fastify: FastifyInstance, prefixes: readonly string[]): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!prefixes.some((prefix) => request.url.startsWith(prefix))) return done();
    const header = request.headers['accept-language'];
    let query: string | null = null;
    try {
      query = new URL(request.url, 'http://page.invalid').searchParams.get('lang');
    } catch {
      // An address the URL parser refuses: no ?lang=, the page answers it as it would.
    }
    storage.run({ query, acceptLanguage: header, url: request.url, method: request.method }, done);
  });
}

/** The current page request's language (English outside one). */
export function pageLocale(): Locale {
  const request = storage.getStore();
  if (!request) return DEFAULT_LOCALE;
  return negotiateLocale({ query: request.query, acceptLanguage: request.acceptLanguage });
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

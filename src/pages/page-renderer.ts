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
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import type { PageLanguage } from './i18n/page-language';
import { PageContext, PageModels, PageName, renderPage } from './page-templates';

export const PAGE_CONTENT_TYPE = 'text/html; charset=utf-8';

/**
 * Headers of every participant page, error pages and redirects included. The token is in the
 * address, so it must not leak: no caching, no Referer (not to the analysis engine, not to the
 * return URL), no framing. The pages run no script and load nothing; forms post only to us (and
 * the engine's origin, should the hand-off ever become a form).
 */
export function pageHeaders(engineUrl: string | null): Record<string, string> {
  const formAction = ["'self'", ...(engineUrl ? [new URL(engineUrl).origin] : [])].join(' ');
  return {
    'content-type': PAGE_CONTENT_TYPE,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      `default-src 'none'; style-src 'self' 'unsafe-inline'; form-action ${formAction}; ` +
      `base-uri 'none'; frame-ancestors 'none'`,
  };
}

/**
 * Turns page models into responses. Handlers return a web `Response`, whose status and headers
 * Nest sends as they are: one return type for pages (200), redirects (302/303) and anything else
 * a page may need, with no branching in controllers.
 */
@Injectable()
export class PageRenderer {
  readonly headers: Readonly<Record<string, string>>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.headers = pageHeaders(config.checkin.engineUrl);
  }

  /** A page in the request's language (`language`), with its switcher when a GET loads it. */
  page<N extends PageName>(
    name: N,
    model: PageModels[N],
    language: PageLanguage,
    status = 200,
  ): Response {
    return new Response(renderPage(name, model, PageRenderer.contextOf(language)), {
      status,
      headers: this.pageHeaders(language),
    });
  }

  /** What a page answered to this request is rendered for (renderPage). */
  static contextOf(language: PageLanguage): PageContext {
    return { locale: language.locale(), url: language.reloadablePageUrl() };
  }

  /** The headers of a page answered now: these, and the language it is written in. */
  pageHeaders(language: PageLanguage): Record<string, string> {
    return { ...this.headers, 'content-language': language.locale() };
  }

  /** A JSON file to save (`Content-Disposition: attachment`), with the pages' other headers. */
  attachment(filename: string, value: unknown): Response {
    return new Response(`${JSON.stringify(value, null, 2)}\n`, {
      status: 200,
      headers: {
        ...this.headers,
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${filename}"`,
      },
    });
  }

  redirect(location: string, status: 302 | 303): Response {
    return new Response(null, { status, headers: { ...this.headers, location } });
  }
}

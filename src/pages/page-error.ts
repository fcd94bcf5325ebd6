import { PageErrorKind } from './pages.messages';

/**
 * An expected failure on a participant page: the HTML filter answers it with `status` and the
 * catalogued page for `kind` (pages.messages.ts), with a link back when one helps.
 */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly kind: PageErrorKind,
    readonly backHref: string | null = null,
  ) {
    super(kind);
    this.name = 'PageError';
  }

  /** Bad, forged or expired token; unknown session; deleted group or membership. */
  static notFound(): PageError {
    return new PageError(404, 'not-found');
  }
}

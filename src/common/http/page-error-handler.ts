import type { ExceptionFilter } from '@nestjs/common';

/**
 * Errors raised before a route's own filters run (an oversized or unparsable body, an unknown
 * path) reach the global filter. For the participant pages they must still be HTML: the pages
 * module provides this handler and the global filter hands such requests to it.
 */
export const PAGE_ERROR_HANDLER = Symbol('PAGE_ERROR_HANDLER');

export interface PageErrorHandler extends ExceptionFilter {
  /** Whether this request path belongs to the participant pages. */
  handles(path: string): boolean;
}

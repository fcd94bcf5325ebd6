import { ArgumentsHost, Catch, ExceptionFilter, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { logUnexpected, toErrorResponse } from '../common/http/error-response';
import { PageErrorHandler } from '../common/http/page-error-handler';
import { isParticipantPagePath } from '../participant-links/link-paths';
import { pageLanguageOf } from './i18n/page-language';
import { PageError } from './page-error';
import { PageRenderer } from './page-renderer';
import { renderPage } from './page-templates';
import { PageErrorKind, pageErrorsIn } from './pages.messages';

export interface PageFailure {
  status: number;
  kind: PageErrorKind;
  backHref: string | null;
  headers: Record<string, string>;
  /** Ours (a bug or an outage): logged with the request id, never detailed to the participant. */
  unexpected: boolean;
}

/** Which error page answers an exception (pure). Statuses follow the API's error mapping. */
export function pageFailureFor(exception: unknown): PageFailure {
  if (exception instanceof PageError) {
    const { status, kind, backHref } = exception;
    return { status, kind, backHref, headers: {}, unexpected: false };
  }
  const { status, headers, unexpected } = toErrorResponse(exception);
  const kind: PageErrorKind =
    status === 404
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
@Catch()
@Injectable()
export class HtmlPageExceptionFilter implements ExceptionFilter, PageErrorHandler {
  private readonly logger = new Logger('CheckinPages');

  constructor(private readonly renderer: PageRenderer) {}

  handles(path: string): boolean {
    return isParticipantPagePath(path);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const failure = pageFailureFor(exception);
    if (failure.unexpected) logUnexpected(this.logger, request, exception, failure.status);
    if (reply.sent) return;
    const language = pageLanguageOf(request);
    const page = renderPage(
      'error',
      { ...pageErrorsIn(language.locale())[failure.kind], backHref: failure.backHref },
      PageRenderer.contextOf(language),
    );
    void reply
      .status(failure.status)
      .headers({ ...failure.headers, ...this.renderer.pageHeaders(language) })
      .send(page);
  }
}

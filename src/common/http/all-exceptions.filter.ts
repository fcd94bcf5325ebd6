import { ArgumentsHost, Catch, ExceptionFilter, Inject, Logger, Optional } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { CommonErrors } from '../errors/common.errors';
import { markDeliberateAnswer } from '../logging/logger-options';
import { logUnexpected, toErrorResponse } from './error-response';
import { PAGE_ERROR_HANDLER, type PageErrorHandler } from './page-error-handler';

/**
 * The one exception filter (registered as APP_FILTER): every non-2xx answer is
 * `{"error": "<message>"}`. Unexpected errors are logged with the request id and answered with
 * a generic 500; their details never reach the client. A 5xx answered on purpose (the 503 of
 * /health while draining) is marked so the access log writes it as a plain answer.
 * Participant-page paths are answered with an HTML error page instead (PAGE_ERROR_HANDLER),
 * whatever raised the error.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  constructor(@Optional() @Inject(PAGE_ERROR_HANDLER) private readonly pages?: PageErrorHandler) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (this.pages?.handles(request.url)) {
      this.pages.catch(exception, host);
      return;
    }
    // On no route at all (Fastify's not-found route), whatever Fastify objected to first — a
    // QUERY without a Content-Type, say — the answer is that there is no such route.
    const response = toErrorResponse(
      request.is404 ? new ApiError(404, CommonErrors.NotFound) : exception,
    );
    if (response.unexpected) logUnexpected(this.logger, request, exception, response.status);
    else if (response.status >= 500) markDeliberateAnswer(reply.raw);
    void reply.status(response.status).headers(response.headers).send(response.body);
  }
}

import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response';

/**
 * The one exception filter (registered as APP_FILTER): every non-2xx answer is
 * `{"error": "<message>"}`. Unexpected errors are logged with the request id and answered with
 * a generic 500; their details never reach the client.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const response = toErrorResponse(exception);
    if (response.unexpected) {
      this.logger.error(
        {
          requestId: request.id,
          method: request.method,
          route: request.routeOptions?.url,
          err: exception,
        },
        `Unexpected error answered ${response.status}`,
      );
    }
    void reply.status(response.status).headers(response.headers).send(response.body);
  }
}

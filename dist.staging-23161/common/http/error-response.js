"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toErrorResponse = toErrorResponse;
exports.logUnexpected = logUnexpected;
/**
 * Maps anything thrown while serving a request to the `{"error": …}` contract (docs/api.md).
 * Used by the Nest exception filter and by Fastify's own error handler (errors raised before a
 * request reaches Nest, such as an oversized body), so both speak the same envelope.
 */
const common_1 = require("@nestjs/common");
const api_error_1 = require("../errors/api-error");
const common_errors_1 = require("../errors/common.errors");
/** Error codes that mean PostgreSQL (or the pool) is unreachable rather than the query is wrong. */
const DATABASE_UNAVAILABLE_CODES = new Set([
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EHOSTUNREACH',
    'ENOTFOUND',
    'EAI_AGAIN',
    '57P01', // admin_shutdown
    '57P02', // crash_shutdown
    '57P03', // cannot_connect_now
    '08000',
    '08001',
    '08003',
    '08004',
    '08006',
]);
function isDatabaseUnavailable(error) {
    if (!(error instanceof Error))
        return false;
    const code = error.code;
    if (typeof code === 'string' && DATABASE_UNAVAILABLE_CODES.has(code))
        return true;
    return /timeout exceeded when trying to connect|Connection terminated/i.test(error.message);
}
const respond = (status, error, headers = {}, unexpected = false) => ({ status, body: { error }, headers, unexpected });
function toErrorResponse(error) {
    if (error instanceof api_error_1.ApiError)
        return respond(error.status, error.message, error.headers);
    if (error instanceof common_1.HttpException) {
        const status = error.getStatus();
        return respond(status, (0, common_errors_1.messageForStatus)(status), {}, status >= 500);
    }
    if (isDatabaseUnavailable(error)) {
        return respond(503, common_errors_1.CommonErrors.ServiceUnavailable, { 'retry-after': '5' }, true);
    }
    // Errors Fastify raises itself carry a 4xx statusCode (FST_ERR_CTP_BODY_TOO_LARGE → 413, …).
    const statusCode = error?.statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
        return respond(statusCode, (0, common_errors_1.messageForStatus)(statusCode));
    }
    return respond(500, common_errors_1.CommonErrors.InternalServerError, {}, true);
}
/** Logs an error that is ours (a bug or an outage) with the request it failed, never its body. */
function logUnexpected(logger, request, exception, status) {
    logger.error({
        requestId: request.id,
        method: request.method,
        route: request.routeOptions?.url,
        err: exception,
    }, `Unexpected error answered ${status}`);
}
//# sourceMappingURL=error-response.js.map
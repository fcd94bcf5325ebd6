"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.AllExceptionsFilter = void 0;
const common_1 = require("@nestjs/common");
const api_error_1 = require("../errors/api-error");
const common_errors_1 = require("../errors/common.errors");
const logger_options_1 = require("../logging/logger-options");
const error_response_1 = require("./error-response");
const page_error_handler_1 = require("./page-error-handler");
/**
 * The one exception filter (registered as APP_FILTER): every non-2xx answer is
 * `{"error": "<message>"}`. Unexpected errors are logged with the request id and answered with
 * a generic 500; their details never reach the client. A 5xx answered on purpose (the 503 of
 * /health while draining) is marked so the access log writes it as a plain answer.
 * Participant-page paths are answered with an HTML error page instead (PAGE_ERROR_HANDLER),
 * whatever raised the error.
 */
let AllExceptionsFilter = class AllExceptionsFilter {
    pages;
    logger = new common_1.Logger('HttpError');
    constructor(pages) {
        this.pages = pages;
    }
    catch(exception, host) {
        const http = host.switchToHttp();
        const reply = http.getResponse();
        const request = http.getRequest();
        if (this.pages?.handles(request.url)) {
            this.pages.catch(exception, host);
            return;
        }
        // On no route at all (Fastify's not-found route), whatever Fastify objected to first — a
        // QUERY without a Content-Type, say — the answer is that there is no such route.
        const response = (0, error_response_1.toErrorResponse)(request.is404 ? new api_error_1.ApiError(404, common_errors_1.CommonErrors.NotFound) : exception);
        if (response.unexpected)
            (0, error_response_1.logUnexpected)(this.logger, request, exception, response.status);
        else if (response.status >= 500)
            (0, logger_options_1.markDeliberateAnswer)(reply.raw);
        void reply.status(response.status).headers(response.headers).send(response.body);
    }
};
exports.AllExceptionsFilter = AllExceptionsFilter;
exports.AllExceptionsFilter = AllExceptionsFilter = __decorate([
    (0, common_1.Catch)(),
    __param(0, (0, common_1.Optional)()),
    __param(0, (0, common_1.Inject)(page_error_handler_1.PAGE_ERROR_HANDLER)),
    __metadata("design:paramtypes", [Object])
], AllExceptionsFilter);
//# sourceMappingURL=all-exceptions.filter.js.map
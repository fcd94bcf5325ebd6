"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ApiError = void 0;
/**
 * A client-facing error: an HTTP status and one of the catalogued messages. The global filter
 * writes it as `{"error": message}`. Modules keep their messages in `<module>.errors.ts`.
 */
class ApiError extends Error {
    status;
    headers;
    constructor(status, message, 
    /** Extra response headers, e.g. Retry-After. */
    headers = {}) {
        super(message);
        this.status = status;
        this.headers = headers;
        this.name = 'ApiError';
    }
    static badRequest(message) {
        return new ApiError(400, message);
    }
}
exports.ApiError = ApiError;
//# sourceMappingURL=api-error.js.map
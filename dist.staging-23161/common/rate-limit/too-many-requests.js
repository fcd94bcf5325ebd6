"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.tooManyRequests = void 0;
const api_error_1 = require("../errors/api-error");
const common_errors_1 = require("../errors/common.errors");
/**
 * 429 `{"error":"Too many requests"}` with Retry-After in seconds, for every rate limit (per key
 * and per client address); both exception filters (JSON, and the pages' HTML) send the error's
 * headers.
 */
const tooManyRequests = (retryAfterSeconds) => new api_error_1.ApiError(429, common_errors_1.CommonErrors.TooManyRequests, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
});
exports.tooManyRequests = tooManyRequests;
//# sourceMappingURL=too-many-requests.js.map
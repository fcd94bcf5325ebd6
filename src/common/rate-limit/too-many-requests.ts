import { ApiError } from '../errors/api-error';
import { CommonErrors } from '../errors/common.errors';

/**
 * 429 `{"error":"Too many requests"}` with Retry-After in seconds, for every rate limit (per key
 * and per client address); both exception filters (JSON, and the pages' HTML) send the error's
 * headers.
 */
export const tooManyRequests = (retryAfterSeconds: number): ApiError =>
  new ApiError(429, CommonErrors.TooManyRequests, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

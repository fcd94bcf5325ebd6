/**
 * Messages shared by every module (docs/api.md). Spec strings are byte for byte; the others are
 * the wording docs/api.md fixes where the spec is silent.
 */
export const CommonErrors = {
  Unauthorized: 'Unauthorized',
  InvalidJsonBody: 'Invalid JSON body',
  PayloadTooLarge: 'Payload too large',
  UnsupportedMediaType: 'Unsupported media type',
  NotFound: 'Not found',
  /** The operations port only (docs/operations.md). */
  MethodNotAllowed: 'Method not allowed',
  TooManyRequests: 'Too many requests',
  ServiceUnavailable: 'Service unavailable',
  InternalServerError: 'Internal server error',
  BadRequest: 'Bad request',
} as const;

/** `You are missing the path parameter <name>` (spec wording). */
export const missingPathParameter = (name: string): string =>
  `You are missing the path parameter ${name}`;
/** `You are missing the body parameter <name>` (spec wording). */
export const missingBodyParameter = (name: string): string =>
  `You are missing the body parameter ${name}`;
/** `<name> must be a number` / `<name> must be a string` (spec wording). */
export const mustBeNumber = (name: string): string => `${name} must be a number`;
export const mustBeString = (name: string): string => `${name} must be a string`;

/** Canonical message for a status the framework raises by itself. */
export function messageForStatus(status: number): string {
  switch (status) {
    case 400:
      return CommonErrors.BadRequest;
    case 401:
      return CommonErrors.Unauthorized;
    case 404:
    case 405:
      return CommonErrors.NotFound;
    case 413:
      return CommonErrors.PayloadTooLarge;
    case 415:
      return CommonErrors.UnsupportedMediaType;
    case 429:
      return CommonErrors.TooManyRequests;
    case 503:
      return CommonErrors.ServiceUnavailable;
    default:
      return status >= 500 ? CommonErrors.InternalServerError : CommonErrors.BadRequest;
  }
}

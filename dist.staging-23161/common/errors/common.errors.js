"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.mustBeString = exports.mustBeNumber = exports.missingBodyParameter = exports.missingPathParameter = exports.CommonErrors = void 0;
exports.messageForStatus = messageForStatus;
/**
 * Messages shared by every module (docs/api.md). Spec strings are byte for byte; the others are
 * the wording docs/api.md fixes where the spec is silent.
 */
exports.CommonErrors = {
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
};
/** `You are missing the path parameter <name>` (spec wording). */
const missingPathParameter = (name) => `You are missing the path parameter ${name}`;
exports.missingPathParameter = missingPathParameter;
/** `You are missing the body parameter <name>` (spec wording). */
const missingBodyParameter = (name) => `You are missing the body parameter ${name}`;
exports.missingBodyParameter = missingBodyParameter;
/** `<name> must be a number` / `<name> must be a string` (spec wording). */
const mustBeNumber = (name) => `${name} must be a number`;
exports.mustBeNumber = mustBeNumber;
const mustBeString = (name) => `${name} must be a string`;
exports.mustBeString = mustBeString;
/** Canonical message for a status the framework raises by itself. */
function messageForStatus(status) {
    switch (status) {
        case 400:
            return exports.CommonErrors.BadRequest;
        case 401:
            return exports.CommonErrors.Unauthorized;
        case 404:
        case 405:
            return exports.CommonErrors.NotFound;
        case 413:
            return exports.CommonErrors.PayloadTooLarge;
        case 415:
            return exports.CommonErrors.UnsupportedMediaType;
        case 429:
            return exports.CommonErrors.TooManyRequests;
        case 503:
            return exports.CommonErrors.ServiceUnavailable;
        default:
            return status >= 500 ? exports.CommonErrors.InternalServerError : exports.CommonErrors.BadRequest;
    }
}
//# sourceMappingURL=common.errors.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PAGE_ERROR_HANDLER = void 0;
/**
 * Errors raised before a route's own filters run (an oversized or unparsable body, an unknown
 * path) reach the global filter. For the participant pages they must still be HTML: the pages
 * module provides this handler and the global filter hands such requests to it.
 */
exports.PAGE_ERROR_HANDLER = Symbol('PAGE_ERROR_HANDLER');
//# sourceMappingURL=page-error-handler.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PageError = void 0;
/**
 * An expected failure on a participant page: the HTML filter answers it with `status` and the
 * catalogued page for `kind` (pages.messages.ts), with a link back when one helps.
 */
class PageError extends Error {
    status;
    kind;
    backHref;
    constructor(status, kind, backHref = null) {
        super(kind);
        this.status = status;
        this.kind = kind;
        this.backHref = backHref;
        this.name = 'PageError';
    }
    /** Bad, forged or expired token; unknown session; deleted group or membership. */
    static notFound() {
        return new PageError(404, 'not-found');
    }
}
exports.PageError = PageError;
//# sourceMappingURL=page-error.js.map
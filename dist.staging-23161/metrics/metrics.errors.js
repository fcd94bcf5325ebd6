"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.GROUP_BY = exports.MetricsErrors = void 0;
/** Metrics' messages: docs/api.md's wording (the spec gives none for query parameters). */
exports.MetricsErrors = {
    FromInvalid: "Invalid 'from' date. Please make sure to use the format YYYY-MM-DD.",
    ToInvalid: "Invalid 'to' date. Please make sure to use the format YYYY-MM-DD.",
    GroupByInvalid: "Invalid 'groupBy' value. Should be one of ['day', 'week', 'month'].",
    TopInvalid: "Invalid 'top' value. Should be a positive integer.",
    AccuracyInvalid: "Invalid 'accuracy' value. Should be one of ['true', 'false'].",
    RangeInvalid: "Invalid date range. 'from' must not be after 'to'.",
};
exports.GROUP_BY = ['day', 'week', 'month'];
//# sourceMappingURL=metrics.errors.js.map
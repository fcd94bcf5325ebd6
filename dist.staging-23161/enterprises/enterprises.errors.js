"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EnterpriseErrors = void 0;
const privacy_model_1 = require("../common/privacy-model");
/** Operator-facing messages (CLI). */
exports.EnterpriseErrors = {
    NameRequired: 'An enterprise needs a non-empty --name',
    NotFound: (enterpriseId) => `No enterprise with id ${enterpriseId}`,
    KeyPrefixNotFound: (prefix) => `No API key with prefix ${prefix}`,
    FloorMissing: 'Give --scores N, --words N, --speakers N, --budget E, --window month|week, --max-margin M, or several of them',
    FloorInvalid: (option, value) => `${option} must be a whole number from ${privacy_model_1.PRIVACY_FLOOR.min} to ${privacy_model_1.PRIVACY_FLOOR.max}, not ${JSON.stringify(value)}`,
    BudgetInvalid: (option, value) => `${option} must be a number from 1 to 100 with at most two decimals, not ${JSON.stringify(value)}`,
    WindowInvalid: (value) => `--window must be month or week, not ${JSON.stringify(value)}`,
};
//# sourceMappingURL=enterprises.errors.js.map
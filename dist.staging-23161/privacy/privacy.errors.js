"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PrivacyErrors = void 0;
/** Privacy requests' client-facing messages (spec strings, byte for byte, typo included). */
const common_errors_1 = require("../common/errors/common.errors");
exports.PrivacyErrors = {
    RequestedPrivacyLevelMissing: (0, common_errors_1.missingBodyParameter)('requestedPrivacyLevel'),
    RequestedPrivacyLevelInvalid: "Invalid requestedPrivacyLevel. Should be an array with elements in ['mhci', 'groupPerecntiles', 'userPercentiles', 'transcript', 'features'].",
};
//# sourceMappingURL=privacy.errors.js.map
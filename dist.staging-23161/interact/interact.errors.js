"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAIL_TYPES = exports.EMAIL_TYPES = exports.InteractErrors = void 0;
/** Emails' client-facing messages (spec strings, byte for byte). */
const common_errors_1 = require("../common/errors/common.errors");
exports.InteractErrors = {
    EmailTypeMissing: (0, common_errors_1.missingBodyParameter)('emailType'),
    EmailTypeInvalid: "Invalid email type. Should be one of ['checkinReminder', 'privacyRequest'].",
};
exports.EMAIL_TYPES = ['checkinReminder', 'privacyRequest'];
/**
 * Every mail the service sends: the two an enterprise can request, and the security notice a
 * participant gets when their privacy level rises (docs/privacy.md; not subject to preferences).
 */
exports.MAIL_TYPES = [...exports.EMAIL_TYPES, 'privacyNotice'];
//# sourceMappingURL=interact.errors.js.map
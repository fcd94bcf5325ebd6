"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.GROUP_NAME_MAX_LENGTH = exports.GroupErrors = void 0;
/**
 * Groups' client-facing messages. Spec strings are byte for byte, typos included (POST /groups
 * really says "path parameter groupName"); the rest are docs/api.md's wording.
 */
const common_errors_1 = require("../common/errors/common.errors");
exports.GroupErrors = {
    GroupIdMissing: (0, common_errors_1.missingPathParameter)('groupID'),
    GroupIdNotNumber: 'groupID must be a number',
    GroupNameMissing: (0, common_errors_1.missingPathParameter)('groupName'),
    GroupNameNotString: (0, common_errors_1.mustBeString)('groupName'),
    GroupNameEmpty: 'groupName must not be empty',
    GroupNameTooLong: 'groupName must be at most 200 characters',
    ConsentRequiredInvalid: "consentRequired must be 'true' or 'false'",
    NotFound: 'Group not found',
    NotAssociated: "Group doesn't exist in associated groups",
};
exports.GROUP_NAME_MAX_LENGTH = 200;
//# sourceMappingURL=groups.errors.js.map
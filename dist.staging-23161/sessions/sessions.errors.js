"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SESSION_CREATED_MESSAGE = exports.SessionErrorPatterns = exports.SessionErrors = void 0;
/** Sessions' client-facing messages: the spec's strings byte for byte, then our own (docs/api.md). */
const common_errors_1 = require("../common/errors/common.errors");
const message_pattern_1 = require("../common/errors/message-pattern");
const ids_1 = require("../common/ids");
const examples_1 = require("../common/swagger/examples");
exports.SessionErrors = {
    SessionIdMissing: (0, common_errors_1.missingPathParameter)('sessionID'),
    NotFound: 'Session not found',
    GroupIdMissing: (0, common_errors_1.missingBodyParameter)('groupID'),
    GroupIdNotNumber: (0, common_errors_1.mustBeNumber)('groupID'),
    GroupKeyMissing: (0, common_errors_1.missingBodyParameter)('groupKey'),
    GroupKeyNotString: (0, common_errors_1.mustBeString)('groupKey'),
    UserIdentifierMissing: (0, common_errors_1.missingBodyParameter)('userIdentifier'),
    UserIdentifierNotString: (0, common_errors_1.mustBeString)('userIdentifier'),
    ReturnUrlMissing: (0, common_errors_1.missingBodyParameter)('returnURL'),
    ReturnUrlNotString: (0, common_errors_1.mustBeString)('returnURL'),
    ReturnUrlNotHttps: 'returnURL must be an HTTPS address',
    GroupNotFound: 'Group not found',
    InvalidGroupKey: 'Invalid groupKey',
    IdentifierInvalid: 'We require email for new users or ok_ id for existing users',
    NotInGroup: (externalId, groupId) => `User ${externalId} is not part of group ${groupId}`,
    AlreadyExists: (externalId) => `This user already exists for the email and groupID provided, their externalID is ${externalId}`,
    IdempotencyKeyReused: 'Idempotency-Key reused with a different request',
    IdempotencyKeyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
};
/** What the messages' placeholders stand for: an existing participant's id, an existing group's. */
const EXTERNAL_ID = {
    pattern: (0, ids_1.idPatternSource)(ids_1.ID_FORMATS.externalId),
    example: examples_1.EXAMPLE_IDS.externalId,
};
const GROUP_ID = { pattern: '[1-9][0-9]*', example: String(examples_1.EXAMPLE_IDS.groupId) };
/**
 * The messages above that name a value, as the OpenAPI document describes them: the spec's
 * templates byte for byte, the values as patterns (src/sessions/sessions.errors.spec.ts checks
 * that the messages answered match them).
 */
exports.SessionErrorPatterns = {
    NotInGroup: (0, message_pattern_1.messagePattern)('User <externalID> is not part of group <groupID>', {
        externalID: EXTERNAL_ID,
        groupID: GROUP_ID,
    }),
    AlreadyExists: (0, message_pattern_1.messagePattern)('This user already exists for the email and groupID provided, their externalID is <externalID>', { externalID: EXTERNAL_ID }),
};
exports.SESSION_CREATED_MESSAGE = 'Redirect URL generated successfully.';
//# sourceMappingURL=sessions.errors.js.map
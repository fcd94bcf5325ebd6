"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ParticipantErrors = void 0;
/** Participants' client-facing messages (spec strings, byte for byte). */
const common_errors_1 = require("../common/errors/common.errors");
exports.ParticipantErrors = {
    ExternalIdMissing: (0, common_errors_1.missingPathParameter)('externalID'),
    NotFound: 'Participant not found',
};
//# sourceMappingURL=participants.errors.js.map
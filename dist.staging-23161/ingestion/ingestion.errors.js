"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RESULT_BODY_ERRORS = exports.IngestionErrors = void 0;
/** Messages of the analysis engine's ingestion endpoint (internal; docs/checkin-flow.md wording). */
const common_errors_1 = require("../common/errors/common.errors");
exports.IngestionErrors = {
    VersionMissing: (0, common_errors_1.missingBodyParameter)('version'),
    VersionNotString: (0, common_errors_1.mustBeString)('version'),
    VersionFormat: 'version must look like v<major>.<minor>.<patch>',
    MhciMissing: (0, common_errors_1.missingBodyParameter)('mhci'),
    MhciInvalid: 'mhci must be a number between 0 and 100',
    SubscoresMissing: (0, common_errors_1.missingBodyParameter)('subscores'),
    SubscoresInvalid: 'subscores must be an object with numbers between 0 and 100 for vision, audio, transcript and assessment',
    TranscriptMissing: (0, common_errors_1.missingBodyParameter)('transcript'),
    TranscriptInvalid: "transcript must be an array of {role, content} with role 'assistant' or 'user' and content a string",
    FeaturesMissing: (0, common_errors_1.missingBodyParameter)('features'),
    FeaturesInvalid: 'features must be an object of at most 500 names (letters, digits, _ . -, up to 64 characters) mapping to finite numbers',
    CompletedAtInvalid: 'Invalid completedAt',
    HandoffInvalid: 'handoff must be the hand-off token from the engine address (43 characters)',
    SessionNotFound: 'Session not found',
    DifferentResult: 'A different result was already recorded for this session',
    ConsentMissing: 'The participant has not consented to this check-in',
    HandoffMismatch: 'The handoff token is not the current hand-off of this session',
    SandboxSession: 'This session belongs to a sandbox enterprise: no analysis result is recorded for it',
};
/** A result body's 400 messages, in the order its fields are checked (ingestion and the sandbox). */
exports.RESULT_BODY_ERRORS = [
    exports.IngestionErrors.VersionMissing,
    exports.IngestionErrors.VersionNotString,
    exports.IngestionErrors.VersionFormat,
    exports.IngestionErrors.MhciMissing,
    exports.IngestionErrors.MhciInvalid,
    exports.IngestionErrors.SubscoresMissing,
    exports.IngestionErrors.SubscoresInvalid,
    exports.IngestionErrors.TranscriptMissing,
    exports.IngestionErrors.TranscriptInvalid,
    exports.IngestionErrors.FeaturesMissing,
    exports.IngestionErrors.FeaturesInvalid,
    exports.IngestionErrors.CompletedAtInvalid,
    exports.IngestionErrors.HandoffInvalid,
];
//# sourceMappingURL=ingestion.errors.js.map
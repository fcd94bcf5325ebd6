"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PENDING_VERSION = void 0;
exports.sessionView = sessionView;
/**
 * What an enterprise sees of a session (spec "Session", docs/privacy.md): the fields the privacy model
 * reveals at the level in force now for the session's membership; level 0 while the result is
 * pending.
 */
const privacy_model_1 = require("../common/privacy-model");
exports.PENDING_VERSION = 'v0.0.0';
/**
 * Objects are stored as jsonb, which reorders keys (shortest first). Answers use a stable,
 * readable order instead: subscores as the spec lists them, name maps alphabetically.
 */
const inSpecOrder = (s) => ({
    vision: s.vision,
    audio: s.audio,
    transcript: s.transcript,
    assessment: s.assessment,
});
const byName = (map) => {
    const sorted = {};
    if (map)
        for (const name of Object.keys(map).sort())
            sorted[name] = map[name];
    return sorted;
};
/** How each field of the resource is read from the stored session. */
const FIELD_VALUES = {
    externalID: (session) => session.externalId,
    sessionID: (session) => session.sessionId,
    timestamp: (session) => (session.completedAt ?? session.createdAt).toISOString(),
    groupID: (session) => session.groupId,
    version: (session) => session.version ?? exports.PENDING_VERSION,
    mhci: (session) => session.mhci ?? undefined,
    subscores: (session) => (session.subscores ? inSpecOrder(session.subscores) : undefined),
    groupPercentiles: (session) => byName(session.groupPercentiles),
    userPercentiles: (session) => byName(session.userPercentiles),
    // Removed by retention (TRANSCRIPT_RETENTION_DAYS), or sealed under a key this process lacks:
    // an empty conversation, as the spec's type is an array.
    transcript: (session, open) => (session.transcript === null
        ? null
        : open(session.transcript, 'transcript')) ?? [],
    features: (session, open) => byName(session.features === null
        ? null
        : open(session.features, 'features')),
};
const hasResult = (session) => session.completedAt !== null && session.mhci !== null;
function sessionView(session, open) {
    const view = {};
    for (const field of (0, privacy_model_1.sessionFieldsAt)(hasResult(session) ? session.privacyLevel : 0)) {
        view[field] = FIELD_VALUES[field](session, open);
    }
    return view;
}
//# sourceMappingURL=session-view.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withSavedFlag = exports.checkinDonePath = exports.checkinFormPath = exports.settingsPath = exports.checkinPath = void 0;
exports.engineHandoffUrl = engineHandoffUrl;
/**
 * Addresses within the participant pages (form actions, redirects, `/done`). Paths are relative
 * to this service, so redirects and form actions stay on the host the participant reached; the
 * base paths come from ParticipantLinks' own (link-paths.ts).
 */
const link_paths_1 = require("../participant-links/link-paths");
Object.defineProperty(exports, "checkinPath", { enumerable: true, get: function () { return link_paths_1.checkinPath; } });
Object.defineProperty(exports, "settingsPath", { enumerable: true, get: function () { return link_paths_1.settingsPath; } });
const checkinFormPath = (token, form) => `${(0, link_paths_1.checkinPath)(token)}/${form}`;
exports.checkinFormPath = checkinFormPath;
const checkinDonePath = (token) => `${(0, link_paths_1.checkinPath)(token)}/done`;
exports.checkinDonePath = checkinDonePath;
/** The page address with the confirmation flag of the form just saved (post/redirect/get). */
const withSavedFlag = (path, form) => `${path}${path.includes('?') ? '&' : '?'}saved=${form}`;
exports.withSavedFlag = withSavedFlag;
/**
 * The analysis engine's address for a hand-off (docs/checkin-flow.md, "Hand-off"): `ENGINE_URL`
 * with `sessionID` and the one-time `handoff` token added, and `confirmed=1` once the browser that
 * handed off passed the confirm step.
 */
function engineHandoffUrl(engineUrl, sessionId, handoff, confirmed = false) {
    const url = new URL(engineUrl);
    url.searchParams.set('sessionID', sessionId);
    url.searchParams.set('handoff', handoff);
    if (confirmed)
        url.searchParams.set('confirmed', '1');
    return url.toString();
}
//# sourceMappingURL=page-links.js.map
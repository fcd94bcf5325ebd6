"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.unsubscribePath = exports.settingsPath = exports.checkinPath = exports.PARTICIPANT_PAGE_PREFIXES = exports.UNSUBSCRIBE_PATH = exports.SETTINGS_PATH = exports.CHECKIN_PATH_PREFIX = void 0;
exports.isParticipantPagePath = isParticipantPagePath;
/**
 * Where the participant pages live. Paths are relative to this service; the token is always
 * URL-encoded (it is base64url and dots, so encoding changes nothing today, but links stay valid
 * whatever the token's alphabet).
 */
exports.CHECKIN_PATH_PREFIX = '/checkin';
exports.SETTINGS_PATH = '/participant/settings';
exports.UNSUBSCRIBE_PATH = '/participant/unsubscribe';
/** Path prefixes of every participant page (HTML answers, form bodies accepted). */
exports.PARTICIPANT_PAGE_PREFIXES = [`${exports.CHECKIN_PATH_PREFIX}/`, '/participant/'];
/**
 * Whether a request URL (path and query) belongs to the participant pages: `/checkin`,
 * `/participant` or anything below them. Every answer there, errors included, is an HTML page.
 */
function isParticipantPagePath(url) {
    const path = url.split('?', 1)[0];
    return exports.PARTICIPANT_PAGE_PREFIXES.some((prefix) => path.startsWith(prefix) || path === prefix.slice(0, -1));
}
const checkinPath = (token) => `${exports.CHECKIN_PATH_PREFIX}/${encodeURIComponent(token)}`;
exports.checkinPath = checkinPath;
const settingsPath = (token, form) => `${exports.SETTINGS_PATH}${form ? `/${form}` : ''}?token=${encodeURIComponent(token)}`;
exports.settingsPath = settingsPath;
const unsubscribePath = (token) => `${exports.UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;
exports.unsubscribePath = unsubscribePath;
//# sourceMappingURL=link-paths.js.map
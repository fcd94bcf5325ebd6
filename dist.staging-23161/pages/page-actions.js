"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withCookie = withCookie;
exports.adoptParticipantLanguage = adoptParticipantLanguage;
exports.found = found;
exports.applyPrivacyLevel = applyPrivacyLevel;
exports.applyEmailPreferences = applyEmailPreferences;
const page_error_1 = require("./page-error");
const page_forms_1 = require("./page-forms");
/** The response, with the browser cookies set that this request minted (browser-binding.ts). */
function withCookie(response, setCookie) {
    for (const cookie of setCookie)
        response.headers.append('set-cookie', cookie);
    return response;
}
/**
 * The page is about this participant: their saved language now comes before the browser's (in
 * `language`, the request's), and a language this request chose is kept for them (docs/i18n.md).
 */
async function adoptParticipantLanguage(choices, participant, language) {
    const chosen = language.participantLanguage(participant.language);
    if (chosen)
        await choices.keepLanguage(participant.participantId, chosen);
}
/** A change that found no row: the membership went away (its group was deleted) meanwhile. */
function found(changed) {
    if (!changed)
        throw page_error_1.PageError.notFound();
}
/** The privacy level the form chose; an invalid one is a 400 page leading back to `backHref`. */
async function applyPrivacyLevel(choices, member, form, backHref, via, reach = {}) {
    const level = (0, page_forms_1.parsePrivacyLevel)(form);
    if (level === null)
        throw new page_error_1.PageError(400, 'invalid-privacy-level', backHref);
    found(await choices.setPrivacyLevel(member, level, via, reach));
}
async function applyEmailPreferences(choices, member, form, via, sessionId) {
    found(await choices.setEmailPreferences(member, (0, page_forms_1.parseEmailPreferences)(form), via, sessionId));
}
//# sourceMappingURL=page-actions.js.map
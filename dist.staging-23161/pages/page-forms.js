"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseShareEarlier = void 0;
exports.parsePrivacyLevel = parsePrivacyLevel;
exports.parseEmailPreferences = parseEmailPreferences;
exports.parseSavedFlag = parseSavedFlag;
/**
 * The participant pages' form fields (application/x-www-form-urlencoded, parsed into a plain
 * object by request-body.ts). Pure: each returns the field's value or null when it is invalid.
 */
const privacy_model_1 = require("../common/privacy-model");
const pages_messages_1 = require("./pages.messages");
const field = (form, name) => form !== null && typeof form === 'object' && Object.hasOwn(form, name) ? form[name] : undefined;
/** `privacyLevel`: one decimal digit from 0 to 5 (a form sends strings); otherwise null. */
function parsePrivacyLevel(form) {
    const value = field(form, 'privacyLevel');
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^\d$/.test(text))
        return null;
    const level = Number(text);
    return level >= privacy_model_1.MIN_PRIVACY_LEVEL && level <= privacy_model_1.MAX_PRIVACY_LEVEL ? level : null;
}
const CHECKED = new Set(['on', 'true', '1', 'yes', true]);
/** Checkboxes: a checked box is sent (as `on`), an unchecked one is absent, which means false. */
function parseEmailPreferences(form) {
    return {
        checkinReminder: CHECKED.has(field(form, 'checkinReminder')),
        privacyRequest: CHECKED.has(field(form, 'privacyRequest')),
    };
}
/** `shareEarlier`: the "Also share my earlier check-ins done in this browser" box, unticked = false. */
const parseShareEarlier = (form) => CHECKED.has(field(form, 'shareEarlier'));
exports.parseShareEarlier = parseShareEarlier;
/** The `?saved=` confirmation flag of a page address; anything unknown is ignored. */
function parseSavedFlag(value) {
    return typeof value === 'string' && Object.hasOwn(pages_messages_1.SAVED_MESSAGES, value)
        ? value
        : null;
}
//# sourceMappingURL=page-forms.js.map
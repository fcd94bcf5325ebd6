"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.hashApiKey = exports.apiKeyPrefix = exports.API_KEY_PREFIX_LENGTH = exports.API_KEY_PATTERN = exports.WEBHOOK_ID_PATTERN = exports.SESSION_ID_PATTERN = exports.EXTERNAL_ID_PATTERN = exports.newWebhookId = exports.newEventId = exports.newSessionId = exports.newExternalId = exports.newInviteCode = exports.newGroupKey = exports.newApiKey = exports.idPattern = exports.idPatternSource = exports.newId = exports.ID_FORMATS = exports.LOWER_ALPHANUMERIC = exports.BASE62 = void 0;
exports.randomString = randomString;
/**
 * Identifier and secret generation (docs/design.md). Every random part comes from
 * crypto.randomBytes; base62 strings use rejection sampling so each character is uniform.
 */
const node_crypto_1 = require("node:crypto");
const secrets_1 = require("./crypto/secrets");
exports.BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
exports.LOWER_ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
/**
 * Every generated identifier's format, in one table (docs/design.md). The benchmark's data generator
 * reads it too (with its own seeded randomness), so seeded rows look exactly like ours.
 */
exports.ID_FORMATS = {
    apiKey: { prefix: 'ck_', length: 40, alphabet: exports.BASE62 },
    groupKey: { prefix: 'gk_', length: 32, alphabet: exports.BASE62 },
    inviteCode: { prefix: '', length: 13, alphabet: exports.LOWER_ALPHANUMERIC },
    externalId: { prefix: 'ok_', length: 48, alphabet: HEX },
    sessionId: { prefix: 'ses_', length: 24, alphabet: exports.BASE62 },
    eventId: { prefix: 'evt_', length: 48, alphabet: HEX },
    webhookId: { prefix: 'we_', length: 24, alphabet: exports.BASE62 },
};
/** A uniformly random string of `length` characters drawn from `alphabet` (≤ 256 symbols). */
function randomString(length, alphabet) {
    // Largest multiple of the alphabet size that fits in a byte: bytes above it are rejected.
    const limit = 256 - (256 % alphabet.length);
    let out = '';
    while (out.length < length) {
        for (const byte of (0, node_crypto_1.randomBytes)(Math.ceil((length - out.length) * 1.3) + 4)) {
            if (byte < limit)
                out += alphabet[byte % alphabet.length];
            if (out.length === length)
                break;
        }
    }
    return out;
}
/** A new random identifier of `format`. */
const newId = (format) => format.prefix + randomString(format.length, format.alphabet);
exports.newId = newId;
/** The regular expression of an identifier of `format`, unanchored (to embed in another). */
const idPatternSource = (format) => `${format.prefix}[${format.alphabet}]{${format.length}}`;
exports.idPatternSource = idPatternSource;
/** The pattern every identifier of `format` matches. */
const idPattern = (format) => new RegExp(`^${(0, exports.idPatternSource)(format)}$`);
exports.idPattern = idPattern;
const newApiKey = () => (0, exports.newId)(exports.ID_FORMATS.apiKey);
exports.newApiKey = newApiKey;
const newGroupKey = () => (0, exports.newId)(exports.ID_FORMATS.groupKey);
exports.newGroupKey = newGroupKey;
const newInviteCode = () => (0, exports.newId)(exports.ID_FORMATS.inviteCode);
exports.newInviteCode = newInviteCode;
const newExternalId = () => (0, exports.newId)(exports.ID_FORMATS.externalId);
exports.newExternalId = newExternalId;
const newSessionId = () => (0, exports.newId)(exports.ID_FORMATS.sessionId);
exports.newSessionId = newSessionId;
const newEventId = () => (0, exports.newId)(exports.ID_FORMATS.eventId);
exports.newEventId = newEventId;
const newWebhookId = () => (0, exports.newId)(exports.ID_FORMATS.webhookId);
exports.newWebhookId = newWebhookId;
exports.EXTERNAL_ID_PATTERN = (0, exports.idPattern)(exports.ID_FORMATS.externalId);
exports.SESSION_ID_PATTERN = (0, exports.idPattern)(exports.ID_FORMATS.sessionId);
exports.WEBHOOK_ID_PATTERN = (0, exports.idPattern)(exports.ID_FORMATS.webhookId);
exports.API_KEY_PATTERN = (0, exports.idPattern)(exports.ID_FORMATS.apiKey);
/** Length of the public, non-secret part of an API key shown in listings (`ck_` + 8). */
exports.API_KEY_PREFIX_LENGTH = 11;
const apiKeyPrefix = (apiKey) => apiKey.slice(0, exports.API_KEY_PREFIX_LENGTH);
exports.apiKeyPrefix = apiKeyPrefix;
/** Only this hash of an API key is ever stored (hex-encoded SHA-256). */
const hashApiKey = (apiKey) => (0, secrets_1.sha256Hex)(apiKey);
exports.hashApiKey = hashApiKey;
//# sourceMappingURL=ids.js.map
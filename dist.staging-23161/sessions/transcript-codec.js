"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sealJson = sealJson;
exports.openJson = openJson;
exports.openSessionJson = openSessionJson;
exports.sealTranscript = sealTranscript;
exports.openTranscript = openTranscript;
const sealed_reads_1 = require("../common/crypto/sealed-reads");
/** The stored form of a value: its JSON, encrypted under the newest data key. */
function sealJson(cipher, value) {
    return cipher.encrypt(JSON.stringify(value));
}
/** The value of a stored JSON. */
function openJson(cipher, stored) {
    return JSON.parse(cipher.decrypt(stored));
}
/**
 * The value of a session's stored JSON (`sessions.<column>`: transcript, features, word counts),
 * or null when this process's keys cannot open it: it reads as removed (docs/data-at-rest.md,
 * "Data the keys cannot open").
 */
function openSessionJson(cipher, column, stored) {
    return (0, sealed_reads_1.openSealedJson)(cipher, `sessions.${column}`, stored);
}
/** The stored form of a transcript: its JSON, encrypted under the newest data key. */
function sealTranscript(cipher, turns) {
    return cipher.encrypt(JSON.stringify(turns.map(({ role, content }) => ({ role, content }))));
}
/** The turns of a stored transcript. */
function openTranscript(cipher, stored) {
    return openJson(cipher, stored);
}
//# sourceMappingURL=transcript-codec.js.map
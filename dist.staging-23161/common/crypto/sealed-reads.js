"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.openSealed = openSealed;
exports.openSealedJson = openSealedJson;
/**
 * Reading a sealed value that this process cannot open (docs/data-at-rest.md, "Data the keys
 * cannot open"): after a restore started without the keys that sealed it, or a data key retired
 * before `data:reencrypt` moved its values. Such a value reads as removed — what retention leaves
 * (a transcript `[]`, features `{}`, an event's email `null`) — instead of failing the request or
 * the sweep that reads it, and the process says so in a warn line naming the column and the key
 * id, never the value or a key. It logs that once per column and key id: the start-up check
 * (data-at-rest/sealed-data-check.ts) reports how many values each one holds.
 */
const common_1 = require("@nestjs/common");
const pii_cipher_1 = require("./pii-cipher");
const logger = new common_1.Logger('DataKeys');
const warned = new Set();
/**
 * The plaintext of `stored`, a value of `column` (`table.column`), or null when its key is not
 * configured or does not open it. Any other failure (not a ciphertext of ours) still throws.
 */
function openSealed(cipher, column, stored) {
    try {
        return cipher.decrypt(stored);
    }
    catch (error) {
        if (!(error instanceof pii_cipher_1.UnopenableValueError))
            throw error;
        const once = `${column} ${error.keyId}`;
        if (!warned.has(once)) {
            warned.add(once);
            logger.warn(`${column}: a value under data key ${error.keyId} cannot be opened: ${error.message}; ` +
                'it reads as removed (docs/data-at-rest.md). Logged once per column and key id.');
        }
        return null;
    }
}
/** The value of a sealed JSON (`openSealed`), or null when it cannot be opened. */
function openSealedJson(cipher, column, stored) {
    const text = openSealed(cipher, column, stored);
    return text === null ? null : JSON.parse(text);
}
//# sourceMappingURL=sealed-reads.js.map
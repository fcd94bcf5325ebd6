"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.normaliseEmail = exports.PiiCipher = exports.KeyMismatchError = exports.RetiredKeyError = exports.UnopenableValueError = void 0;
/**
 * Personal data at rest (docs/data-at-rest.md). Emails, webhook secrets and transcripts are encrypted
 * with AES-256-GCM under a key derived (HKDF-SHA256) from one of the configured data keys, and
 * emails are found through an HMAC-SHA256 of the normalised email under a key derived from
 * DATA_ENCRYPTION_KEY, so equal emails match without the table holding any email.
 *
 * Key ids and rotation: every ciphertext is `v2.<key id>.<base64url(iv | tag | ciphertext)>`
 * (the `v2.<key id>` prefix is authenticated as associated data). New ciphertexts use the newest
 * key; older ones decrypt while their key is configured; a removed key's ciphertexts fail with
 * `RetiredKeyError`, and a value sealed by another key of the same id with `KeyMismatchError`
 * (both `UnopenableValueError`). `k0` is DATA_ENCRYPTION_KEY.
 *
 * The look-up hash is not rotated with the data keys: it is a look-up key (participants are
 * found by it, and a unique constraint holds one identity per email), so a new hash key would
 * need every hash recomputed from the decrypted emails at once. It stays derived from
 * DATA_ENCRYPTION_KEY, which therefore stays configured.
 */
const node_crypto_1 = require("node:crypto");
const VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The key id of the root key (`DATA_ENCRYPTION_KEY`): config's SINGLE_KEY_ID. */
const ROOT_KEY_ID = 'k0';
/**
 * A stored value this process cannot open with the keys it has: after a restore without the
 * right keys, or a key retired too early (docs/data-at-rest.md, "Data the keys cannot open").
 * The message names the key id, never the key or the value.
 */
class UnopenableValueError extends Error {
    keyId;
    constructor(keyId, message) {
        super(message);
        this.keyId = keyId;
    }
}
exports.UnopenableValueError = UnopenableValueError;
/** The ciphertext names a key that is no longer configured (or never was). */
class RetiredKeyError extends UnopenableValueError {
    constructor(keyId) {
        super(keyId, `the data key ${keyId} is not configured (retired?)`);
        this.name = 'RetiredKeyError';
    }
}
exports.RetiredKeyError = RetiredKeyError;
/**
 * The ciphertext names a configured key id, but that key does not open it: the key of that id is
 * not the one it was sealed with (a restore started with another DATA_ENCRYPTION_KEY), or the
 * value was altered. AES-GCM cannot tell the two apart.
 */
class KeyMismatchError extends UnopenableValueError {
    constructor(keyId) {
        super(keyId, `the configured data key ${keyId} does not open it (another key sealed it)`);
        this.name = 'KeyMismatchError';
    }
}
exports.KeyMismatchError = KeyMismatchError;
const derive = (key, info) => Buffer.from((0, node_crypto_1.hkdfSync)('sha256', key, Buffer.alloc(0), info, 32));
class PiiCipher {
    /** Encryption keys by id; the first entry is the newest. */
    keys = new Map();
    newestKeyId;
    lookupKey;
    fingerprintKey;
    /**
     * @param rootKey DATA_ENCRYPTION_KEY: the look-up hash key and the data key `k0`
     * @param newerKeys DATA_ENCRYPTION_KEYS, newest first (new ciphertexts use the first)
     */
    constructor(rootKey, newerKeys = []) {
        for (const { id, key } of [...newerKeys, { id: ROOT_KEY_ID, key: rootKey }]) {
            if (key.length !== 32)
                throw new Error(`the data key ${id} must be 32 bytes`);
            if (this.keys.has(id))
                throw new Error(`the data key id ${id} is configured twice`);
            this.keys.set(id, derive(key, 'checkin/pii-encryption/v1'));
        }
        this.newestKeyId = newerKeys[0]?.id ?? ROOT_KEY_ID;
        this.lookupKey = derive(rootKey, 'checkin/email-lookup/v1');
        this.fingerprintKey = derive(rootKey, 'checkin/request-fingerprint/v1');
    }
    /** From the configuration's ring (newest first, `k0` last). */
    static fromKeys(rootKey, dataKeys) {
        return new PiiCipher(rootKey, dataKeys.filter((entry) => entry.id !== ROOT_KEY_ID));
    }
    /** The key id new ciphertexts carry. */
    get currentKeyId() {
        return this.newestKeyId;
    }
    /** `v2.<key id>.<base64url(iv | tag | ciphertext)>`, under the newest key; a fresh IV each time. */
    encrypt(plaintext) {
        const prefix = `${VERSION}.${this.newestKeyId}`;
        const iv = (0, node_crypto_1.randomBytes)(IV_BYTES);
        const cipher = (0, node_crypto_1.createCipheriv)('aes-256-gcm', this.keys.get(this.newestKeyId), iv);
        cipher.setAAD(Buffer.from(prefix));
        const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
        const sealed = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
        return `${prefix}.${sealed.toString('base64url')}`;
    }
    /**
     * Throws `RetiredKeyError` when the value's key is not configured, `KeyMismatchError` when it
     * was not produced by the configured key of its id (or was tampered with), and an Error when it
     * is not a ciphertext of ours.
     */
    decrypt(value) {
        const parts = value.split('.');
        if (parts.length !== 3 || parts[0] !== VERSION)
            throw new Error('unknown ciphertext format');
        const [, keyId, body] = parts;
        const key = this.keys.get(keyId);
        if (!key)
            throw new RetiredKeyError(keyId);
        const sealed = Buffer.from(body, 'base64url');
        if (sealed.length < IV_BYTES + TAG_BYTES)
            throw new Error('truncated ciphertext');
        const iv = sealed.subarray(0, IV_BYTES);
        const tag = sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
        const decipher = (0, node_crypto_1.createDecipheriv)('aes-256-gcm', key, iv);
        decipher.setAAD(Buffer.from(`${VERSION}.${keyId}`));
        decipher.setAuthTag(tag);
        try {
            return Buffer.concat([
                decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)),
                decipher.final(),
            ]).toString('utf8');
        }
        catch {
            // The authentication tag does not verify under this key.
            throw new KeyMismatchError(keyId);
        }
    }
    /** The key id a ciphertext names, or null when it is not one of ours. */
    static keyIdOf(value) {
        const parts = value.split('.');
        if (parts.length === 3 && parts[0] === VERSION)
            return parts[1];
        return null;
    }
    /**
     * A keyed fingerprint of a request that holds personal data (an idempotent session creation
     * names an email): equal requests compare equal, and the stored value cannot be tested against
     * guesses without the key, as a plain SHA-256 could.
     */
    requestFingerprint(text) {
        return (0, node_crypto_1.createHmac)('sha256', this.fingerprintKey).update(text, 'utf8').digest('hex');
    }
    /** Look-up hash of an email (normalise it first with `normaliseEmail`). */
    emailLookupHash(normalisedEmail) {
        return (0, node_crypto_1.createHmac)('sha256', this.lookupKey).update(normalisedEmail, 'utf8').digest('hex');
    }
}
exports.PiiCipher = PiiCipher;
/** Emails compare case-insensitively and without surrounding spaces. */
const normaliseEmail = (email) => email.trim().toLowerCase();
exports.normaliseEmail = normaliseEmail;
//# sourceMappingURL=pii-cipher.js.map
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sha256Hex = exports.sha256 = void 0;
exports.sameSecret = sameSecret;
exports.presentsBearer = presentsBearer;
/**
 * Comparing secrets (API keys, group keys, bearer tokens) without leaking them through timing:
 * both sides are hashed first, so the comparison always covers 32 bytes whatever their lengths.
 */
const node_crypto_1 = require("node:crypto");
/** SHA-256 of a UTF-8 string (one-shot `crypto.hash`: no Hash object per call, every request). */
const sha256 = (value) => (0, node_crypto_1.hash)('sha256', value, 'buffer');
exports.sha256 = sha256;
/** Hex SHA-256 of a UTF-8 string (what is stored for API keys, request fingerprints). */
const sha256Hex = (value) => (0, node_crypto_1.hash)('sha256', value, 'hex');
exports.sha256Hex = sha256Hex;
/** Whether a presented secret equals the expected one, in constant time. */
function sameSecret(presented, expected) {
    const expectedDigest = typeof expected === 'string' ? (0, exports.sha256)(expected) : expected;
    return (0, node_crypto_1.timingSafeEqual)((0, exports.sha256)(presented), expectedDigest);
}
/** Whether an `Authorization` header is `Bearer <expected>` (the secret compared in constant time). */
function presentsBearer(authorization, expected) {
    const bearer = typeof authorization === 'string' ? /^Bearer (\S+)$/.exec(authorization) : null;
    return bearer !== null && sameSecret(bearer[1], expected);
}
//# sourceMappingURL=secrets.js.map
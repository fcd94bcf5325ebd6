"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.newHandoffToken = exports.HANDOFF_TOKEN = void 0;
/**
 * The one-time token of a hand-off to the analysis engine (docs/checkin-flow.md, "Hand-off"):
 * 32 random bytes, base64url, carried by the engine's address, the confirm step and the result.
 * Only its SHA-256 is stored (`sessions.handoff_token_hash`).
 */
const node_crypto_1 = require("node:crypto");
exports.HANDOFF_TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** A new hand-off token. */
const newHandoffToken = () => (0, node_crypto_1.randomBytes)(32).toString('base64url');
exports.newHandoffToken = newHandoffToken;
//# sourceMappingURL=handoff-token.js.map
/**
 * The one-time token of a hand-off to the analysis engine (docs/checkin-flow.md, "Hand-off"):
 * 32 random bytes, base64url, carried by the engine's address, the confirm step and the result.
 * Only its SHA-256 is stored (`sessions.handoff_token_hash`).
 */
import { randomBytes } from 'node:crypto';

export const HANDOFF_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new hand-off token. */
export const newHandoffToken = (): string => randomBytes(32).toString('base64url');

/**
 * What one person said or measured, at rest (docs/data-at-rest.md): `sessions.transcript` (the
 * turns), `sessions.features` and `sessions.word_counts` hold their JSON encrypted with the data
 * keys (PiiCipher: AES-256-GCM, `v2.<key id>.…`); so does an idempotency record's answer.
 */
import type { PiiCipher } from '../common/crypto/pii-cipher';
import { openSealedJson } from '../common/crypto/sealed-reads';
import type { TranscriptTurn } from './session.entity';

/** The stored form of a value: its JSON, encrypted under the newest data key. */
export function sealJson(cipher: PiiCipher, value: unknown): string {
  return cipher.encrypt(JSON.stringify(value));
}

/** The value of a stored JSON. */
export function openJson<T>(cipher: PiiCipher, stored: string): T {
  return JSON.parse(cipher.decrypt(stored)) as T;
}

/**
 * The value of a session's stored JSON (`sessions.<column>`: transcript, features, word counts),
 * or null when this process's keys cannot open it: it reads as removed (docs/data-at-rest.md,
 * "Data the keys cannot open").
 */
export function openSessionJson<T>(
  cipher: PiiCipher,
  column: 'transcript' | 'features' | 'word_counts',
  stored: string,
): T | null {
  return openSealedJson<T>(cipher, `sessions.${column}`, stored);
}

/** The stored form of a transcript: its JSON, encrypted under the newest data key. */
export function sealTranscript(cipher: PiiCipher, turns: readonly TranscriptTurn[]): string {
  return cipher.encrypt(JSON.stringify(turns.map(({ role, content }) => ({ role, content }))));
}

/** The turns of a stored transcript. */
export function openTranscript(cipher: PiiCipher, stored: string): TranscriptTurn[] {
  return openJson<TranscriptTurn[]>(cipher, stored);
}

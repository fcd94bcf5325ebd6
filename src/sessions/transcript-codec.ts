/**
 * Transcripts at rest (docs/data-at-rest.md): `sessions.transcript` holds the JSON of the turns encrypted
 * with the data keys (PiiCipher: AES-256-GCM, `v2.<key id>.…`). A value starting with `[` is a
 * transcript written before encryption (the migration turned the jsonb column into its JSON
 * text); it is read as it is until the workers' start-up pass (TranscriptEncryptionPass)
 * encrypts it.
 */
import type { PiiCipher } from '../common/crypto/pii-cipher';
import type { TranscriptTurn } from './session.entity';

/** Whether a stored transcript is still the plaintext JSON of before encryption. */
export const isPlaintextTranscript = (stored: string): boolean => stored.startsWith('[');

/** The stored form of a transcript: its JSON, encrypted under the newest data key. */
export function sealTranscript(cipher: PiiCipher, turns: readonly TranscriptTurn[]): string {
  return cipher.encrypt(JSON.stringify(turns.map(({ role, content }) => ({ role, content }))));
}

/** The turns of a stored transcript (encrypted or, until the pass has run, plaintext). */
export function openTranscript(cipher: PiiCipher, stored: string): TranscriptTurn[] {
  const json = isPlaintextTranscript(stored) ? stored : cipher.decrypt(stored);
  return JSON.parse(json) as TranscriptTurn[];
}

/**
 * Reading a sealed value that this process cannot open (docs/data-at-rest.md, "Data the keys
 * cannot open"): after a restore started without the keys that sealed it, or a data key retired
 * before `data:reencrypt` moved its values. Such a value reads as removed — what retention leaves
 * (a transcript `[]`, features `{}`, an event's email `null`) — instead of failing the request or
 * the sweep that reads it, and the process says so in a warn line naming the column and the key
 * id, never the value or a key. It logs that once per column and key id: the start-up check
 * (data-at-rest/sealed-data-check.ts) reports how many values each one holds.
 */
import { Logger } from '@nestjs/common';
import { PiiCipher, UnopenableValueError } from './pii-cipher';

const logger = new Logger('DataKeys');
const warned = new Set<string>();

/**
 * The plaintext of `stored`, a value of `column` (`table.column`), or null when its key is not
 * configured or does not open it. Any other failure (not a ciphertext of ours) still throws.
 */
export function openSealed(cipher: PiiCipher, column: string, stored: string): string | null {
  try {
    return cipher.decrypt(stored);
  } catch (error) {
    if (!(error instanceof UnopenableValueError)) throw error;
    const once = `${column} ${error.keyId}`;
    if (!warned.has(once)) {
      warned.add(once);
      logger.warn(
        `${column}: a value under data key ${error.keyId} cannot be opened: ${error.message}; ` +
          'it reads as removed (docs/data-at-rest.md). Logged once per column and key id.',
      );
    }
    return null;
  }
}

/** The value of a sealed JSON (`openSealed`), or null when it cannot be opened. */
export function openSealedJson<T>(cipher: PiiCipher, column: string, stored: string): T | null {
  const text = openSealed(cipher, column, stored);
  return text === null ? null : (JSON.parse(text) as T);
}

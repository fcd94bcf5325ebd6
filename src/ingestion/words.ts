/**
 * Word-cloud tokenising (docs/checkin-flow.md): participant turns only, lower-cased, letters only (any
 * script), English stopwords removed with the maintained `stopword` list. Apostrophes inside a
 * word are dropped first ("don't" → "dont") so contractions do not leave stray letters, and
 * one-letter tokens are ignored.
 */
import { eng } from 'stopword';

const STOPWORDS = new Set(eng);
const INNER_APOSTROPHE = /(\p{L})['’](\p{L})/gu;
const LETTERS = /\p{L}+/gu;

export function countWords(texts: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    const normalised = text.toLowerCase().replace(INNER_APOSTROPHE, '$1$2');
    for (const [word] of normalised.matchAll(LETTERS)) {
      if (word.length < 2 || STOPWORDS.has(word)) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return counts;
}

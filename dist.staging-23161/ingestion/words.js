"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.countWords = countWords;
/**
 * Word-cloud tokenising (docs/checkin-flow.md): participant turns only, lower-cased, letters only (any
 * script), English stopwords removed with the maintained `stopword` list. Apostrophes inside a
 * word are dropped first ("don't" → "dont") so contractions do not leave stray letters, and
 * one-letter tokens are ignored.
 */
const stopword_1 = require("stopword");
const STOPWORDS = new Set(stopword_1.eng);
const INNER_APOSTROPHE = /(\p{L})['’](\p{L})/gu;
const LETTERS = /\p{L}+/gu;
function countWords(texts) {
    const counts = new Map();
    for (const text of texts) {
        const normalised = text.toLowerCase().replace(INNER_APOSTROPHE, '$1$2');
        for (const [word] of normalised.matchAll(LETTERS)) {
            if (word.length < 2 || STOPWORDS.has(word))
                continue;
            counts.set(word, (counts.get(word) ?? 0) + 1);
        }
    }
    return counts;
}
//# sourceMappingURL=words.js.map
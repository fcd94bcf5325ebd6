"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.levelInWordsIn = exports.levelIndex = exports.catalogueFile = exports.CATALOGUE_DIR = void 0;
exports.translator = translator;
exports.allCatalogues = allCatalogues;
/**
 * The message catalogues (docs/i18n.md): one JSON file per language in `catalogues/`, ICU
 * MessageFormat, read once when the process starts (the build copies them next to the code, as
 * it does the templates). Plurals, selects and interpolation are `intl-messageformat`'s; a
 * message is compiled once per language, on first use.
 */
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const intl_messageformat_1 = require("intl-messageformat");
const locales_1 = require("./locales");
exports.CATALOGUE_DIR = (0, node_path_1.join)(__dirname, 'catalogues');
/** The file of a language's catalogue. */
const catalogueFile = (locale) => (0, node_path_1.join)(exports.CATALOGUE_DIR, `${locale}.json`);
exports.catalogueFile = catalogueFile;
function readCatalogue(locale) {
    return JSON.parse((0, node_fs_1.readFileSync)((0, exports.catalogueFile)(locale), 'utf8'));
}
const english = readCatalogue(locales_1.DEFAULT_LOCALE);
const translators = new Map();
/** The translator of `locale` (English for a key a catalogue lacks, which a test forbids). */
function translator(locale) {
    const known = translators.get(locale);
    if (known)
        return known;
    const messages = locale === locales_1.DEFAULT_LOCALE ? english : readCatalogue(locale);
    const compiled = new Map();
    const translate = (key, values) => {
        let format = compiled.get(key);
        if (!format) {
            const source = messages[key] ?? english[key];
            if (source === undefined)
                throw new Error(`No message ${key} in the catalogues`);
            format = new intl_messageformat_1.IntlMessageFormat(source, locale);
            compiled.set(key, format);
        }
        return String(format.format(values));
    };
    translators.set(locale, translate);
    return translate;
}
/** 0–5; anything else reads as 0 (the catalogues have a text per level). */
const levelIndex = (level) => Number.isInteger(level) && level >= 0 && level <= 5 ? level : 0;
exports.levelIndex = levelIndex;
/** What a privacy level shows, continuing a sentence ("…: all of level 3, and …"), in `locale`. */
const levelInWordsIn = (locale, level) => translator(locale)(`levelInWords${(0, exports.levelIndex)(level)}`);
exports.levelInWordsIn = levelInWordsIn;
/** Every language's catalogue as written (for the tests that compare them). */
function allCatalogues() {
    return Object.fromEntries(locales_1.LOCALES.map((locale) => [locale, readCatalogue(locale)]));
}
//# sourceMappingURL=catalogue.js.map
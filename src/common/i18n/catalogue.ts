/**
 * The message catalogues (docs/i18n.md): one JSON file per language in `catalogues/`, ICU
 * MessageFormat, read once when the process starts (the build copies them next to the code, as
 * it does the templates). Plurals, selects and interpolation are `intl-messageformat`'s; a
 * message is compiled once per language, on first use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IntlMessageFormat, type PrimitiveType } from 'intl-messageformat';
import { DEFAULT_LOCALE, LOCALES, type Locale } from './locales';

export const CATALOGUE_DIR = join(__dirname, 'catalogues');

/** The file of a language's catalogue. */
export const catalogueFile = (locale: Locale): string => join(CATALOGUE_DIR, `${locale}.json`);

function readCatalogue(locale: Locale): Record<string, string> {
  return JSON.parse(readFileSync(catalogueFile(locale), 'utf8')) as Record<string, string>;
}

const english = readCatalogue(DEFAULT_LOCALE);

/** A message of the catalogues (every language has exactly the English keys; a test says so). */
export type MessageKey = string;

export type MessageValues = Record<string, PrimitiveType>;

/** Formats one language's messages. */
export type Translate = (key: MessageKey, values?: MessageValues) => string;

const translators = new Map<Locale, Translate>();

/** The translator of `locale` (English for a key a catalogue lacks, which a test forbids). */
export function translator(locale: Locale): Translate {
  const known = translators.get(locale);
  if (known) return known;
  const messages = locale === DEFAULT_LOCALE ? english : readCatalogue(locale);
  const compiled = new Map<string, IntlMessageFormat>();
  const translate: Translate = (key, values) => {
    let format = compiled.get(key);
    if (!format) {
      const source = messages[key] ?? english[key];
      if (source === undefined) throw new Error(`No message ${key} in the catalogues`);
      format = new IntlMessageFormat(source, locale);
      compiled.set(key, format);
    }
    return String(format.format(values));
  };
  translators.set(locale, translate);
  return translate;
}

/** 0–5; anything else reads as 0 (the catalogues have a text per level). */
export const levelIndex = (level: number): number =>
  Number.isInteger(level) && level >= 0 && level <= 5 ? level : 0;

/**
 * The catalogue key of what a level shows (`stem` is `levelText` or `levelInWords`): level 5's
 * detailed features are her voice's and face's, or only her words' and answers' where the
 * enterprise's declared programme turns biometric inference off (`biometric` false,
 * docs/compliance.md).
 */
export const levelKey = (stem: string, level: number, biometric = true): string =>
  `${stem}${levelIndex(level)}${!biometric && levelIndex(level) === 5 ? 'Words' : ''}`;

/** What a privacy level shows, continuing a sentence ("…: all of level 3, and …"), in `locale`. */
export const levelInWordsIn = (locale: Locale, level: number, biometric = true): string =>
  translator(locale)(levelKey('levelInWords', level, biometric));

/** Every language's catalogue as written (for the tests that compare them). */
export function allCatalogues(): Record<Locale, Record<string, string>> {
  return Object.fromEntries(LOCALES.map((locale) => [locale, readCatalogue(locale)])) as Record<
    Locale,
    Record<string, string>
  >;
}

/**
 * The participant pages' languages and how a request's language is chosen (docs/i18n.md):
 * `?lang=`, then the participant's saved choice, then the browser's remembered choice, then
 * `Accept-Language`, then English.
 */
import Negotiator from 'negotiator';

/** Every language the pages and mails speak; a catalogue per code in `catalogues/`. */
export const LOCALES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'ja',
  'zh-Hans',
  'ar',
] as const;

export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** Each language's name in itself, for the switcher. */
export const LOCALE_NAMES: { readonly [L in Locale]: string } = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
  pl: 'Polski',
  sv: 'Svenska',
  ja: '日本語',
  'zh-Hans': '简体中文',
  ar: 'العربية',
};

const RIGHT_TO_LEFT: readonly Locale[] = ['ar'];

export const textDirection = (locale: Locale): 'ltr' | 'rtl' =>
  RIGHT_TO_LEFT.includes(locale) ? 'rtl' : 'ltr';

/** Chinese written in traditional characters: not `zh-Hans`, so not ours (yet). */
const TRADITIONAL_CHINESE = /^zh-(hant|tw|hk|mo)\b/;

/**
 * The supported language a BCP 47 tag asks for, or null: `de-CH` → `de`, `pt-BR` → `pt`,
 * `zh`, `zh-CN`, `zh-Hans-SG` → `zh-Hans` (but not `zh-Hant`, `zh-TW`), case-insensitive.
 */
export function supportedLocale(tag: unknown): Locale | null {
  if (typeof tag !== 'string' || tag.length > 35) return null;
  const lower = tag.trim().toLowerCase().replace(/_/g, '-');
  if (lower.startsWith('zh')) {
    return /^zh(-|$)/.test(lower) && !TRADITIONAL_CHINESE.test(lower) ? 'zh-Hans' : null;
  }
  const language = lower.split('-')[0];
  return LOCALES.find((locale) => locale === language) ?? null;
}

export interface LocaleSources {
  /** `?lang=` of the request. */
  query?: unknown;
  /** The participant's saved choice, when the page knows the participant. */
  saved?: string | null;
  /** The choice this browser remembers (the language cookie). */
  remembered?: string | null;
  /** The `Accept-Language` header. */
  acceptLanguage?: string | string[];
}

/**
 * The page's language: `?lang=`, the participant's saved choice, the browser's remembered one,
 * `Accept-Language` (by preference), English.
 */
export function negotiateLocale({
  query,
  saved,
  remembered,
  acceptLanguage,
}: LocaleSources): Locale {
  const chosen = supportedLocale(query) ?? supportedLocale(saved) ?? supportedLocale(remembered);
  if (chosen) return chosen;
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  if (header) {
    const preferred = new Negotiator({ headers: { 'accept-language': header } }).languages();
    for (const tag of preferred) {
      const locale = supportedLocale(tag);
      if (locale) return locale;
    }
  }
  return DEFAULT_LOCALE;
}

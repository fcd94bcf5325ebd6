"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.textDirection = exports.LOCALE_NAMES = exports.DEFAULT_LOCALE = exports.LOCALES = void 0;
exports.supportedLocale = supportedLocale;
exports.negotiateLocale = negotiateLocale;
/**
 * The participant pages' languages and how a request's language is chosen (docs/i18n.md):
 * `?lang=`, then the participant's saved choice, then the browser's remembered choice, then
 * `Accept-Language`, then English.
 */
const negotiator_1 = __importDefault(require("negotiator"));
/** Every language the pages and mails speak; a catalogue per code in `catalogues/`. */
exports.LOCALES = [
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
];
exports.DEFAULT_LOCALE = 'en';
/** Each language's name in itself, for the switcher. */
exports.LOCALE_NAMES = {
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
const RIGHT_TO_LEFT = ['ar'];
const textDirection = (locale) => RIGHT_TO_LEFT.includes(locale) ? 'rtl' : 'ltr';
exports.textDirection = textDirection;
/** Chinese written in traditional characters: not `zh-Hans`, so not ours (yet). */
const TRADITIONAL_CHINESE = /^zh-(hant|tw|hk|mo)\b/;
/**
 * The supported language a BCP 47 tag asks for, or null: `de-CH` → `de`, `pt-BR` → `pt`,
 * `zh`, `zh-CN`, `zh-Hans-SG` → `zh-Hans` (but not `zh-Hant`, `zh-TW`), case-insensitive.
 */
function supportedLocale(tag) {
    if (typeof tag !== 'string' || tag.length > 35)
        return null;
    const lower = tag.trim().toLowerCase().replace(/_/g, '-');
    if (lower.startsWith('zh')) {
        return /^zh(-|$)/.test(lower) && !TRADITIONAL_CHINESE.test(lower) ? 'zh-Hans' : null;
    }
    const language = lower.split('-')[0];
    return exports.LOCALES.find((locale) => locale === language) ?? null;
}
/**
 * The page's language: `?lang=`, the participant's saved choice, the browser's remembered one,
 * `Accept-Language` (by preference), English.
 */
function negotiateLocale({ query, saved, remembered, acceptLanguage, }) {
    const chosen = supportedLocale(query) ?? supportedLocale(saved) ?? supportedLocale(remembered);
    if (chosen)
        return chosen;
    const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
    if (header) {
        const preferred = new negotiator_1.default({ headers: { 'accept-language': header } }).languages();
        for (const tag of preferred) {
            const locale = supportedLocale(tag);
            if (locale)
                return locale;
        }
    }
    return exports.DEFAULT_LOCALE;
}
//# sourceMappingURL=locales.js.map
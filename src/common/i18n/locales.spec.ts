import { negotiateLocale, supportedLocale, textDirection } from './locales';

describe('the page language', () => {
  it('maps language tags to the supported languages', () => {
    expect(supportedLocale('de')).toBe('de');
    expect(supportedLocale('DE-ch')).toBe('de');
    expect(supportedLocale('pt-BR')).toBe('pt');
    expect(supportedLocale('zh')).toBe('zh-Hans');
    expect(supportedLocale('zh-CN')).toBe('zh-Hans');
    expect(supportedLocale('zh-Hans-SG')).toBe('zh-Hans');
    expect(supportedLocale('zh-Hant')).toBeNull();
    expect(supportedLocale('zh-TW')).toBeNull();
    expect(supportedLocale('tlh')).toBeNull();
    expect(supportedLocale('*')).toBeNull();
    expect(supportedLocale(['de'])).toBeNull();
    expect(supportedLocale('d'.repeat(100))).toBeNull();
  });

  it('is ?lang=, the participant’s choice, the browser’s, Accept-Language by preference, English', () => {
    const all = { query: 'ja', saved: 'fr', remembered: 'sv', acceptLanguage: 'de' };
    expect(negotiateLocale(all)).toBe('ja');
    expect(negotiateLocale({ ...all, query: 'xx' })).toBe('fr');
    expect(negotiateLocale({ ...all, query: null, saved: 'xx' })).toBe('sv');
    expect(negotiateLocale({ ...all, query: null, saved: null, remembered: null })).toBe('de');
    expect(negotiateLocale({ query: null, saved: null, acceptLanguage: 'de' })).toBe('de');
    expect(negotiateLocale({ acceptLanguage: 'tlh, fr-CH;q=0.8, de;q=0.9' })).toBe('de');
    expect(negotiateLocale({ acceptLanguage: 'zh-TW, zh;q=0.5' })).toBe('zh-Hans');
    expect(negotiateLocale({ acceptLanguage: '*' })).toBe('en');
    expect(negotiateLocale({ acceptLanguage: 'de;q=0' })).toBe('en');
    expect(negotiateLocale({})).toBe('en');
  });

  it('writes Arabic right to left, the others left to right', () => {
    expect(textDirection('ar')).toBe('rtl');
    expect(textDirection('he' as never)).toBe('ltr');
    expect(textDirection('ja')).toBe('ltr');
  });
});

/**
 * The catalogues (docs/i18n.md): every language has exactly English's messages, each parses as
 * ICU MessageFormat, uses the same values as English, and formats with every value a page gives.
 */
import { TYPE } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { allCatalogues, translator } from './catalogue';
import { LOCALES } from './locales';

type Element = ReturnType<IntlMessageFormat['getAst']>[number];

/** The names of the values a message uses (arguments, plurals, selects), sorted. */
function valuesOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (
        'value' in element &&
        element.type !== TYPE.literal &&
        typeof element.value === 'string'
      ) {
        names.add(element.value);
      }
      if ('options' in element) {
        for (const option of Object.values(element.options)) walk(option.value);
      }
    }
  };
  walk(new IntlMessageFormat(message, 'en').getAst());
  return [...names].sort();
}

const SAMPLE_VALUES = {
  groupName: 'Night shift',
  groupNames: 'Night shift, Day shift',
  requested: 3,
  requestedWords: '…',
  current: 1,
  currentWords: '…',
  level: 2,
  count: 3,
  from: 'on',
  to: 'off',
  emailType: 'checkinReminder',
  enterpriseName: 'Acme',
  operatorName: 'Wellbeing Services Ltd',
  levelWords: '…',
  days: 365,
  url: 'https://checkin.example/participant/settings?token=…',
  fromWords: '…',
  toWords: '…',
  number: 2,
  at: 'February 10, 2026 at 09:42 AM UTC',
};

describe('the message catalogues', () => {
  const catalogues = allCatalogues();
  const english = catalogues.en;

  it('exist for the 12 languages, with exactly the English keys in every one', () => {
    expect(Object.keys(catalogues)).toEqual([...LOCALES]);
    const differences = LOCALES.flatMap((locale) => {
      const keys = Object.keys(catalogues[locale]);
      return [
        ...Object.keys(english)
          .filter((key) => !keys.includes(key))
          .map((key) => `${locale} lacks ${key}`),
        ...keys.filter((key) => !(key in english)).map((key) => `${locale} has an extra ${key}`),
      ];
    });
    expect(differences).toEqual([]);
  });

  it('parse, use the same values as English, and format with a page’s values', () => {
    const problems: string[] = [];
    for (const locale of LOCALES) {
      for (const [key, message] of Object.entries(catalogues[locale])) {
        try {
          if (valuesOf(message).join() !== valuesOf(english[key]).join()) {
            problems.push(`${locale} ${key}: values ${valuesOf(message).join()}`);
          }
          const text = translator(locale)(key, SAMPLE_VALUES);
          if (text.trim() === '') problems.push(`${locale} ${key}: empty`);
        } catch (error) {
          problems.push(`${locale} ${key}: ${(error as Error).message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('are translated: no language but English repeats most English sentences', () => {
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const same = Object.keys(english).filter(
        (key) => catalogues[locale][key] === english[key] && english[key].length > 20,
      );
      expect({ locale, same }).toEqual({ locale, same: [] });
    }
  });

  it('pluralise by the language’s rules (the library’s, not ours)', () => {
    expect(translator('en')('shareEarlierLabel', { count: 1 })).toBe(
      'Also share my 1 earlier check-in done in this browser',
    );
    expect(translator('en')('shareEarlierLabel', { count: 2 })).toBe(
      'Also share my 2 earlier check-ins done in this browser',
    );
    const polish = (count: number) => translator('pl')('shareEarlierLabel', { count });
    expect(new Set([polish(2), polish(5), polish(22)]).size).toBe(3);
  });
});

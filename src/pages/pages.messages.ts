/**
 * Everything the participant pages say, by language: page titles, section texts, confirmations
 * and error pages. The words are in the message catalogues (src/common/i18n/catalogues/<language>.json, ICU
 * MessageFormat, docs/i18n.md); this file gives them the shape the page models and templates
 * use. `PageTexts`, `SAVED_MESSAGES` and `PAGE_ERRORS` are the English ones: code and tests import
 * these, nobody retypes them. Texts are data: the templates escape them like any other value.
 */

import { levelInWordsIn, levelKey, translator } from '../common/i18n/catalogue';
import { DEFAULT_LOCALE, type Locale } from '../common/i18n/locales';
import type { Jurisdiction, Purpose } from '../enterprises/programme/programme';

/** Built once per language. */
function perLocale<T>(build: (locale: Locale) => T): (locale: Locale) => T {
  const built = new Map<Locale, T>();
  return (locale) => {
    let value = built.get(locale);
    if (value === undefined) {
      value = build(locale);
      built.set(locale, value);
    }
    return value;
  };
}

/** `on` / `off` for a preference's value in the history. */
const onOff = (value: unknown) => (value ? 'on' : 'off');

/** The pages' texts in `locale`. */
export function pageTexts(locale: Locale) {
  const t = translator(locale);
  // `biometric` false: the enterprise's declared programme turns voice and face off (level 5).
  const levelInWords = (level: number, biometric = true) =>
    levelInWordsIn(locale, level, biometric);
  const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  return {
    locale,
    checkinTitle: (groupName: string) => t('checkinTitle', { groupName }),
    settingsTitle: (groupName: string) => t('settingsTitle', { groupName }),
    pendingTitle: t('pendingTitle'),

    consentHeading: t('consentHeading'),
    consentText: (groupName: string, enterpriseName: string) =>
      t('consentText', { groupName, enterpriseName }),
    consentDecline: t('consentDecline'),
    consentButton: t('consentButton'),
    consentDeclineButton: t('consentDeclineButton'),
    declinedTitle: t('declinedTitle'),
    declinedText: t('declinedText'),
    whoLine: (groupName: string, enterpriseName: string) =>
      t('whoLine', { groupName, enterpriseName }),
    aboutHeading: t('aboutHeading'),
    aboutConversation: t('aboutConversation'),
    aboutEmployerSees: (level: number, enterpriseName: string, biometric = true) =>
      t('aboutEmployerSees', {
        level,
        enterpriseName,
        levelWords: levelInWords(level, biometric),
      }),
    aboutRetention: (days: number) => t('aboutRetention', { days }),
    aboutManagedDevice: t('aboutManagedDevice'),
    aboutOperator: (operatorName: string, enterpriseName: string) =>
      t('aboutOperator', { operatorName, enterpriseName }),
    privacyNoticeLink: t('privacyNoticeLink'),
    privacyNoticeMissing: t('privacyNoticeMissing'),

    // The AI notice before Start (EU AI Act art. 50(3)) and the declared programme
    // (docs/accessibility.md, docs/compliance.md).
    aiNoticeHeading: t('aiNoticeHeading'),
    /** What the AI infers her wellbeing from: voice, face and words, or words and answers only. */
    aiNoticeInfers: (inference: 'on' | 'off') =>
      t(inference === 'off' ? 'aiNoticeInfersWords' : 'aiNoticeInfersAll'),
    /** The purpose the enterprise declared, or that it declared no programme (null). */
    aiNoticePurpose: (purpose: Purpose | null, enterpriseName: string) =>
      t(`aiNoticePurpose${capitalised(purpose ?? 'none')}`, { enterpriseName }),
    aiNoticeDeclarationLink: t('aiNoticeDeclarationLink'),
    aiNoticeNoDeclarationLink: t('aiNoticeNoDeclarationLink'),
    programmeHeading: t('programmeHeading'),
    programmeDeclared: (enterpriseName: string) => t('programmeDeclared', { enterpriseName }),
    programmeNone: (enterpriseName: string) => t('programmeNone', { enterpriseName }),
    programmeJurisdictionLabel: t('programmeJurisdictionLabel'),
    programmeJurisdiction: (jurisdiction: Jurisdiction) =>
      t(`programmeJurisdiction${capitalised(jurisdiction)}`),
    programmePurposeLabel: t('programmePurposeLabel'),
    programmePurpose: (purpose: Purpose) => t(`programmePurpose${capitalised(purpose)}`),
    programmeAnalysedLabel: t('programmeAnalysedLabel'),
    programmeAnalysed: (inference: 'on' | 'off') =>
      t(inference === 'off' ? 'programmeAnalysedWords' : 'programmeAnalysedAll'),
    programmeBasisLabel: t('programmeBasisLabel'),
    programmeContactLabel: t('programmeContactLabel'),
    programmeDeclaredAtLabel: t('programmeDeclaredAtLabel'),

    privacyHeading: t('privacyHeading'),
    privacyNoticeHeading: t('privacyNoticeHeading'),
    privacyNoticeRequest: (groupName: string, requested: number, biometric = true) =>
      t('privacyNoticeRequest', {
        groupName,
        requested,
        requestedWords: levelInWords(requested, biometric),
      }),
    privacyNoticeCurrent: (current: number, biometric = true) =>
      t('privacyNoticeCurrent', { current, currentWords: levelInWords(current, biometric) }),
    privacyNoticeKeep: t('privacyNoticeKeep'),
    privacyIntro: (groupName: string) => t('privacyIntro', { groupName }),
    privacyLegend: t('privacyLegend'),
    privacyLevelLabel: (level: number) => t('privacyLevelLabel', { level }),
    /** What a level shows, as a sentence (level 5 without voice and face: `biometric` false). */
    levelText: (level: number, biometric = true) => t(levelKey('levelText', level, biometric)),
    privacyRequestedTag: t('privacyRequestedTag'),
    privacyCurrentTag: t('privacyCurrentTag'),
    shareEarlierLabel: (count: number) => t('shareEarlierLabel', { count }),
    shareEarlierHint: t('shareEarlierHint'),

    preferencesHeading: t('preferencesHeading'),
    preferencesLegend: t('preferencesLegend'),
    preferencesCheckinReminder: t('preferencesCheckinReminder'),
    preferencesPrivacyRequest: t('preferencesPrivacyRequest'),
    preferencesScope: t('preferencesScope'),
    saveChoicesButton: t('saveChoicesButton'),
    saveChoicesHint: t('saveChoicesHint'),

    startText: (groupName: string) => t('startText', { groupName }),
    startButton: t('startButton'),

    withdrawHeading: t('withdrawHeading'),
    withdrawText: (groupName: string) => t('withdrawText', { groupName }),
    withdrawButton: t('withdrawButton'),
    withdrawLink: t('withdrawLink'),
    withdrawConfirmTitle: t('withdrawConfirmTitle'),
    withdrawConfirmButton: t('withdrawConfirmButton'),
    withdrawCancel: t('withdrawCancel'),

    historyHeading: t('historyHeading'),
    historyIntro: t('historyIntro'),
    historyEmpty: t('historyEmpty'),
    historyChange: (change: string, from: unknown, to: unknown): string => {
      switch (change) {
        case 'consent':
          return t(to ? 'historyConsentGiven' : 'historyConsentWithdrawn');
        case 'privacyLevel':
          return t('historyPrivacyLevel', { from: String(from), to: String(to) });
        case 'checkinReminder':
          return t('historyCheckinReminder', { from: onOff(from), to: onOff(to) });
        default:
          return t('historyPrivacyRequest', { from: onOff(from), to: onOff(to) });
      }
    },
    historyVia: {
      checkin: t('historyViaCheckin'),
      settings: t('historyViaSettings'),
      unsubscribe: t('historyViaUnsubscribe'),
    } as Record<string, string>,

    dataHeading: t('dataHeading'),
    exportText: t('exportText'),
    exportButton: t('exportButton'),
    deleteText: t('deleteText'),
    deleteLink: t('deleteLink'),
    deleteTitle: t('deleteTitle'),
    deleteConfirmText: (groupNames: string) => t('deleteConfirmText', { groupNames }),
    deleteConfirmButton: t('deleteConfirmButton'),
    deleteCancel: t('deleteCancel'),
    deletedTitle: t('deletedTitle'),
    deletedText: t('deletedText'),

    signOutHeading: t('signOutHeading'),
    signOutText: t('signOutText'),
    signOutButton: t('signOutButton'),
    signOutLink: t('signOutLink'),
    signOutConfirmTitle: t('signOutConfirmTitle'),
    signOutConfirmButton: t('signOutConfirmButton'),
    signOutCancel: t('signOutCancel'),

    handoffHeading: t('handoffHeading'),
    handoffReady: t('handoffReady'),
    handoffButton: t('handoffButton'),
    handoffLevel: (level: number) => t('handoffLevel', { level }),
    handoffRaisedElsewhere: (level: number) => t('handoffRaisedElsewhere', { level }),
    handoffKeep: (level: number) => t('handoffKeep', { level }),
    handoffGoBack: (level: number) => t('handoffGoBack', { level }),
    handoffNotConfigured: t('handoffNotConfigured'),
    handoffDevelopmentHint: t('handoffDevelopmentHint'),
    sandboxNotice: t('sandboxNotice'),
    sandboxCompletionHint: t('sandboxCompletionHint'),
    handoffCompleted: t('handoffCompleted'),
    handoffContinue: t('handoffContinue'),
    finishedPrompt: t('finishedPrompt'),
    finishedLink: t('finishedLink'),

    completedTitle: t('completedTitle'),
    completedText: t('completedText'),

    unsubscribeTitle: t('unsubscribeTitle'),
    unsubscribeQuestion: (emailType: string, enterpriseName: string) =>
      t('unsubscribeQuestion', { emailType, enterpriseName }),
    unsubscribeButton: t('unsubscribeButton'),
    unsubscribedTitle: t('unsubscribedTitle'),
    unsubscribedText: (emailType: string, enterpriseName: string) =>
      t('unsubscribedText', { emailType, enterpriseName }),

    pendingText: t('pendingText'),
    pendingTryAgain: t('pendingTryAgain'),
    backToPage: t('backToPage'),
    languageSwitcherLabel: t('languageSwitcherLabel'),
    skipToContent: t('skipToContent'),
  };
}

export type PageTextSet = ReturnType<typeof pageTexts>;

/** The texts in `locale` (built once). */
export const pageTextsIn: (locale: Locale) => PageTextSet = perLocale(pageTexts);

/** The English texts. */
export const PageTexts = pageTextsIn(DEFAULT_LOCALE);

/** The short confirmation shown after a form was saved (post/redirect/get `?saved=…`). */
export function savedMessages(locale: Locale) {
  const t = translator(locale);
  return {
    consent: t('savedConsent'),
    privacy: t('savedPrivacy'),
    preferences: t('savedPreferences'),
    choices: t('savedChoices'),
    withdrawn: t('savedWithdrawn'),
    'signed-out': t('savedSignedOut'),
  };
}

/** The saved confirmations in `locale` (built once). */
export const savedMessagesIn = perLocale(savedMessages);

export const SAVED_MESSAGES = savedMessagesIn(DEFAULT_LOCALE);

export type SavedFlag = keyof typeof SAVED_MESSAGES;

/** The catalogue's key stem of each error page. */
const ERROR_KEYS = {
  'not-found': 'errorNotFound',
  'unsubscribe-not-valid': 'errorUnsubscribeNotValid',
  'invalid-privacy-level': 'errorInvalidPrivacyLevel',
  'opened-elsewhere': 'errorOpenedElsewhere',
  'handoff-elsewhere': 'errorHandoffElsewhere',
  'handoff-unknown': 'errorHandoffUnknown',
  'start-first': 'errorStartFirst',
  'consent-first': 'errorConsentFirst',
  'export-elsewhere': 'errorExportElsewhere',
  'foreign-form': 'errorForeignForm',
  'unreadable-form': 'errorUnreadableForm',
  'too-many-requests': 'errorTooManyRequests',
  unavailable: 'errorUnavailable',
  unexpected: 'errorUnexpected',
} as const;

export type PageErrorKind = keyof typeof ERROR_KEYS;

/** Error pages: a title (the page's h1) and one explaining paragraph, in `locale`. */
export function pageErrors(locale: Locale): Record<PageErrorKind, { title: string; text: string }> {
  const t = translator(locale);
  return Object.fromEntries(
    Object.entries(ERROR_KEYS).map(([kind, key]) => [
      kind,
      { title: t(`${key}Title`), text: t(`${key}Text`) },
    ]),
  ) as Record<PageErrorKind, { title: string; text: string }>;
}

/** The error pages in `locale` (built once). */
export const pageErrorsIn = perLocale(pageErrors);

export const PAGE_ERRORS = pageErrorsIn(DEFAULT_LOCALE);

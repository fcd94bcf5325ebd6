"use strict";
/**
 * Everything the participant pages say, by language: page titles, section texts, confirmations
 * and error pages. The words are in the message catalogues (src/common/i18n/catalogues/<language>.json, ICU
 * MessageFormat, docs/i18n.md); this file gives them the shape the page models and templates
 * use. `PageTexts`, `SAVED_MESSAGES` and `PAGE_ERRORS` are the English ones: code and tests import
 * these, nobody retypes them. Texts are data: the templates escape them like any other value.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.PAGE_ERRORS = exports.pageErrorsIn = exports.SAVED_MESSAGES = exports.savedMessagesIn = exports.PageTexts = exports.pageTextsIn = void 0;
exports.pageTexts = pageTexts;
exports.savedMessages = savedMessages;
exports.pageErrors = pageErrors;
const catalogue_1 = require("../common/i18n/catalogue");
const locales_1 = require("../common/i18n/locales");
/** Built once per language. */
function perLocale(build) {
    const built = new Map();
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
const onOff = (value) => (value ? 'on' : 'off');
/** The pages' texts in `locale`. */
function pageTexts(locale) {
    const t = (0, catalogue_1.translator)(locale);
    const levelInWords = (level) => (0, catalogue_1.levelInWordsIn)(locale, level);
    return {
        locale,
        checkinTitle: (groupName) => t('checkinTitle', { groupName }),
        settingsTitle: (groupName) => t('settingsTitle', { groupName }),
        pendingTitle: t('pendingTitle'),
        consentHeading: t('consentHeading'),
        consentText: (groupName, enterpriseName) => t('consentText', { groupName, enterpriseName }),
        consentDecline: t('consentDecline'),
        consentButton: t('consentButton'),
        consentDeclineButton: t('consentDeclineButton'),
        declinedTitle: t('declinedTitle'),
        declinedText: t('declinedText'),
        whoLine: (groupName, enterpriseName) => t('whoLine', { groupName, enterpriseName }),
        aboutHeading: t('aboutHeading'),
        aboutConversation: t('aboutConversation'),
        aboutEmployerSees: (level, enterpriseName) => t('aboutEmployerSees', { level, enterpriseName, levelWords: levelInWords(level) }),
        aboutRetention: (days) => t('aboutRetention', { days }),
        aboutManagedDevice: t('aboutManagedDevice'),
        aboutOperator: (operatorName, enterpriseName) => t('aboutOperator', { operatorName, enterpriseName }),
        privacyNoticeLink: t('privacyNoticeLink'),
        privacyNoticeMissing: t('privacyNoticeMissing'),
        privacyHeading: t('privacyHeading'),
        privacyNoticeHeading: t('privacyNoticeHeading'),
        privacyNoticeRequest: (groupName, requested) => t('privacyNoticeRequest', { groupName, requested, requestedWords: levelInWords(requested) }),
        privacyNoticeCurrent: (current) => t('privacyNoticeCurrent', { current, currentWords: levelInWords(current) }),
        privacyNoticeKeep: t('privacyNoticeKeep'),
        privacyIntro: (groupName) => t('privacyIntro', { groupName }),
        privacyLegend: t('privacyLegend'),
        privacyLevelLabel: (level) => t('privacyLevelLabel', { level }),
        /** What a level shows, as a sentence. */
        levelText: (level) => t(`levelText${(0, catalogue_1.levelIndex)(level)}`),
        privacyRequestedTag: t('privacyRequestedTag'),
        privacyCurrentTag: t('privacyCurrentTag'),
        shareEarlierLabel: (count) => t('shareEarlierLabel', { count }),
        shareEarlierHint: t('shareEarlierHint'),
        preferencesHeading: t('preferencesHeading'),
        preferencesLegend: t('preferencesLegend'),
        preferencesCheckinReminder: t('preferencesCheckinReminder'),
        preferencesPrivacyRequest: t('preferencesPrivacyRequest'),
        preferencesScope: t('preferencesScope'),
        saveChoicesButton: t('saveChoicesButton'),
        saveChoicesHint: t('saveChoicesHint'),
        startText: (groupName) => t('startText', { groupName }),
        startButton: t('startButton'),
        withdrawHeading: t('withdrawHeading'),
        withdrawText: (groupName) => t('withdrawText', { groupName }),
        withdrawButton: t('withdrawButton'),
        withdrawLink: t('withdrawLink'),
        withdrawConfirmTitle: t('withdrawConfirmTitle'),
        withdrawConfirmButton: t('withdrawConfirmButton'),
        withdrawCancel: t('withdrawCancel'),
        historyHeading: t('historyHeading'),
        historyIntro: t('historyIntro'),
        historyEmpty: t('historyEmpty'),
        historyChange: (change, from, to) => {
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
        },
        dataHeading: t('dataHeading'),
        exportText: t('exportText'),
        exportButton: t('exportButton'),
        deleteText: t('deleteText'),
        deleteLink: t('deleteLink'),
        deleteTitle: t('deleteTitle'),
        deleteConfirmText: (groupNames) => t('deleteConfirmText', { groupNames }),
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
        handoffLevel: (level) => t('handoffLevel', { level }),
        handoffRaisedElsewhere: (level) => t('handoffRaisedElsewhere', { level }),
        handoffKeep: (level) => t('handoffKeep', { level }),
        handoffGoBack: (level) => t('handoffGoBack', { level }),
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
        unsubscribeQuestion: (emailType, enterpriseName) => t('unsubscribeQuestion', { emailType, enterpriseName }),
        unsubscribeButton: t('unsubscribeButton'),
        unsubscribedTitle: t('unsubscribedTitle'),
        unsubscribedText: (emailType, enterpriseName) => t('unsubscribedText', { emailType, enterpriseName }),
        pendingText: t('pendingText'),
        pendingTryAgain: t('pendingTryAgain'),
        backToPage: t('backToPage'),
        languageSwitcherLabel: t('languageSwitcherLabel'),
        skipToContent: t('skipToContent'),
    };
}
/** The texts in `locale` (built once). */
exports.pageTextsIn = perLocale(pageTexts);
/** The English texts. */
exports.PageTexts = (0, exports.pageTextsIn)(locales_1.DEFAULT_LOCALE);
/** The short confirmation shown after a form was saved (post/redirect/get `?saved=…`). */
function savedMessages(locale) {
    const t = (0, catalogue_1.translator)(locale);
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
exports.savedMessagesIn = perLocale(savedMessages);
exports.SAVED_MESSAGES = (0, exports.savedMessagesIn)(locales_1.DEFAULT_LOCALE);
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
};
/** Error pages: a title (the page's h1) and one explaining paragraph, in `locale`. */
function pageErrors(locale) {
    const t = (0, catalogue_1.translator)(locale);
    return Object.fromEntries(Object.entries(ERROR_KEYS).map(([kind, key]) => [
        kind,
        { title: t(`${key}Title`), text: t(`${key}Text`) },
    ]));
}
/** The error pages in `locale` (built once). */
exports.pageErrorsIn = perLocale(pageErrors);
exports.PAGE_ERRORS = (0, exports.pageErrorsIn)(locales_1.DEFAULT_LOCALE);
//# sourceMappingURL=pages.messages.js.map
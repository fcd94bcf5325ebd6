/**
 * Everything the participant pages say, in one place: page titles, section texts, confirmations
 * and error pages. Plain words, short sentences; code and tests import these, nobody retypes them.
 * Texts are data: the templates escape them like any other value.
 */

import { levelInWords } from '../../common/privacy-model';

/** What the participant receives of each email type, in plain words. */
const emailTypeWords = (emailType: string): string =>
  emailType === 'checkinReminder' ? 'check-in reminders' : 'privacy review requests';

export const PageTexts = {
  checkinTitle: (groupName: string) => `Your check-in with ${groupName}`,
  settingsTitle: (groupName: string) => `Your settings for ${groupName}`,
  pendingTitle: 'We are still analysing your check-in',

  consentHeading: 'Before you start',
  consentText: (groupName: string) =>
    `${groupName} asks for your consent before your check-in. Your check-in is a short ` +
    'conversation. It is analysed to give a wellbeing score. What the organisation behind ' +
    'this group can see of the result depends on your privacy level, which you choose next ' +
    'and can change at any time.',
  consentDecline:
    'If you do not agree, close this page. Your check-in will not start and nothing is analysed.',
  consentButton: 'I agree',

  privacyHeading: 'Your privacy level',
  privacyNoticeHeading: 'Please review your privacy level',
  privacyNoticeRequest: (groupName: string, requested: number) =>
    `${groupName} asks to see level ${requested}: ${levelInWords(requested)}`,
  privacyNoticeCurrent: (current: number) =>
    `You share level ${current} now: ${levelInWords(current)}`,
  privacyNoticeKeep:
    'You do not have to change anything. Keeping your current level is fine, and you can ' +
    'change it at any time.',
  privacyIntro: (groupName: string) =>
    `Your privacy level decides what the organisation behind ${groupName} can see about your ` +
    'check-ins. A lower level applies at once to all your check-ins in this group. A higher ' +
    'level applies to this check-in and your next ones; earlier check-ins keep the level they ' +
    'were shared at, unless you share them too from the browser you did them in.',
  privacyLegend: 'What may the organisation see?',
  privacyLevelLabel: (level: number) => `Level ${level}`,
  privacyRequestedTag: 'requested',
  privacyCurrentTag: 'your current level',
  privacyButton: 'Save my privacy level',
  shareEarlierLabel: (count: number) =>
    `Also share my ${count} earlier ${count === 1 ? 'check-in' : 'check-ins'} done in this browser`,
  shareEarlierHint:
    'at the level chosen above, if it is higher than the level they were shared at.',

  preferencesHeading: 'Email preferences',
  preferencesLegend: 'Send me emails',
  preferencesCheckinReminder: 'Reminders to do a check-in',
  preferencesPrivacyRequest: 'Requests to review my privacy level',
  preferencesScope: 'These choices apply to all your groups with this organisation.',
  preferencesButton: 'Save my email preferences',

  startText: (groupName: string) =>
    `${groupName} invites you to a wellbeing check-in. This link is yours: starting ties it to ` +
    'this browser, so that nobody else can use it for you. Start it in the browser you will use ' +
    'for your check-in.',
  startButton: 'Start',

  withdrawHeading: 'Your consent',
  withdrawText: (groupName: string) =>
    `You agreed to take part in check-ins with ${groupName}. You can withdraw your consent: ` +
    'your privacy level then goes back to 0 (the organisation sees only that your check-ins ' +
    'happened), and your next check-in asks for your consent again.',
  withdrawButton: 'Withdraw my consent',

  historyHeading: 'Your history',
  historyIntro:
    'Every change to your consent, privacy level and email preferences, oldest first. The ' +
    'organisation can read this record too; only you can make these changes.',
  historyEmpty: 'No changes yet.',
  historyChange: (change: string, from: unknown, to: unknown): string => {
    const onOff = (value: unknown) => (value ? 'on' : 'off');
    switch (change) {
      case 'consent':
        return to ? 'You gave your consent' : 'You withdrew your consent';
      case 'privacyLevel':
        return `Privacy level ${String(from)} → ${String(to)}`;
      case 'checkinReminder':
        return `Check-in reminders ${onOff(from)} → ${onOff(to)}`;
      default:
        return `Privacy review requests ${onOff(from)} → ${onOff(to)}`;
    }
  },
  historyVia: {
    checkin: 'on a check-in page',
    settings: 'on a settings page',
    unsubscribe: 'with an unsubscribe link',
  } as Record<string, string>,

  dataHeading: 'Your data',
  exportText:
    'Download everything held about you in this organisation: your email, your groups and ' +
    'settings, every check-in with all its results, and your history. Only you can download it.',
  exportButton: 'Download my data',
  deleteText:
    'You can delete your data: your email, your check-ins and their results, and your settings. ' +
    'The organisation is told that your data was deleted, not why.',
  deleteLink: 'Delete my data…',
  deleteTitle: 'Delete your data?',
  deleteConfirmText: (groupNames: string) =>
    `This deletes your email, every check-in and its results, your settings and your history ` +
    `with this organisation (${groupNames}), and takes your share out of its group statistics. ` +
    'It cannot be undone. If you are invited again later, you start as a new participant.',
  deleteConfirmButton: 'Yes, delete my data',
  deleteCancel: 'No, keep my data',
  deletedTitle: 'Your data is deleted',
  deletedText:
    'Everything held about you in this organisation has been deleted. The links you received ' +
    'no longer work. You can close this page.',

  signOutHeading: 'Your links',
  signOutText:
    'The links in your emails open this page. If you forwarded one of those emails, or think ' +
    'someone else has your links, sign them out: every earlier link stops working, this page ' +
    'moves to a new address in this browser, and your next email brings new links.',
  signOutButton: 'Sign out my links',

  handoffHeading: 'Your check-in',
  handoffReady:
    'When you are ready, start your check-in. It takes you to the check-in conversation.',
  handoffButton: 'Start my check-in',
  handoffLevel: (level: number) => `This check-in will be shared at level ${level}.`,
  handoffRaisedElsewhere: (level: number) =>
    `Your privacy level was raised to level ${level} in another browser. If that was not you, ` +
    'go back: at which level should this check-in be shared?',
  handoffKeep: (level: number) => `Keep level ${level} and start`,
  handoffGoBack: (level: number) => `Go back to level ${level} and start`,
  handoffNotConfigured:
    'The analysis engine is not configured, so your check-in cannot start from here yet.',
  handoffDevelopmentHint: 'For developers: simulate a result with',
  sandboxNotice:
    'This is a test check-in (a sandbox): no conversation happens and nothing is analysed here. ' +
    'Do not enter real information.',
  sandboxCompletionHint: 'The enterprise completes it with',
  handoffCompleted: 'Your check-in is complete. Thank you.',
  handoffContinue: 'Continue',
  finishedPrompt: 'Done with your check-in?',
  finishedLink: 'I have finished',

  completedTitle: 'Your check-in is complete',
  completedText: 'Thank you. You can close this page now.',

  unsubscribeTitle: 'Unsubscribe',
  unsubscribeQuestion: (emailType: string) => `Stop receiving ${emailTypeWords(emailType)}?`,
  unsubscribeButton: 'Unsubscribe',
  unsubscribedTitle: 'You are unsubscribed',
  unsubscribedText: (emailType: string) =>
    `You will no longer receive ${emailTypeWords(emailType)}. You can turn them back on in your ` +
    'settings.',

  pendingText:
    'This usually takes less than a minute. This page checks again every few seconds, or you ' +
    'can try again yourself.',
  pendingTryAgain: 'Try again',
  backToPage: 'Back to the page',
} as const;

/** The short confirmation shown after a form was saved (post/redirect/get `?saved=…`). */
export const SAVED_MESSAGES = {
  consent: 'Thank you. Your consent is saved.',
  privacy: 'Saved. Your privacy level is updated.',
  preferences: 'Saved. Your email preferences are updated.',
  withdrawn:
    'Your consent is withdrawn. Your privacy level is now 0. Earlier links to this page no ' +
    'longer work: this page has a new address.',
  'signed-out':
    'Your links are signed out: every earlier link no longer works. This page has a new ' +
    'address; bookmark it, or use the link in your next email.',
} as const;

export type SavedFlag = keyof typeof SAVED_MESSAGES;

/** Error pages: a title (the page's h1) and one explaining paragraph. */
export const PAGE_ERRORS = {
  'not-found': {
    title: 'This link is not valid or has expired',
    text:
      'Links to check-ins and settings work for a limited time. Please use the newest link you ' +
      'received, or ask for a new one.',
  },
  'unsubscribe-not-valid': {
    title: 'This link is not valid or has expired',
    text:
      'Nothing was changed. Unsubscribe links work for a limited time: please use the link in ' +
      'the newest email you received, or change your email preferences on your settings page.',
  },
  'invalid-privacy-level': {
    title: 'Please choose a privacy level',
    text: 'Your privacy level must be a whole number from 0 to 5. Nothing was changed.',
  },
  'opened-elsewhere': {
    title: 'This link was opened in another browser',
    text:
      'A link to your check-in or settings works in the first browser that used it, so that ' +
      'nobody else can act for you. Please use that browser. If it was not you who opened it, ' +
      'someone else has your link: tell the organisation that sent it. Nothing was changed.',
  },
  'start-first': {
    title: 'Please start your check-in first',
    text: 'Open your check-in link and choose "Start" before changing settings. Nothing was changed.',
  },
  'consent-first': {
    title: 'Please give your consent first',
    text: 'Your settings can be saved once you have agreed to take part. Nothing was changed.',
  },
  'export-elsewhere': {
    title: 'Download your data in your own browser',
    text:
      'Your data can be downloaded only in a browser you did a check-in in, so that nobody else ' +
      'who has this link can take it. Please open this page in that browser. Nothing was sent.',
  },
  'foreign-form': {
    title: 'This form was sent from another website',
    text:
      'Your check-in and settings can only be changed on these pages, so that no other website ' +
      'can change them for you. Nothing was changed. Please open your link and make the change ' +
      'here.',
  },
  'unreadable-form': {
    title: 'We could not read this form',
    text: 'Please go back and send the form again. Nothing was changed.',
  },
  'too-many-requests': {
    title: 'Too many requests',
    text:
      'Too many requests came from your network in a short time. Please wait a minute, then ' +
      'try again. Nothing was changed.',
  },
  unavailable: {
    title: 'This page is not available right now',
    text: 'Please try again in a minute.',
  },
  unexpected: {
    title: 'Something went wrong on our side',
    text: 'Please try again later. If it keeps happening, let the organisation that sent you here know.',
  },
} as const;

export type PageErrorKind = keyof typeof PAGE_ERRORS;

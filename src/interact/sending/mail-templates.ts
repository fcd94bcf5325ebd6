/**
 * The mails (docs/emails.md): a text and an HTML part each, rendered with eta (HTML auto-escaped),
 * in the participant's language (docs/i18n.md: the words are in the message catalogues,
 * `src/common/i18n/catalogues/<language>.json`, keys `mail…`). Every mail names the enterprise
 * (also its sender's display name, mailer.ts) and the group, says why it was sent, links to the
 * participant's settings page and to a one-click unsubscribe for its type (a security notice has
 * none), and says who runs the service, with its privacy notice. The markup is in files, loaded
 * once at start like the pages' (src/common/templates/template-folder.ts, docs/design.md
 * "Templates"): per mail `templates/<mail>.text.eta` and `templates/<mail>.html.eta`, the HTML
 * parts laid out in `templates/partials/layout.html.eta`.
 */
import { join } from 'node:path';
import { levelInWordsIn, type Translate, translator } from '../../common/i18n/catalogue';
import { type Locale, textDirection } from '../../common/i18n/locales';
import { loadTemplateFolder } from '../../common/templates/template-folder';
import type { MailType } from '../interact.errors';
import type { NoticeRaise } from '../privacy-notice';

export interface MailModel {
  type: MailType;
  /** The participant's language (English when they never chose one). */
  locale: Locale;
  enterpriseName: string;
  groupName: string;
  /** Who runs the service (OPERATOR_NAME) and its privacy notice; null when not configured. */
  operatorName: string | null;
  privacyNoticeUrl: string | null;
  settingsUrl: string;
  /** The one-click unsubscribe of the type; null for a notice (not subject to preferences). */
  unsubscribeUrl: string | null;
  checkinUrl: string | null;
  requestedLevel: number;
  currentLevel: number;
  /** A notice's raises, oldest first (privacy-notice.ts); null for the other mails. */
  notice: readonly NoticeRaise[] | null;
  /**
   * Voice and face may be analysed (the enterprise's declaration, docs/compliance.md); false
   * describes level 5 as features from her words and answers. Absent: true.
   */
  biometric?: boolean;
}

/** Each mail's templates: `<name>.text.eta` and `<name>.html.eta` in MAIL_TEMPLATE_DIR. */
export const MAIL_TEMPLATES: { readonly [T in MailType]: string } = {
  checkinReminder: 'checkin-reminder',
  privacyRequest: 'privacy-request',
  privacyNotice: 'privacy-notice',
};

/** Where the mail templates are: next to this file, in `src/` (ts-jest) as in `dist/`. */
export const MAIL_TEMPLATE_DIR = join(__dirname, 'templates');

const names = Object.values(MAIL_TEMPLATES);
export const MAIL_TEXT_TEMPLATES = names.map((name) => `${name}.text.eta`);
export const MAIL_HTML_TEMPLATES = names.map((name) => `${name}.html.eta`);

const textEngine = loadTemplateFolder(MAIL_TEMPLATE_DIR, MAIL_TEXT_TEMPLATES, {
  autoEscape: false,
});
const htmlEngine = loadTemplateFolder(MAIL_TEMPLATE_DIR, MAIL_HTML_TEMPLATES, { autoEscape: true });

const raiseTimes = new Map<Locale, Intl.DateTimeFormat>();

/**
 * When a raise was made, in the participant's language, in UTC and saying so ("February 10, 2026
 * at 09:42 AM UTC", "10. Februar 2026 um 09:42 UTC"): the service does not know their time zone.
 */
export function raiseTime(locale: Locale, at: string): string {
  let format = raiseTimes.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'UTC',
      timeZoneName: 'short',
    });
    raiseTimes.set(locale, format);
  }
  return format.format(new Date(at));
}

/**
 * What a notice says of its raises. One raise reads as a single change ("…was raised from level 1
 * to level 3." and its lines); several are counted ("…was raised 2 times:") and each is numbered,
 * in the order made: its levels, before and after in words, and when.
 */
function noticeWords(
  t: Translate,
  locale: Locale,
  names: { enterpriseName: string; groupName: string },
  raises: readonly NoticeRaise[],
  biometric: boolean,
) {
  const words = (level: number) => levelInWordsIn(locale, level, biometric);
  const single = raises.length === 1 ? raises[0] : null;
  return {
    text: single
      ? t('mailNoticeText', { ...names, from: single.from, to: single.to })
      : t('mailNoticeTextMany', { ...names, count: raises.length }),
    raises: raises.map((raise, index) => ({
      step: single
        ? null
        : t('mailNoticeStep', { number: index + 1, from: raise.from, to: raise.to }),
      before: t('mailNoticeBefore', { fromWords: words(raise.from) }),
      now: t('mailNoticeNow', { toWords: words(raise.to) }),
      when: t('mailNoticeWhen', { at: raiseTime(locale, raise.at) }),
    })),
    undo: t(single ? 'mailNoticeUndo' : 'mailNoticeUndoMany'),
    undoLink: t('mailNoticeUndoLink'),
    why: t('mailNoticeWhy'),
  };
}

/** Header values and one-line texts cannot carry line breaks: a name is one line. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/** Everything a mail says, in its language, with its values in (the templates only lay it out). */
function mailWords(model: MailModel) {
  const t = translator(model.locale);
  const words = (level: number) => levelInWordsIn(model.locale, level, model.biometric ?? true);
  const names = {
    enterpriseName: oneLine(model.enterpriseName),
    groupName: oneLine(model.groupName),
  };
  const subjects: { readonly [T in MailType]: string } = {
    checkinReminder: t('mailReminderSubject', names),
    privacyRequest: t('mailRequestSubject', names),
    privacyNotice: t('mailNoticeSubject', names),
  };
  return {
    subject: subjects[model.type],
    greeting: t('mailGreeting'),
    reminder: {
      text: t('mailReminderText', names),
      start: t('mailReminderStart'),
      startAt: t('mailReminderStartAt', { url: model.checkinUrl ?? '' }),
      why: t('mailReminderWhy', names),
      stopAt: t('mailReminderStop', { url: model.unsubscribeUrl ?? '' }),
    },
    request: {
      text: t('mailRequestText', names),
      wanted: t('mailRequestWanted', {
        requested: model.requestedLevel,
        requestedWords: words(model.requestedLevel),
      }),
      current: t('mailRequestCurrent', {
        current: model.currentLevel,
        currentWords: words(model.currentLevel),
      }),
      choice: t('mailRequestChoice'),
      review: t('mailRequestReview'),
      reviewAt: t('mailRequestReviewAt', { url: model.settingsUrl }),
      why: t('mailRequestWhy', names),
      stopAt: t('mailRequestStop', { url: model.unsubscribeUrl ?? '' }),
    },
    notice: {
      ...noticeWords(t, model.locale, names, model.notice ?? [], model.biometric ?? true),
      undoAt: t('mailNoticeUndoAt', { url: model.settingsUrl }),
    },
    settingsLink: t('mailSettingsLink'),
    settingsAt: t('mailSettingsAt', { url: model.settingsUrl }),
    unsubscribeLink: t('mailUnsubscribeLink'),
    operator: model.operatorName
      ? t('mailOperator', { ...names, operatorName: oneLine(model.operatorName) })
      : null,
    privacyNoticeLink: t('mailPrivacyNoticeLink'),
    privacyNoticeAt: model.privacyNoticeUrl
      ? t('mailPrivacyNoticeAt', { url: model.privacyNoticeUrl })
      : null,
  };
}

/** The text part's last lines: who runs the service and its privacy notice, after a blank line. */
function operatorLines(words: Pick<MailWords, 'operator' | 'privacyNoticeAt'>): string {
  const lines = [words.operator, words.privacyNoticeAt].filter((line) => line !== null);
  return lines.length === 0 ? '' : `\n${lines.join('\n')}\n`;
}

export type MailWords = ReturnType<typeof mailWords>;

export function renderMail(model: MailModel): { subject: string; text: string; html: string } {
  const words = mailWords(model);
  const m = { ...words, operatorLines: operatorLines(words) };
  const data = { ...model, m, lang: model.locale, dir: textDirection(model.locale) };
  const name = MAIL_TEMPLATES[model.type];
  return {
    subject: m.subject,
    text: textEngine.render(`${name}.text.eta`, data),
    html: htmlEngine.render(`${name}.html.eta`, data),
  };
}

/**
 * The mails (docs/emails.md): a text and an HTML part each, rendered with eta (HTML auto-escaped).
 * Every mail names the group, links to the participant's settings page and to a one-click
 * unsubscribe for its type. The markup is in files, loaded once at start like the pages'
 * (src/common/templates/template-folder.ts, docs/design.md "Templates"): per mail
 * `templates/<mail>.text.eta` and `templates/<mail>.html.eta`, the HTML parts laid out in
 * `templates/partials/layout.html.eta` (which carries the settings and unsubscribe links).
 */
import { join } from 'node:path';
import { levelInWords } from '../../common/privacy-model';
import { loadTemplateFolder } from '../../common/templates/template-folder';
import type { MailType } from '../interact.errors';

export interface MailModel {
  type: MailType;
  groupName: string;
  settingsUrl: string;
  /** The one-click unsubscribe of the type; null for a notice (not subject to preferences). */
  unsubscribeUrl: string | null;
  checkinUrl: string | null;
  requestedLevel: number;
  currentLevel: number;
  /** A notice's change: from which level to which. */
  notice: { from: number; to: number } | null;
}

const SUBJECTS: Record<MailType, (groupName: string) => string> = {
  checkinReminder: (groupName) => `Time for your check-in with ${groupName}`,
  privacyRequest: (groupName) => `${groupName} asks you to review your privacy settings`,
  privacyNotice: (groupName) => `Your privacy level with ${groupName} was raised`,
};

/** Where the mail templates are: next to this file, in `src/` (ts-jest) as in `dist/`. */
export const MAIL_TEMPLATE_DIR = join(__dirname, 'templates');

/** Each mail's templates: `<name>.text.eta` and `<name>.html.eta` in MAIL_TEMPLATE_DIR. */
export const MAIL_TEMPLATES: { readonly [T in MailType]: string } = {
  checkinReminder: 'checkin-reminder',
  privacyRequest: 'privacy-request',
  privacyNotice: 'privacy-notice',
};

const names = Object.values(MAIL_TEMPLATES);
export const MAIL_TEXT_TEMPLATES = names.map((name) => `${name}.text.eta`);
export const MAIL_HTML_TEMPLATES = names.map((name) => `${name}.html.eta`);

const textEngine = loadTemplateFolder(MAIL_TEMPLATE_DIR, MAIL_TEXT_TEMPLATES, {
  autoEscape: false,
});
const htmlEngine = loadTemplateFolder(MAIL_TEMPLATE_DIR, MAIL_HTML_TEMPLATES, { autoEscape: true });

export function renderMail(model: MailModel): { subject: string; text: string; html: string } {
  const data = {
    ...model,
    requestedWords: levelInWords(model.requestedLevel),
    currentWords: levelInWords(model.currentLevel),
    fromWords: model.notice ? levelInWords(model.notice.from) : '',
    toWords: model.notice ? levelInWords(model.notice.to) : '',
  };
  return {
    // Header values cannot carry line breaks: a group name is one line.
    subject: SUBJECTS[model.type](model.groupName.replace(/[\r\n]+/g, ' ')),
    text: textEngine.render(`${MAIL_TEMPLATES[model.type]}.text.eta`, data),
    html: htmlEngine.render(`${MAIL_TEMPLATES[model.type]}.html.eta`, data),
  };
}

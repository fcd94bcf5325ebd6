/**
 * The participant pages' models (what each template is given, typed) and `renderPage`. The markup
 * is in files: one template per page in `templates/`, the shared parts (layout, saved message,
 * privacy, preferences and hand-off sections) in `templates/partials/`, the stylesheet in
 * `templates/style.css`, inlined by the layout. They are loaded once, at start (see
 * page-renderer.ts and docs/design.md "Templates"). Eta escapes every `<%= … %>` interpolation
 * (autoEscape); the only raw outputs (`<%~ … %>`) are the layout's body, the stylesheet and the
 * included sections, which are themselves rendered templates. No page carries a script:
 * everything works with plain links and form posts.
 */
import { join } from 'node:path';
import { loadTemplateFolder } from '../common/templates/template-folder';
import { type Locale, LOCALE_NAMES, LOCALES, textDirection } from '../common/i18n/locales';
import { pageUrlIn } from './i18n/page-language';
import { pageTextsIn } from './pages.messages';

export interface PrivacyLevelChoice {
  value: number;
  label: string;
  text: string;
  current: boolean;
  requested: boolean;
}

export interface PrivacySectionModel {
  /** Where the form posts. */
  action: string;
  /** Shown on top when the requested level exceeds the participant's. */
  notice: { request: string; current: string } | null;
  intro: string;
  levels: PrivacyLevelChoice[];
  /**
   * "Also share my N earlier check-ins done in this browser" (unticked), when this browser did
   * earlier check-ins of the membership; a raise reaches them only when it is ticked.
   */
  shareEarlier: { label: string } | null;
}

export interface PreferencesSectionModel {
  action: string;
  checkinReminder: boolean;
  privacyRequest: boolean;
}

export interface HandoffSectionModel {
  /**
   * Where the hand-off form posts (it records the level the check-in is shared at, then
   * redirects to the analysis engine); null when no engine is configured.
   */
  handoffAction: string | null;
  /** "This check-in will be shared at level N." */
  sharedAt: string;
  /**
   * A raise made in another browser (docs/privacy.md): the hand-off asks to keep it or go back,
   * in place of the plain button.
   */
  raisedElsewhere: {
    text: string;
    keep: { level: number; label: string };
    back: { level: number; label: string };
  } | null;
  /** Outside production, without an engine: the command that simulates a result. */
  developmentCommand: string | null;
  /**
   * A sandbox enterprise's check-in (docs/integrating.md): never handed to the engine; the API call that
   * completes it instead.
   */
  sandboxCompletion: string | null;
  doneHref: string;
  completed: boolean;
}

/**
 * Who asks and what happens, before anything is recorded (the start page, consent): the
 * conversation, what the employer will see, how long the transcript is kept, who runs the
 * service and its privacy notice (docs/accessibility.md).
 */
export interface AboutModel {
  conversation: string;
  employerSees: string;
  retention: string;
  /** A device the employer controls is outside what the service can protect (docs/privacy.md). */
  device: string;
  /** "This service is run by …", with the privacy notice; null outside production when unset. */
  operator: { text: string; noticeHref: string; noticeLabel: string } | null;
  /** Outside production, when OPERATOR_NAME / PRIVACY_NOTICE_URL are unset. */
  operatorMissing: string | null;
}

/**
 * The notice before anything starts the check-in (EU AI Act art. 50(3), docs/accessibility.md):
 * that AI infers her wellbeing, from what, for which declared purpose, what the employer sees at
 * her level, and a link to the full declaration (`#programme`). Every text is data, escaped.
 */
export interface AiNoticeModel {
  /** That AI infers her wellbeing, and from what (voice, face and words; or words only). */
  infers: string;
  /** The purpose the enterprise declared, or that it declared no programme. */
  purpose: string;
  /** What the employer sees at her level now, in the "about" part's words (one wording). */
  employerSees: string;
  /** The text of the link to the declaration's section (`#programme`). */
  declarationLink: string;
}

/** The enterprise's declared programme in full (`#programme`), or that it declared none. */
export interface ProgrammeSectionModel {
  /** "Acme has declared the programme …:", or that it has declared none (then no declaration). */
  intro: string;
  declaration: {
    /** In words: in the European Union, or outside it. */
    jurisdiction: string;
    /** In words: wellbeing, medical reasons, safety reasons. */
    purpose: string;
    /** What the AI analyses under it. */
    analysed: string;
    /** The legal basis as the operator typed it (text, escaped like any other value). */
    basis: string;
    /** The contact's email address, and its `mailto:` link. */
    contact: string;
    contactHref: string;
    /** When it was declared: ISO 8601, and as the page's language writes the date (UTC). */
    declaredAt: string;
    declaredOn: string;
  } | null;
}

export interface CheckinPageModel {
  title: string;
  /** "Night shift at Acme": the group and its enterprise. */
  who: string;
  saved: string | null;
  /** Before every button that starts the check-in (consent's, the hand-off's). */
  aiNotice: AiNoticeModel;
  /** The full declaration the notice links to, at the end of the page. */
  programme: ProgrammeSectionModel;
  /** Present while consent is required and not given; then nothing else is offered. */
  consent: { action: string; text: string; declineHref: string; about: AboutModel } | null;
  privacy: PrivacySectionModel | null;
  preferences: PreferencesSectionModel | null;
  handoff: HandoffSectionModel | null;
}

export interface HistoryRow {
  /** ISO 8601, UTC. */
  at: string;
  /** The same, as the page's language writes a date and time (Intl), in UTC. */
  when: string;
  what: string;
  via: string;
}

export interface SettingsPageModel {
  title: string;
  who: string;
  saved: string | null;
  /** "Download my data" (a POST) and "Delete my data" (a confirmation page, then a POST). */
  exportAction: string;
  deleteHref: string;
  /** Present when the group asks for consent and it is given: the way to withdraw it (a page that confirms first). */
  withdraw: { href: string; text: string } | null;
  /** "Sign out my links…" (a page that confirms first): every earlier link stops working (docs/security.md). */
  signOutHref: string;
  privacy: PrivacySectionModel;
  preferences: PreferencesSectionModel;
  history: HistoryRow[];
  /** The enterprise's declared programme (her privacy page says what the AI analyses and why). */
  programme: ProgrammeSectionModel;
}

/** A destructive action's confirmation (delete my data, withdraw consent, sign out links). */
export interface ConfirmPageModel {
  title: string;
  text: string;
  /** Where "Yes, …" posts. */
  action: string;
  confirmLabel: string;
  cancelHref: string;
  cancelLabel: string;
}

export interface StartPageModel {
  title: string;
  who: string;
  /** Before the Start button. */
  aiNotice: AiNoticeModel;
  text: string;
  action: string;
  about: AboutModel;
  programme: ProgrammeSectionModel;
}

export interface UnsubscribePageModel {
  title: string;
  text: string;
  /** Where the one-click form posts (RFC 8058: `List-Unsubscribe=One-Click`). */
  action: string;
}

export interface NoticePageModel {
  title: string;
  /** The group and its enterprise, when the page knows them. */
  who?: string;
  text: string;
}

export interface PendingPageModel {
  title: string;
  retryHref: string;
}

export interface ErrorPageModel {
  title: string;
  text: string;
  backHref: string | null;
}

export interface PageModels {
  checkin: CheckinPageModel;
  settings: SettingsPageModel;
  pending: PendingPageModel;
  error: ErrorPageModel;
  confirm: ConfirmPageModel;
  notice: NoticePageModel;
  start: StartPageModel;
  unsubscribe: UnsubscribePageModel;
}

export type PageName = keyof PageModels;

/** Where the page templates are: next to this file, in `src/` (ts-jest) as in `dist/` (the build). */
export const PAGE_TEMPLATE_DIR = join(__dirname, 'templates');

/** Each page's template, relative to PAGE_TEMPLATE_DIR (a new page needs its entry here). */
export const PAGE_TEMPLATES: { readonly [N in PageName]: string } = {
  checkin: 'checkin.eta',
  settings: 'settings.eta',
  pending: 'pending.eta',
  error: 'error.eta',
  confirm: 'confirm.eta',
  notice: 'notice.eta',
  start: 'start.eta',
  unsubscribe: 'unsubscribe.eta',
};

const engine = loadTemplateFolder(PAGE_TEMPLATE_DIR, Object.values(PAGE_TEMPLATES), {
  autoEscape: true,
});

/** One entry of the language switcher. */
export interface LanguageLink {
  lang: string;
  name: string;
  href: string;
  current: boolean;
}

/** What a page is rendered for: its language, and the address that loads it again. */
export interface PageContext {
  locale: Locale;
  /** The page's path and query when a GET can load it again; null (no switcher): a form's answer. */
  url: string | null;
}

/**
 * Renders a whole page (layout included) in `context.locale` (docs/i18n.md): its texts,
 * `<html lang dir>`, and the language switcher (on pages that can be loaded again, `context.url`);
 * every value in `model` is escaped.
 */
export function renderPage<N extends PageName>(
  name: N,
  model: PageModels[N],
  context: PageContext,
): string {
  const { locale, url } = context;
  const languages: LanguageLink[] = url
    ? LOCALES.map((lang) => ({
        lang,
        name: LOCALE_NAMES[lang],
        href: pageUrlIn(url, lang),
        current: lang === locale,
      }))
    : [];
  return engine.render(PAGE_TEMPLATES[name], {
    ...model,
    texts: pageTextsIn(locale),
    lang: locale,
    dir: textDirection(locale),
    languages,
  });
}

/**
 * The participant pages' HTML, as Eta templates kept in TypeScript constants (so the build needs
 * no asset copying). Eta escapes every `<%= … %>` interpolation (autoEscape); the only raw outputs
 * (`<%~ … %>`) are the layout's body and included sections, which are themselves rendered
 * templates. No page carries a script: everything works with plain links and form posts.
 */
import { Eta } from 'eta';
import { PageTexts } from './pages.messages';

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
}

export interface PreferencesSectionModel {
  action: string;
  checkinReminder: boolean;
  privacyRequest: boolean;
}

export interface HandoffSectionModel {
  /** The analysis engine's address for this session; null when no engine is configured. */
  engineHref: string | null;
  /** Outside production, without an engine: the command that simulates a result. */
  developmentCommand: string | null;
  /**
   * A sandbox enterprise's check-in (DESIGN §17): never handed to the engine; the API call that
   * completes it instead.
   */
  sandboxCompletion: string | null;
  doneHref: string;
  completed: boolean;
}

export interface CheckinPageModel {
  title: string;
  saved: string | null;
  /** Present while consent is required and not given; then nothing else is offered. */
  consent: { action: string; text: string } | null;
  privacy: PrivacySectionModel | null;
  preferences: PreferencesSectionModel | null;
  handoff: HandoffSectionModel | null;
}

export interface HistoryRow {
  /** ISO 8601, UTC. */
  at: string;
  what: string;
  via: string;
}

export interface SettingsPageModel {
  title: string;
  saved: string | null;
  /** "Download my data" (a POST) and "Delete my data" (a confirmation page, then a POST). */
  exportAction: string;
  deleteHref: string;
  /** Present when the group asks for consent and it is given: the way to withdraw it. */
  withdraw: { action: string; text: string } | null;
  /** "Sign out my links" (a POST): every earlier link stops working (DESIGN §15). */
  signOutAction: string;
  privacy: PrivacySectionModel;
  preferences: PreferencesSectionModel;
  history: HistoryRow[];
}

export interface ConfirmDeletePageModel {
  title: string;
  text: string;
  action: string;
  cancelHref: string;
}

export interface StartPageModel {
  title: string;
  text: string;
  action: string;
}

export interface UnsubscribePageModel {
  title: string;
  text: string;
  /** Where the one-click form posts (RFC 8058: `List-Unsubscribe=One-Click`). */
  action: string;
}

export interface NoticePageModel {
  title: string;
  text: string;
}

export interface PendingPageModel {
  title: string;
  retryHref: string;
  refreshSeconds: number;
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
  'confirm-delete': ConfirmDeletePageModel;
  notice: NoticePageModel;
  start: StartPageModel;
  unsubscribe: UnsubscribePageModel;
}

export type PageName = keyof PageModels;

const STYLE = `
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; background: #f4f5f7; color: #1b1f24;
    font: 1.0625rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
  main { max-width: 42rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
  h1 { font-size: 1.75rem; line-height: 1.25; margin: 0.5rem 0 1.25rem; }
  h2 { font-size: 1.3rem; margin: 0 0 0.75rem; }
  h3 { font-size: 1.1rem; margin: 0 0 0.5rem; }
  section { background: #fff; border: 1px solid #d5d9e0; border-radius: 10px;
    padding: 1.25rem 1.25rem 1.5rem; margin: 0 0 1.25rem; }
  p { margin: 0 0 0.9rem; }
  a { color: #0b57d0; }
  a:hover { color: #083f99; }
  .saved { background: #e6f4ea; border: 1px solid #1e7b34; color: #0d3d1a; border-radius: 8px;
    padding: 0.75rem 1rem; font-weight: 600; }
  .notice { background: #fff7e0; border-left: 6px solid #b26b00; border-radius: 6px;
    padding: 0.9rem 1rem 0.25rem; margin: 0 0 1rem; }
  fieldset { border: 0; padding: 0; margin: 0 0 1rem; min-width: 0; }
  legend { font-weight: 600; margin: 0 0 0.5rem; padding: 0; }
  .choice { display: flex; gap: 0.75rem; align-items: flex-start; padding: 0.6rem 0.75rem;
    border: 1px solid #d5d9e0; border-radius: 8px; margin: 0 0 0.5rem; }
  .choice input { width: 1.25rem; height: 1.25rem; margin: 0.2rem 0 0; flex: none; accent-color: #0b57d0; }
  .choice label { flex: 1; cursor: pointer; }
  .choice.current { border-color: #0b57d0; background: #f0f5ff; }
  .tag { display: inline-block; font-size: 0.85rem; font-weight: 600; border-radius: 999px;
    padding: 0 0.55rem; margin-left: 0.35rem; border: 1px solid currentColor; }
  .tag.requested { color: #8a4b00; }
  .tag.current { color: #0b57d0; }
  .button, button { display: inline-block; font: inherit; font-weight: 600; cursor: pointer;
    background: #0b57d0; color: #fff; border: 2px solid #0b57d0; border-radius: 8px;
    padding: 0.6rem 1.2rem; text-decoration: none; }
  .button:hover, button:hover { background: #083f99; border-color: #083f99; color: #fff; }
  a:focus-visible, button:focus-visible, input:focus-visible, .button:focus-visible {
    outline: 3px solid #e8a200; outline-offset: 3px; }
  code { background: #eef0f3; border-radius: 4px; padding: 0.1rem 0.3rem; font-size: 0.95em;
    overflow-wrap: anywhere; }
  .hint { color: #4a5160; font-size: 0.95rem; }
`;

const LAYOUT = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<% if (it.refreshSeconds) { %><meta http-equiv="refresh" content="<%= it.refreshSeconds %>">
<% } %>
<title><%= it.title %></title>
<style><%~ it.style %></style>
</head>
<body>
<main>
<%~ it.body %>
</main>
</body>
</html>
`;

const SAVED = `<% if (it.saved) { %><p class="saved" role="status"><%= it.saved %></p>
<% } %>`;

const PRIVACY_SECTION = `<section aria-labelledby="privacy-heading">
<h2 id="privacy-heading"><%= it.texts.privacyHeading %></h2>
<% if (it.privacy.notice) { %><div class="notice" role="note" aria-labelledby="privacy-notice-heading">
<h3 id="privacy-notice-heading"><%= it.texts.privacyNoticeHeading %></h3>
<p><%= it.privacy.notice.request %></p>
<p><%= it.privacy.notice.current %></p>
<p><%= it.texts.privacyNoticeKeep %></p>
</div>
<% } %>
<p><%= it.privacy.intro %></p>
<form method="post" action="<%= it.privacy.action %>">
<fieldset>
<legend><%= it.texts.privacyLegend %></legend>
<% it.privacy.levels.forEach(function (level) { %><div class="choice<%= level.current ? ' current' : '' %>">
<input type="radio" name="privacyLevel" id="privacy-level-<%= level.value %>" value="<%= level.value %>"<% if (level.current) { %> checked<% } %>>
<label for="privacy-level-<%= level.value %>"><strong><%= level.label %></strong><% if (level.requested) { %> <span class="tag requested"><%= it.texts.privacyRequestedTag %></span><% } %><% if (level.current) { %> <span class="tag current"><%= it.texts.privacyCurrentTag %></span><% } %><br><%= level.text %></label>
</div>
<% }) %></fieldset>
<button type="submit"><%= it.texts.privacyButton %></button>
</form>
</section>
`;

const PREFERENCES_SECTION = `<section aria-labelledby="preferences-heading">
<h2 id="preferences-heading"><%= it.texts.preferencesHeading %></h2>
<form method="post" action="<%= it.preferences.action %>">
<fieldset>
<legend><%= it.texts.preferencesLegend %></legend>
<div class="choice">
<input type="checkbox" name="checkinReminder" id="pref-checkin-reminder" value="on"<% if (it.preferences.checkinReminder) { %> checked<% } %>>
<label for="pref-checkin-reminder"><%= it.texts.preferencesCheckinReminder %></label>
</div>
<div class="choice">
<input type="checkbox" name="privacyRequest" id="pref-privacy-request" value="on"<% if (it.preferences.privacyRequest) { %> checked<% } %>>
<label for="pref-privacy-request"><%= it.texts.preferencesPrivacyRequest %></label>
</div>
</fieldset>
<p class="hint"><%= it.texts.preferencesScope %></p>
<button type="submit"><%= it.texts.preferencesButton %></button>
</form>
</section>
`;

const HANDOFF_SECTION = `<section aria-labelledby="handoff-heading">
<h2 id="handoff-heading"><%= it.texts.handoffHeading %></h2>
<% if (it.handoff.completed) { %><p><%= it.texts.handoffCompleted %></p>
<p><a class="button" href="<%= it.handoff.doneHref %>"><%= it.texts.handoffContinue %></a></p>
<% } else { %><% if (it.handoff.sandboxCompletion) { %><p><%= it.texts.sandboxNotice %></p>
<p class="hint"><%= it.texts.sandboxCompletionHint %> <code><%= it.handoff.sandboxCompletion %></code></p>
<% } else if (it.handoff.engineHref) { %><p><%= it.texts.handoffReady %></p>
<p><a class="button" href="<%= it.handoff.engineHref %>" rel="noreferrer"><%= it.texts.handoffButton %></a></p>
<% } else { %><p><%= it.texts.handoffNotConfigured %></p>
<% if (it.handoff.developmentCommand) { %><p class="hint"><%= it.texts.handoffDevelopmentHint %> <code><%= it.handoff.developmentCommand %></code></p>
<% } %><% } %><p><%= it.texts.finishedPrompt %> <a href="<%= it.handoff.doneHref %>"><%= it.texts.finishedLink %></a></p>
<% } %></section>
`;

const CHECKIN_PAGE = `<% layout('@layout', { title: it.title }) %><h1><%= it.title %></h1>
<%~ include('@saved', it) %><% if (it.consent) { %><section aria-labelledby="consent-heading">
<h2 id="consent-heading"><%= it.texts.consentHeading %></h2>
<p><%= it.consent.text %></p>
<p><%= it.texts.consentDecline %></p>
<form method="post" action="<%= it.consent.action %>">
<button type="submit"><%= it.texts.consentButton %></button>
</form>
</section>
<% } %><% if (it.privacy) { %><%~ include('@privacy', it) %><% } %><% if (it.preferences) { %><%~ include('@preferences', it) %><% } %><% if (it.handoff) { %><%~ include('@handoff', it) %><% } %>`;

const SETTINGS_PAGE = `<% layout('@layout', { title: it.title }) %><h1><%= it.title %></h1>
<%~ include('@saved', it) %><%~ include('@privacy', it) %><%~ include('@preferences', it) %><% if (it.withdraw) { %><section aria-labelledby="withdraw-heading">
<h2 id="withdraw-heading"><%= it.texts.withdrawHeading %></h2>
<p><%= it.withdraw.text %></p>
<form method="post" action="<%= it.withdraw.action %>">
<button type="submit"><%= it.texts.withdrawButton %></button>
</form>
</section>
<% } %><section aria-labelledby="history-heading">
<h2 id="history-heading"><%= it.texts.historyHeading %></h2>
<p class="hint"><%= it.texts.historyIntro %></p>
<% if (it.history.length === 0) { %><p><%= it.texts.historyEmpty %></p>
<% } else { %><ul class="history">
<% it.history.forEach(function (row) { %><li><time datetime="<%= row.at %>"><%= row.at.slice(0, 16).replace('T', ' ') %> UTC</time>: <%= row.what %>, <%= row.via %></li>
<% }) %></ul>
<% } %></section>
<section aria-labelledby="data-heading">
<h2 id="data-heading"><%= it.texts.dataHeading %></h2>
<p><%= it.texts.exportText %></p>
<form method="post" action="<%= it.exportAction %>">
<button type="submit"><%= it.texts.exportButton %></button>
</form>
<p><%= it.texts.deleteText %></p>
<p><a href="<%= it.deleteHref %>"><%= it.texts.deleteLink %></a></p>
</section>
<section aria-labelledby="links-heading">
<h2 id="links-heading"><%= it.texts.signOutHeading %></h2>
<p><%= it.texts.signOutText %></p>
<form method="post" action="<%= it.signOutAction %>">
<button type="submit"><%= it.texts.signOutButton %></button>
</form>
</section>
`;

const CONFIRM_DELETE_PAGE = `<% layout('@layout', { title: it.title }) %><h1><%= it.title %></h1>
<section>
<p><%= it.text %></p>
<form method="post" action="<%= it.action %>">
<button type="submit"><%= it.texts.deleteConfirmButton %></button>
</form>
<p><a href="<%= it.cancelHref %>"><%= it.texts.deleteCancel %></a></p>
</section>
`;

const START_PAGE = `<% layout('@layout', { title: it.title }) %><h1><%= it.title %></h1>
<section>
<p><%= it.text %></p>
<form method="post" action="<%= it.action %>">
<button type="submit"><%= it.texts.startButton %></button>
</form>
</section>
`;

const UNSUBSCRIBE_PAGE = `<% layout('@layout', { title: it.title }) %><h1><%= it.title %></h1>
<section>
<p><%= it.text %></p>
<form method="post" action="<%= it.action %>">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit"><%= it.texts.unsubscribeButton %></button>
</form>
</section>
`;

const NOTICE_PAGE = `<% layout('@layout', { title: it.title }) %><h1><%= it.title %></h1>
<section>
<p><%= it.text %></p>
</section>
`;

const PENDING_PAGE = `<% layout('@layout', { title: it.title, refreshSeconds: it.refreshSeconds }) %><h1><%= it.title %></h1>
<section>
<p><%= it.texts.pendingText %></p>
<p><a class="button" href="<%= it.retryHref %>"><%= it.texts.pendingTryAgain %></a></p>
</section>
`;

const ERROR_PAGE = `<% layout('@layout', { title: it.title }) %><h1><%= it.title %></h1>
<section>
<p><%= it.text %></p>
<% if (it.backHref) { %><p><a href="<%= it.backHref %>"><%= it.texts.backToPage %></a></p>
<% } %></section>
`;

function createEngine(): Eta {
  const eta = new Eta({ autoEscape: true, autoTrim: false, cache: true });
  eta.loadTemplate('@layout', LAYOUT);
  eta.loadTemplate('@saved', SAVED);
  eta.loadTemplate('@privacy', PRIVACY_SECTION);
  eta.loadTemplate('@preferences', PREFERENCES_SECTION);
  eta.loadTemplate('@handoff', HANDOFF_SECTION);
  eta.loadTemplate('@checkin', CHECKIN_PAGE);
  eta.loadTemplate('@settings', SETTINGS_PAGE);
  eta.loadTemplate('@pending', PENDING_PAGE);
  eta.loadTemplate('@error', ERROR_PAGE);
  eta.loadTemplate('@confirm-delete', CONFIRM_DELETE_PAGE);
  eta.loadTemplate('@notice', NOTICE_PAGE);
  eta.loadTemplate('@start', START_PAGE);
  eta.loadTemplate('@unsubscribe', UNSUBSCRIBE_PAGE);
  return eta;
}

const engine = createEngine();

/** Renders a whole page (layout included); every value in `model` is escaped. */
export function renderPage<N extends PageName>(name: N, model: PageModels[N]): string {
  return engine.render(`@${name}`, { ...model, texts: PageTexts, style: STYLE });
}

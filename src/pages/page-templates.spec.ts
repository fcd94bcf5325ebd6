import { filesIn, loadTemplateFolder, unusedTemplates } from '../common/templates/template-folder';
import {
  PAGE_TEMPLATE_DIR,
  PAGE_TEMPLATES,
  type PageContext,
  renderPage,
  type SettingsPageModel,
} from './page-templates';
import { PAGE_ERRORS, pageErrorsIn, PageTexts, pageTextsIn } from './pages.messages';

/** As a form's answer in English: no switcher. */
const ENGLISH: PageContext = { locale: 'en', url: null };

const HOSTILE = `<script>alert("x")</script>'&`;
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;';

const privacy = {
  action: `/checkin/${HOSTILE}/privacy`,
  notice: { request: HOSTILE, current: 'You share level 0 now.' },
  intro: HOSTILE,
  levels: [0, 1, 2, 3, 4, 5].map((value) => ({
    value,
    label: `Level ${value}`,
    text: HOSTILE,
    current: value === 2,
    requested: value === 4,
  })),
  shareEarlier: { label: HOSTILE },
};
const preferences = { action: '/p', checkinReminder: true, privacyRequest: false };
const aiNotice = {
  infers: 'AI infers from your words.',
  purpose: 'Declared for wellbeing.',
  employerSees: 'Acme sees level 0.',
  declarationLink: 'Read it',
};
/** A declaration whose every operator-typed value is hostile. */
const programme = {
  intro: HOSTILE,
  declaration: {
    jurisdiction: 'In the European Union',
    purpose: 'Wellbeing',
    analysed: 'Only your words',
    basis: HOSTILE,
    contact: 'dpo@example.com',
    contactHref: `mailto:dpo@example.com${HOSTILE}`,
    declaredAt: '2026-03-02T09:30:00.000Z',
    declaredOn: 'March 2, 2026',
  },
};
const undeclared = { intro: 'Acme has not declared a programme.', declaration: null };

describe('renderPage', () => {
  it('escapes every value, in text and in attributes', () => {
    const html = renderPage(
      'checkin',
      {
        title: HOSTILE,
        who: HOSTILE,
        saved: HOSTILE,
        aiNotice: { ...aiNotice, purpose: HOSTILE, employerSees: HOSTILE },
        programme,
        consent: null,
        privacy,
        preferences,
        handoff: {
          handoffAction: `/checkin/${HOSTILE}/handoff`,
          sharedAt: HOSTILE,
          raisedElsewhere: null,
          developmentCommand: null,
          sandboxCompletion: null,
          doneHref: '/checkin/t/done',
          completed: false,
        },
      },
      ENGLISH,
    );
    expect(html).not.toContain('<script');
    expect(html).toContain(`<title>${ESCAPED}</title>`);
    expect(html).toContain(`<h1>${ESCAPED}</h1>`);
    expect(html).toContain(`action="/checkin/${ESCAPED}/privacy"`);
    expect(html).toContain(`action="/checkin/${ESCAPED}/handoff"`);
    expect(html).toContain(`<label for="share-earlier">${ESCAPED}<br>`);
    // The declaration is the operator's text: escaped, in text and in its link.
    expect(html).toContain(`<dd>${ESCAPED}</dd>`);
    expect(html).toContain(`<a href="mailto:dpo@example.com${ESCAPED}">dpo@example.com</a>`);
    expect(html).toContain(`<p>${ESCAPED}</p>\n<p><a href="#programme">`);
  });

  it('tells her about the AI before any button that starts the check-in, and links the declaration', () => {
    const consent = renderPage(
      'checkin',
      {
        title: 'T',
        who: 'W',
        saved: null,
        aiNotice,
        programme,
        consent: {
          action: '/checkin/t/consent',
          text: 'Please agree.',
          declineHref: '/checkin/t/declined',
          about: {
            conversation: 'C',
            employerSees: 'Acme sees level 0.',
            retention: 'R',
            device: 'D',
            operator: null,
            operatorMissing: 'M',
          },
        },
        privacy: null,
        preferences: null,
        handoff: null,
      },
      ENGLISH,
    );
    const heading = `<h2 id="ai-notice-heading">${PageTexts.aiNoticeHeading}</h2>`;
    expect(consent.indexOf(heading)).toBeGreaterThan(0);
    expect(consent.indexOf(heading)).toBeLessThan(consent.indexOf('<button'));
    expect(consent).toContain('<section aria-labelledby="programme-heading" id="programme">');
    expect(consent.indexOf('id="programme"')).toBeGreaterThan(consent.indexOf('<button'));
    expect(consent).toContain(
      '<dd><time datetime="2026-03-02T09:30:00.000Z">March 2, 2026</time></dd>',
    );
    const start = renderPage(
      'start',
      {
        title: 'T',
        who: 'W',
        aiNotice,
        text: 'Start?',
        action: '/checkin/t/start',
        about: {
          conversation: 'C',
          employerSees: 'Acme sees level 0.',
          retention: 'R',
          device: 'D',
          operator: null,
          operatorMissing: 'M',
        },
        programme: undeclared,
      },
      ENGLISH,
    );
    expect(start.indexOf(heading)).toBeGreaterThan(0);
    expect(start.indexOf(heading)).toBeLessThan(start.indexOf('<button'));
    expect(start).toContain('<p>Acme has not declared a programme.</p>\n</section>');
    expect(start).not.toContain('<dl');
  });

  it('is a complete, script-free, English document with one h1', () => {
    const html = renderPage('error', { ...PAGE_ERRORS['not-found'], backHref: null }, ENGLISH);
    expect(html).toMatch(
      /^<!doctype html>\n<html lang="en" dir="ltr">\n<head>\n<meta charset="utf-8">/,
    );
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain(`<h1>${PAGE_ERRORS['not-found'].title}</h1>`);
    expect(html).not.toMatch(/<script|javascript:|\son\w+=/i);
    expect(html).not.toContain('refresh');
    expect(html).toMatch(/:focus-visible \{\s*outline: 3px solid/);
  });

  /** A settings page model: no withdrawal, no history, unless `changes` say otherwise. */
  const settings = (changes: Partial<SettingsPageModel> = {}): SettingsPageModel => ({
    title: 'S',
    who: 'Night shift at Acme',
    saved: null,
    exportAction: '/participant/settings/export?token=t',
    deleteHref: '/participant/settings/delete?token=t',
    signOutHref: '/participant/settings/sign-out?token=t',
    withdraw: null,
    privacy,
    preferences,
    history: [],
    programme: undeclared,
    ...changes,
  });

  it('checks the current level and the preferences that are on, and marks the requested level', () => {
    const html = renderPage('settings', settings(), ENGLISH);
    expect(html).toContain('id="privacy-level-2" value="2" checked>');
    expect(html.match(/ checked>/g)).toHaveLength(2);
    expect(html).toContain('name="checkinReminder" id="pref-checkin-reminder" value="on" checked>');
    expect(html).toContain('name="privacyRequest" id="pref-privacy-request" value="on">');
    expect(html).toMatch(/Level 4<\/strong> <span class="tag requested">/);
    expect(html).toMatch(/Level 2<\/strong> <span class="tag current">/);
    expect(html).toContain(`<legend>${PageTexts.privacyLegend}</legend>`);
    expect(html).not.toContain(PageTexts.consentHeading);
    expect(html).not.toContain(PageTexts.handoffHeading);
    // Her privacy page shows the declared programme (or that none was declared), not the notice.
    expect(html).toContain(`<h2 id="programme-heading">${PageTexts.programmeHeading}</h2>`);
    expect(html).not.toContain('id="ai-notice"');
    const declared = renderPage('settings', settings({ programme }), ENGLISH);
    expect(declared).toContain(`<dt>${PageTexts.programmeBasisLabel}</dt>\n<dd>${ESCAPED}</dd>`);
  });

  it('lists the history, escaped, and offers withdrawal only when given a link for it', () => {
    const html = renderPage(
      'settings',
      settings({
        withdraw: { href: '/participant/settings/consent/withdraw?token=t', text: 'W' },
        history: [
          {
            at: '2026-11-23T10:15:30.000Z',
            when: 'Nov 23, 2026, 10:15 AM UTC',
            what: 'Privacy level 0 → 3',
            via: '<b>',
          },
        ],
      }),
      ENGLISH,
    );
    expect(html).toContain(`<h2 id="withdraw-heading">${PageTexts.withdrawHeading}</h2>`);
    // A link to a page that confirms first, looking destructive.
    expect(html).toContain(
      `<a class="button danger" href="/participant/settings/consent/withdraw?token=t">${PageTexts.withdrawLink}</a>`,
    );
    expect(html).toContain(
      '<li><time datetime="2026-11-23T10:15:30.000Z">Nov 23, 2026, 10:15 AM UTC</time>: Privacy level 0 → 3, &lt;b&gt;</li>',
    );
    const empty = renderPage('settings', settings(), ENGLISH);
    expect(empty).not.toContain('withdraw-heading');
    expect(empty).toContain(PageTexts.historyEmpty);
  });

  it('shows only consent while it is pending: who asks, what happens, and a real "No, thanks"', () => {
    const html = renderPage(
      'checkin',
      {
        title: 'T',
        who: 'Night shift at Acme',
        saved: null,
        aiNotice,
        programme: undeclared,
        consent: {
          action: '/checkin/t/consent',
          text: 'Please agree.',
          declineHref: '/checkin/t/declined',
          about: {
            conversation: 'On camera and microphone.',
            employerSees: 'Acme sees level 0.',
            retention: 'Kept 365 days.',
            device: 'Use a personal device.',
            operator: {
              text: 'Run by Op.',
              noticeHref: 'https://op.example/privacy',
              noticeLabel: 'Notice',
            },
            operatorMissing: null,
          },
        },
        privacy: null,
        preferences: null,
        handoff: null,
      },
      ENGLISH,
    );
    expect(html).toContain('<form method="post" action="/checkin/t/consent">');
    expect(html.match(/<form /g)).toHaveLength(1);
    expect(html).toContain(
      `<a class="button secondary" href="/checkin/t/declined">${PageTexts.consentDeclineButton}</a>`,
    );
    expect(html).toContain('<a href="https://op.example/privacy">Notice</a>');
    for (const text of [
      'Night shift at Acme',
      'On camera and microphone.',
      'Acme sees level 0.',
      'Kept 365 days.',
      'Run by Op.',
    ]) {
      expect(html).toContain(text);
    }
  });

  it('lets the participant check the pending page again, and never reloads it by itself (WCAG 2.2.1, docs/accessibility.md)', () => {
    const html = renderPage(
      'pending',
      {
        title: PageTexts.pendingTitle,
        retryHref: '/checkin/t/done',
      },
      ENGLISH,
    );
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain(
      `<a class="button" href="/checkin/t/done">${PageTexts.pendingTryAgain}</a>`,
    );
  });

  it('renders the one-click unsubscribe page in the same layout, escaped', () => {
    const html = renderPage(
      'unsubscribe',
      {
        title: PageTexts.unsubscribeTitle,
        text: PageTexts.unsubscribeQuestion('checkinReminder', 'Acme'),
        action: `/participant/unsubscribe?token=${HOSTILE}`,
      },
      ENGLISH,
    );
    expect(html).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr">/);
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    expect(html).toContain(`<h1>${PageTexts.unsubscribeTitle}</h1>`);
    expect(html).toContain('<p>Stop receiving check-in reminders from Acme?</p>');
    expect(html).toContain(
      `<form method="post" action="/participant/unsubscribe?token=${ESCAPED}">\n` +
        '<input type="hidden" name="List-Unsubscribe" value="One-Click">\n' +
        `<button type="submit">${PageTexts.unsubscribeButton}</button>`,
    );
    expect(html).not.toContain('<script');
    expect(PageTexts.unsubscribedText('privacyRequest', 'Acme')).toBe(
      'You will no longer receive privacy review requests from Acme. You can turn them back on in your settings.',
    );
  });
});

describe('renderPage in a language', () => {
  it('writes the page in the context’s language, with a switcher only when a GET loads it again', () => {
    const model = { ...pageErrorsIn('ar')['not-found'], backHref: null };
    const reloadable = renderPage('error', model, { locale: 'ar', url: '/checkin/t?lang=ar' });
    expect(reloadable).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(reloadable).toContain(
      `<nav class="languages" aria-label="${pageTextsIn('ar').languageSwitcherLabel}">`,
    );
    expect(reloadable).toContain('href="/checkin/t?lang=de"');
    const answer = renderPage('error', model, { locale: 'ar', url: null });
    expect(answer).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(answer).not.toContain('<nav class="languages"');
  });
});

describe('the page templates (templates/)', () => {
  const entries = Object.values(PAGE_TEMPLATES);

  it('has every template a page names, and every file in the folder is used', () => {
    expect(() =>
      loadTemplateFolder(PAGE_TEMPLATE_DIR, entries, { autoEscape: true }),
    ).not.toThrow();
    expect(unusedTemplates(PAGE_TEMPLATE_DIR, entries)).toEqual([]);
    expect(filesIn(PAGE_TEMPLATE_DIR)).toEqual(
      expect.arrayContaining([...entries, 'partials/layout.eta', 'style.css']),
    );
  });
});

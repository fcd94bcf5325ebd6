import { levelInWordsIn } from '../common/i18n/catalogue';
import type { CheckinSession } from './checkin-pages.repository';
import {
  checkinPageModel,
  consentPending,
  DeclaredProgramme,
  declaredOn,
  historyTime,
  mailtoHref,
  privacySection,
  programmeSection,
  raiseMadeElsewhere,
  settingsPageModel,
} from './page-models';
import { PageTexts, pageTextsIn, SAVED_MESSAGES, savedMessagesIn } from './pages.messages';

const session = (changes: Partial<CheckinSession> = {}): CheckinSession => ({
  participantId: '3f1c2a4e-0000-4000-8000-000000000001',
  groupId: 7,
  groupName: 'Night shift',
  enterpriseName: 'Acme',
  language: null,
  consentRequired: false,
  consentedAt: null,
  privacyLevel: 0,
  linkVersion: 0,
  raisedIn: null,
  levelBeforeRaise: null,
  participantRequestedPrivacy: null,
  groupRequestedPrivacy: [],
  prefCheckinReminder: true,
  prefPrivacyRequest: true,
  enterpriseId: '3f1c2a4e-0000-4000-8000-0000000000e1',
  externalId: `ok_${'0'.repeat(48)}`,
  sessionId: 'ses_1',
  completed: false,
  sessionConsentedAt: null,
  sandbox: false,
  returnUrl: 'https://app.example.com/done',
  raiseKeptIn: [],
  browserLevels: {},
  ...changes,
});

const ABOUT = {
  operatorName: 'Wellbeing Services Ltd',
  privacyNoticeUrl: 'https://wellbeing.example.com/privacy',
  retentionDays: 365,
};

const input = (
  changes: Partial<CheckinSession> = {},
  programme: DeclaredProgramme | null = null,
) => ({
  session: session(changes),
  programme,
  token: 'tok',
  about: ABOUT,
  saved: null,
  engineConfigured: true,
  raisedElsewhere: null,
  earlierCheckins: 0,
  developmentCommand: 'npm run cli:dev -- sessions:simulate-result ses_1',
});

describe('consentPending', () => {
  it('is true only when the group requires consent and none was given', () => {
    expect(consentPending(session({ consentRequired: true }))).toBe(true);
    expect(
      consentPending(
        session({ consentRequired: true, consentedAt: new Date(), sessionConsentedAt: new Date() }),
      ),
    ).toBe(false);
    // The membership consented on another check-in's page: this one still asks.
    expect(consentPending(session({ consentRequired: true, consentedAt: new Date() }))).toBe(true);
    expect(consentPending(session({ consentRequired: false }))).toBe(false);
  });
});

describe('privacySection', () => {
  it('shows the notice only when the requested level exceeds the current one', () => {
    const requested = session({ groupRequestedPrivacy: ['transcript'] });
    expect(privacySection('en', { ...requested, privacyLevel: 3 }, '/a').notice).toEqual({
      request: PageTexts.privacyNoticeRequest('Night shift', 4),
      current: PageTexts.privacyNoticeCurrent(3),
    });
    expect(privacySection('en', { ...requested, privacyLevel: 4 }, '/a').notice).toBeNull();
    expect(privacySection('en', { ...requested, privacyLevel: 5 }, '/a').notice).toBeNull();
  });

  it("follows the participant's own request over the group's", () => {
    const overridden = session({
      groupRequestedPrivacy: ['features'],
      participantRequestedPrivacy: [],
    });
    expect(privacySection('en', overridden, '/a').notice).toBeNull();
  });

  it('lists levels 0–5, the current one and the requested one marked', () => {
    const levels = privacySection(
      'en',
      session({ privacyLevel: 1, groupRequestedPrivacy: ['mhci', 'userPercentiles'] }),
      '/a',
    ).levels;
    expect(levels.map((level) => level.value)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(levels.filter((level) => level.current).map((level) => level.value)).toEqual([1]);
    expect(levels.filter((level) => level.requested).map((level) => level.value)).toEqual([3]);
  });

  it('marks no level as requested when nothing is requested', () => {
    const levels = privacySection('en', session(), '/a').levels;
    expect(levels.some((level) => level.requested)).toBe(false);
  });
});

describe('checkinPageModel', () => {
  it('offers consent alone while it is pending', () => {
    const model = checkinPageModel('en', input({ consentRequired: true }));
    expect(model.consent).toEqual({
      action: '/checkin/tok/consent',
      text: PageTexts.consentText('Night shift', 'Acme'),
      declineHref: '/checkin/tok/declined',
      about: {
        conversation: PageTexts.aboutConversation,
        employerSees: PageTexts.aboutEmployerSees(0, 'Acme'),
        retention: 'The transcript of your conversation is deleted 365 days after your check-in.',
        device: PageTexts.aboutManagedDevice,
        operator: {
          text: 'This service is run by Wellbeing Services Ltd for Acme.',
          noticeHref: 'https://wellbeing.example.com/privacy',
          noticeLabel: PageTexts.privacyNoticeLink,
        },
        operatorMissing: null,
      },
    });
    expect([model.privacy, model.preferences, model.handoff]).toEqual([null, null, null]);
  });

  it('offers privacy, preferences and the hand-off once consent is settled', () => {
    const model = checkinPageModel('en', { ...input(), saved: 'privacy' });
    expect(model.consent).toBeNull();
    expect(model.saved).toBe(SAVED_MESSAGES.privacy);
    // One form for both choices (no choice is lost): it posts to `choices`.
    expect(model.privacy?.action).toBe('/checkin/tok/choices');
    expect(model.preferences).toEqual({
      action: '/checkin/tok/choices',
      checkinReminder: true,
      privacyRequest: true,
    });
    expect(model.privacy?.shareEarlier).toBeNull();
    expect(model.handoff).toEqual({
      handoffAction: '/checkin/tok/handoff',
      sharedAt: 'This check-in will be shared at level 0.',
      raisedElsewhere: null,
      developmentCommand: null,
      sandboxCompletion: null,
      doneHref: '/checkin/tok/done',
      completed: false,
    });
  });

  it("never offers the engine on a sandbox's check-in: the API call that completes it instead", () => {
    const model = checkinPageModel('en', input({ sandbox: true }));
    expect(model.handoff).toMatchObject({
      handoffAction: null,
      developmentCommand: null,
      sandboxCompletion: 'POST /sandbox/sessions/ses_1/complete',
    });
  });

  it('gives the development hint only when there is no engine', () => {
    const model = checkinPageModel('en', { ...input(), engineConfigured: false });
    expect(model.handoff?.developmentCommand).toBe(
      'npm run cli:dev -- sessions:simulate-result ses_1',
    );
  });

  it('offers to share the earlier check-ins done in this browser, unticked, when there are any', () => {
    expect(
      checkinPageModel('en', { ...input(), earlierCheckins: 1 }).privacy?.shareEarlier,
    ).toEqual({
      label: 'Also share my 1 earlier check-in done in this browser',
    });
    expect(
      checkinPageModel('en', { ...input(), earlierCheckins: 3 }).privacy?.shareEarlier,
    ).toEqual({
      label: 'Also share my 3 earlier check-ins done in this browser',
    });
  });
});

describe('raiseMadeElsewhere', () => {
  it('asks only about a raise made in a browser that is not this one', () => {
    const raised = session({
      privacyLevel: 5,
      raisedIn: 'other',
      levelBeforeRaise: 1,
      browserLevels: { mine: 1 },
    });
    expect(raiseMadeElsewhere(raised, ['mine'])).toEqual({ keep: 5, back: 1 });
    expect(raiseMadeElsewhere(raised, ['mine', 'other'])).toBeNull();
    expect(raiseMadeElsewhere(session({ privacyLevel: 5 }), ['mine'])).toBeNull();
  });

  it('is answered per browser: "Keep" in one browser leaves every other one asking', () => {
    const raised = session({
      privacyLevel: 5,
      raisedIn: 'other',
      levelBeforeRaise: 1,
      raiseKeptIn: ['third'],
      browserLevels: { mine: 1 },
    });
    expect(raiseMadeElsewhere(raised, ['third'])).toBeNull();
    expect(raiseMadeElsewhere(raised, ['mine'])).toEqual({ keep: 5, back: 1 });
    // A browser that never did a check-in (no identity yet) asks too, and goes back to 0.
    expect(raiseMadeElsewhere(raised, [])).toEqual({ keep: 5, back: 0 });
  });

  it('goes back to the level this browser last chose itself, however many raises came since', () => {
    // The enterprise raised 0→1 in one browser and 1→5 in a second: hers never chose either.
    const laundered = session({ privacyLevel: 5, raisedIn: 'second', levelBeforeRaise: 1 });
    expect(raiseMadeElsewhere(laundered, ['hers'])).toEqual({ keep: 5, back: 0 });
    // She had chosen 2 herself; a lowering to 1 from anywhere since lowered her own level too.
    const chosen = session({ ...laundered, browserLevels: { hers: 2, other: 1 } });
    expect(raiseMadeElsewhere(chosen, ['hers'])).toEqual({ keep: 5, back: 2 });
    expect(raiseMadeElsewhere(chosen, ['other'])).toEqual({ keep: 5, back: 1 });
    // Her own level is the level now: nothing to ask.
    expect(
      raiseMadeElsewhere(session({ ...laundered, browserLevels: { hers: 5 } }), ['hers']),
    ).toBeNull();
  });

  it('offers both choices on the hand-off, in place of the plain button', () => {
    const model = checkinPageModel('en', { ...input(), raisedElsewhere: { keep: 5, back: 1 } });
    expect(model.handoff?.raisedElsewhere).toEqual({
      text: PageTexts.handoffRaisedElsewhere(5),
      keep: { level: 5, label: 'Keep level 5 and start' },
      back: { level: 1, label: 'Go back to level 1 and start' },
    });
  });
});

describe('settingsPageModel', () => {
  it('posts its one form with the token in the query; destructive actions confirm first', () => {
    const model = settingsPageModel('en', session(), 'a.b', 'choices');
    expect(model.privacy.action).toBe('/participant/settings/choices?token=a.b');
    expect(model.preferences.action).toBe('/participant/settings/choices?token=a.b');
    expect(model.signOutHref).toBe('/participant/settings/sign-out?token=a.b');
    expect(model.saved).toBe(SAVED_MESSAGES.choices);
  });
});

describe('the models in the language they are given', () => {
  it('write every text, saved message and time in it', () => {
    const de = pageTextsIn('de');
    const checkin = checkinPageModel('de', { ...input(), saved: 'privacy' });
    expect(checkin.title).toBe(de.checkinTitle('Night shift'));
    expect(checkin.title).not.toBe(PageTexts.checkinTitle('Night shift'));
    expect(checkin.who).toBe(de.whoLine('Night shift', 'Acme'));
    expect(checkin.saved).toBe(savedMessagesIn('de').privacy);
    expect(checkin.privacy?.intro).toBe(de.privacyIntro('Night shift'));
    expect(checkin.handoff?.sharedAt).toBe(de.handoffLevel(0));
    const at = new Date('2026-11-23T10:15:30Z');
    const settings = settingsPageModel('ja', session(), 'a.b', 'choices', [
      { groupID: 7, sessionID: null, change: 'privacyLevel', from: 0, to: 3, at, via: 'settings' },
    ]);
    expect(settings.title).toBe(pageTextsIn('ja').settingsTitle('Night shift'));
    expect(settings.saved).toBe(savedMessagesIn('ja').choices);
    expect(settings.history).toEqual([
      {
        at: '2026-11-23T10:15:30.000Z',
        when: historyTime(at, 'ja'),
        what: pageTextsIn('ja').historyChange('privacyLevel', 0, 3),
        via: pageTextsIn('ja').historyVia.settings,
      },
    ]);
  });
});

/** A declaration as ProgrammesService finds it: EU, wellbeing (biometric inference off). */
const EU_WELLBEING: DeclaredProgramme = {
  jurisdiction: 'eu',
  purpose: 'wellbeing',
  basis: 'GDPR art. 9(2)(a), explicit consent <b>&',
  contact: 'dpo@example.com',
  declaredAt: new Date('2026-03-02T09:30:00Z'),
};

describe('the AI notice and the declared programme (EU AI Act art. 50(3))', () => {
  it('says, where nothing is declared, that AI infers from her voice, face and words, and that no purpose was declared', () => {
    const model = checkinPageModel('en', input({ privacyLevel: 2 }));
    expect(model.aiNotice).toEqual({
      infers: PageTexts.aiNoticeInfers('on'),
      purpose:
        'Acme has not declared a programme for these check-ins, so it has declared no purpose for them.',
      // The "about" part's sentence: one wording of what the employer sees.
      employerSees: PageTexts.aboutEmployerSees(2, 'Acme'),
      declarationLink: PageTexts.aiNoticeNoDeclarationLink,
    });
    expect(model.aiNotice.infers).toContain('your voice, your face and your words');
    expect(model.programme).toEqual({ intro: PageTexts.programmeNone('Acme'), declaration: null });
  });

  it('says, for an EU wellbeing programme, that only her words and answers are analysed, and shows the declaration', () => {
    const model = checkinPageModel('en', input({ privacyLevel: 5 }, EU_WELLBEING));
    expect(model.aiNotice.infers).toBe(
      'This check-in uses artificial intelligence (AI) to infer your wellbeing from only your words and your answers — not your voice or face.',
    );
    expect(model.aiNotice.purpose).toBe(
      'Acme has declared that these check-ins are for wellbeing.',
    );
    expect(model.aiNotice.declarationLink).toBe(PageTexts.aiNoticeDeclarationLink);
    // Level 5 shows no voice or video features where none are inferred.
    expect(model.aiNotice.employerSees).toBe(PageTexts.aboutEmployerSees(5, 'Acme', false));
    expect(model.aiNotice.employerSees).toContain(levelInWordsIn('en', 5, false));
    expect(model.privacy?.levels[5].text).toBe(PageTexts.levelText(5, false));
    expect(JSON.stringify(model)).not.toMatch(/voice and video|your voice, your face/);
    expect(model.programme).toEqual({
      intro: 'Acme has declared the programme these check-ins belong to:',
      declaration: {
        jurisdiction: 'In the European Union',
        purpose: 'Wellbeing',
        analysed: 'Only your words and your answers — not your voice or face',
        basis: EU_WELLBEING.basis,
        contact: 'dpo@example.com',
        contactHref: 'mailto:dpo@example.com',
        declaredAt: '2026-03-02T09:30:00.000Z',
        declaredOn: 'March 2, 2026',
      },
    });
  });

  it('reuses the "about" sentence on consent, and names each declared purpose and jurisdiction in words', () => {
    const consent = checkinPageModel('en', input({ consentRequired: true }, EU_WELLBEING));
    expect(consent.aiNotice.employerSees).toBe(consent.consent?.about.employerSees);
    const safety = { ...EU_WELLBEING, jurisdiction: 'other', purpose: 'safety' } as const;
    expect(checkinPageModel('en', input({}, safety)).aiNotice).toMatchObject({
      infers: PageTexts.aiNoticeInfers('on'),
      purpose: 'Acme has declared that these check-ins are for safety reasons.',
    });
    expect(programmeSection('en', safety, 'Acme').declaration).toMatchObject({
      jurisdiction: 'Outside the European Union',
      purpose: 'Safety reasons',
      analysed: 'Your voice, your face and your words',
    });
    const medical = { ...EU_WELLBEING, purpose: 'medical' } as const;
    expect(checkinPageModel('de', input({}, medical)).aiNotice.purpose).toBe(
      pageTextsIn('de').aiNoticePurpose('medical', 'Acme'),
    );
    expect(declaredOn(EU_WELLBEING.declaredAt, 'de')).toBe('2. März 2026');
  });

  it('shows the declaration on the settings page too', () => {
    const model = settingsPageModel('en', session(), 'a.b', null, [], 0, EU_WELLBEING);
    expect(model.programme).toEqual(programmeSection('en', EU_WELLBEING, 'Acme'));
    expect(settingsPageModel('en', session(), 'a.b', null).programme.declaration).toBeNull();
  });

  it('links the contact with its address percent-encoded, never as a header or fragment', () => {
    expect(mailtoHref('dpo@example.com')).toBe('mailto:dpo@example.com');
    expect(mailtoHref('a?cc=x#y@example.com')).toBe('mailto:a%3Fcc%3Dx%23y@example.com');
  });
});

describe('historyTime', () => {
  it('writes the time as the page’s language does (Intl), in UTC, saying so', () => {
    const at = new Date('2026-11-23T10:15:30Z');
    expect(historyTime(at, 'en')).toBe('Nov 23, 2026, 10:15 AM UTC');
    expect(historyTime(at, 'de')).toBe('23. Nov. 2026, 10:15 UTC');
    expect(historyTime(at, 'ja')).toBe('2026年11月23日 10:15 UTC');
  });
});

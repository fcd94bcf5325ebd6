/**
 * What each page shows, computed from a membership (pure; the service loads and decides, the
 * templates only lay out). Every text comes from pages.messages.ts, in the `locale` the page
 * service passes (the request's PageLanguage, i18n/page-language.ts).
 */
import type { ConsentRecord } from '../participants/consent-history';
import type { CheckinSession, MemberSettings } from './checkin-pages.repository';
import type { Locale } from '../common/i18n/locales';
import {
  CheckinForm,
  checkinDonePath,
  checkinFormPath,
  checkinPath,
  settingsPath,
} from './page-links';
import type {
  AboutModel,
  AiNoticeModel,
  CheckinPageModel,
  PreferencesSectionModel,
  PrivacySectionModel,
  ProgrammeSectionModel,
  SettingsPageModel,
} from './page-templates';
import { PRIVACY_LEVELS, requestedPrivacyLevel } from '../common/privacy-model';
import { biometricInference, type Programme } from '../enterprises/programme/programme';
import { pageTextsIn, SavedFlag, savedMessagesIn } from './pages.messages';

/** An enterprise's declared programme as ProgrammesService finds it (docs/compliance.md). */
export type DeclaredProgramme = Programme & { declaredAt: Date };

/**
 * Whether the pages may say her voice and face are analysed: not where the declared programme
 * turns biometric inference off (`biometricInference`, docs/compliance.md).
 */
const biometricOn = (programme: DeclaredProgramme | null): boolean =>
  biometricInference(programme) === 'on';

/**
 * A raise of the member's level made in another browser and not yet answered in this one
 * (docs/privacy.md): the check-in asks "keep it or go back" before its hand-off. An answer holds
 * only in the browser that gave it, so every other browser asks once — one that never did a
 * check-in too. `identities`: this browser's.
 */
export function raiseMadeElsewhere(
  member: CheckinSession,
  identities: readonly string[],
): { keep: number; back: number } | null {
  const { raisedIn, privacyLevel, raiseKeptIn, browserLevels } = member;
  if (raisedIn === null || identities.includes(raisedIn)) return null;
  if (identities.some((identity) => raiseKeptIn.includes(identity))) return null;
  // "Go back" returns to the level this browser last chose itself (lowered by any lowering
  // since); a browser that never chose one goes back to 0, the level nobody chose.
  const back =
    identities.length === 0 ? 0 : Math.min(...identities.map((id) => browserLevels[id] ?? 0));
  return back < privacyLevel ? { keep: privacyLevel, back } : null;
}

/**
 * Consent is pending when the group requires it and this member has not given it — on a check-in,
 * also when it was not given to this check-in, on its own page (docs/privacy.md).
 */
export const consentPending = (member: MemberSettings | CheckinSession): boolean =>
  member.consentRequired &&
  (member.consentedAt === null ||
    ('sessionConsentedAt' in member && member.sessionConsentedAt === null));

/**
 * The privacy section; `earlierCheckins` is how many earlier check-ins of the membership this
 * browser did (the "Also share" box is offered when there are any).
 */
export function privacySection(
  locale: Locale,
  member: MemberSettings,
  action: string,
  earlierCheckins = 0,
  programme: DeclaredProgramme | null = null,
): PrivacySectionModel {
  const biometric = biometricOn(programme);
  const texts = pageTextsIn(locale);
  const current = member.privacyLevel;
  const requested = requestedPrivacyLevel(
    member.participantRequestedPrivacy,
    member.groupRequestedPrivacy,
  );
  return {
    action,
    notice:
      requested > current
        ? {
            request: texts.privacyNoticeRequest(member.groupName, requested, biometric),
            current: texts.privacyNoticeCurrent(current, biometric),
          }
        : null,
    intro: texts.privacyIntro(member.groupName),
    levels: PRIVACY_LEVELS.map((level) => ({
      value: level,
      label: texts.privacyLevelLabel(level),
      text: texts.levelText(level, biometric),
      current: level === current,
      // Level 0 is no request at all, so it is never marked as one.
      requested: requested > 0 && level === requested,
    })),
    shareEarlier: earlierCheckins > 0 ? { label: texts.shareEarlierLabel(earlierCheckins) } : null,
  };
}

export const preferencesSection = (
  member: MemberSettings,
  action: string,
): PreferencesSectionModel => ({
  action,
  checkinReminder: member.prefCheckinReminder,
  privacyRequest: member.prefPrivacyRequest,
});

/** What the pages say about who runs the service (configuration, docs/configuration.md). */
export interface AboutSettings {
  operatorName: string | null;
  privacyNoticeUrl: string | null;
  /** TRANSCRIPT_RETENTION_DAYS; 0 keeps transcripts. */
  retentionDays: number;
}

/** A history entry's time in the page's language (Intl), in UTC, which it says. */
export function historyTime(at: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(at);
}

/** "Night shift at Acme". */
export const whoLine = (locale: Locale, member: MemberSettings): string =>
  pageTextsIn(locale).whoLine(member.groupName, member.enterpriseName);

/**
 * What the employer will see of this check-in at her level now: one wording, the "about" part's,
 * which the AI notice repeats (level 5 without voice and face where the programme says so).
 */
const employerSees = (
  locale: Locale,
  member: MemberSettings,
  programme: DeclaredProgramme | null,
): string =>
  pageTextsIn(locale).aboutEmployerSees(
    member.privacyLevel,
    member.enterpriseName,
    biometricOn(programme),
  );

/** Who asks and what happens, for the start page and consent (docs/accessibility.md). */
export function aboutModel(
  locale: Locale,
  member: MemberSettings,
  settings: AboutSettings,
  programme: DeclaredProgramme | null,
): AboutModel {
  const texts = pageTextsIn(locale);
  const { operatorName, privacyNoticeUrl } = settings;
  const configured = operatorName !== null && privacyNoticeUrl !== null;
  return {
    conversation: texts.aboutConversation,
    employerSees: employerSees(locale, member, programme),
    retention: texts.aboutRetention(settings.retentionDays),
    device: texts.aboutManagedDevice,
    operator: configured
      ? {
          text: texts.aboutOperator(operatorName, member.enterpriseName),
          noticeHref: privacyNoticeUrl,
          noticeLabel: texts.privacyNoticeLink,
        }
      : null,
    operatorMissing: configured ? null : texts.privacyNoticeMissing,
  };
}

/**
 * The notice before Start (EU AI Act art. 50(3)): AI infers her wellbeing, from her voice, face
 * and words — or, where the declared programme turns biometric inference off, from her words and
 * answers only — for the declared purpose (or none declared); what the employer sees at her
 * level now, in the "about" part's words; and the link to the full declaration.
 */
export function aiNoticeModel(
  locale: Locale,
  member: MemberSettings,
  programme: DeclaredProgramme | null,
): AiNoticeModel {
  const texts = pageTextsIn(locale);
  return {
    infers: texts.aiNoticeInfers(biometricInference(programme)),
    purpose: texts.aiNoticePurpose(programme?.purpose ?? null, member.enterpriseName),
    employerSees: employerSees(locale, member, programme),
    declarationLink: programme ? texts.aiNoticeDeclarationLink : texts.aiNoticeNoDeclarationLink,
  };
}

/** A declaration's date in the page's language (Intl), in UTC, as the ledger records it. */
export function declaredOn(at: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(at);
}

/**
 * `mailto:` of a contact address (one plain mailbox, programme.ts): its local part and domain
 * percent-encoded, so that nothing in them (`?`, `#`, `%`) reads as a header or a fragment.
 */
export function mailtoHref(address: string): string {
  const at = address.lastIndexOf('@');
  return `mailto:${encodeURIComponent(address.slice(0, at))}@${encodeURIComponent(address.slice(at + 1))}`;
}

/** The declared programme in full (`#programme`), or that the enterprise declared none. */
export function programmeSection(
  locale: Locale,
  programme: DeclaredProgramme | null,
  enterpriseName: string,
): ProgrammeSectionModel {
  const texts = pageTextsIn(locale);
  if (programme === null) return { intro: texts.programmeNone(enterpriseName), declaration: null };
  return {
    intro: texts.programmeDeclared(enterpriseName),
    declaration: {
      jurisdiction: texts.programmeJurisdiction(programme.jurisdiction),
      purpose: texts.programmePurpose(programme.purpose),
      analysed: texts.programmeAnalysed(biometricInference(programme)),
      basis: programme.basis,
      contact: programme.contact,
      contactHref: mailtoHref(programme.contact),
      declaredAt: programme.declaredAt.toISOString(),
      declaredOn: declaredOn(programme.declaredAt, locale),
    },
  };
}

export interface CheckinPageInput {
  session: CheckinSession;
  /** The enterprise's declared programme (null: none declared), for the AI notice. */
  programme: DeclaredProgramme | null;
  /** Who runs the service, for consent's "about" part. */
  about: AboutSettings;
  token: string;
  saved: SavedFlag | null;
  /** Whether an analysis engine is configured to hand the check-in to. */
  engineConfigured: boolean;
  /** A raise made in another browser, asked about before the hand-off. */
  raisedElsewhere: { keep: number; back: number } | null;
  /** Earlier check-ins of the membership done in this browser. */
  earlierCheckins: number;
  /** Shown without an engine outside production. */
  developmentCommand: string | null;
}

/** The check-in page: consent alone until it is given; then privacy, email, hand-off. */
export function checkinPageModel(locale: Locale, input: CheckinPageInput): CheckinPageModel {
  const { session, token, programme } = input;
  const texts = pageTextsIn(locale);
  const action = (form: CheckinForm) => checkinFormPath(token, form);
  const base = {
    title: texts.checkinTitle(session.groupName),
    who: whoLine(locale, session),
    saved: input.saved ? savedMessagesIn(locale)[input.saved] : null,
    // Before every button that starts the check-in, in every state of the page.
    aiNotice: aiNoticeModel(locale, session, programme),
    programme: programmeSection(locale, programme, session.enterpriseName),
  };
  if (consentPending(session)) {
    return {
      ...base,
      consent: {
        action: action('consent'),
        text: texts.consentText(session.groupName, session.enterpriseName),
        // "No, thanks": a page that records nothing.
        declineHref: `${checkinPath(token)}/declined`,
        about: aboutModel(locale, session, input.about, programme),
      },
      privacy: null,
      preferences: null,
      handoff: null,
    };
  }
  return {
    ...base,
    consent: null,
    // One form for both (docs/accessibility.md: no choice is lost): it posts to `choices`.
    privacy: privacySection(locale, session, action('choices'), input.earlierCheckins, programme),
    preferences: preferencesSection(session, action('choices')),
    handoff: {
      // A sandbox's check-in never reaches the engine: nobody's real conversation is analysed
      // where the enterprise reads the participants' mails (docs/integrating.md).
      handoffAction: session.sandbox || !input.engineConfigured ? null : action('handoff'),
      sharedAt: texts.handoffLevel(session.privacyLevel),
      raisedElsewhere: input.raisedElsewhere && {
        text: texts.handoffRaisedElsewhere(input.raisedElsewhere.keep),
        keep: {
          level: input.raisedElsewhere.keep,
          label: texts.handoffKeep(input.raisedElsewhere.keep),
        },
        back: {
          level: input.raisedElsewhere.back,
          label: texts.handoffGoBack(input.raisedElsewhere.back),
        },
      },
      developmentCommand:
        input.engineConfigured || session.sandbox ? null : input.developmentCommand,
      sandboxCompletion: session.sandbox
        ? `POST /sandbox/sessions/${session.sessionId}/complete`
        : null,
      doneHref: checkinDonePath(token),
      completed: session.completed,
    },
  };
}

/** The settings page reached from emails: privacy and email preferences of one membership. */
export function settingsPageModel(
  locale: Locale,
  member: MemberSettings,
  token: string,
  saved: SavedFlag | null,
  history: readonly ConsentRecord[] = [],
  earlierCheckins = 0,
  programme: DeclaredProgramme | null = null,
): SettingsPageModel {
  const texts = pageTextsIn(locale);
  return {
    title: texts.settingsTitle(member.groupName),
    who: whoLine(locale, member),
    saved: saved ? savedMessagesIn(locale)[saved] : null,
    exportAction: settingsPath(token, 'export'),
    deleteHref: settingsPath(token, 'delete'),
    signOutHref: settingsPath(token, 'sign-out'),
    withdraw:
      member.consentRequired && member.consentedAt !== null
        ? {
            href: settingsPath(token, 'consent/withdraw'),
            text: texts.withdrawText(member.groupName),
          }
        : null,
    privacy: privacySection(
      locale,
      member,
      settingsPath(token, 'choices'),
      earlierCheckins,
      programme,
    ),
    preferences: preferencesSection(member, settingsPath(token, 'choices')),
    history: history.map((record) => ({
      at: record.at.toISOString(),
      when: historyTime(record.at, locale),
      what: texts.historyChange(record.change, record.from, record.to),
      via: texts.historyVia[record.via],
    })),
    programme: programmeSection(locale, programme, member.enterpriseName),
  };
}

/**
 * What each page shows, computed from a membership (pure; the service loads and decides, the
 * templates only lay out). Every text comes from pages.messages.ts, in the `locale` the page
 * service passes (the request's PageLanguage, i18n/page-language.ts).
 */
import type { ConsentRecord } from '../participants/consent-ledger.repository';
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
  CheckinPageModel,
  PreferencesSectionModel,
  PrivacySectionModel,
  SettingsPageModel,
} from './page-templates';
import { PRIVACY_LEVELS, requestedPrivacyLevel } from '../common/privacy-model';
import { pageTextsIn, SavedFlag, savedMessagesIn } from './pages.messages';

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
): PrivacySectionModel {
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
            request: texts.privacyNoticeRequest(member.groupName, requested),
            current: texts.privacyNoticeCurrent(current),
          }
        : null,
    intro: texts.privacyIntro(member.groupName),
    levels: PRIVACY_LEVELS.map((level) => ({
      value: level,
      label: texts.privacyLevelLabel(level),
      text: texts.levelText(level),
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

/** Who asks and what happens, for the start page and consent (docs/accessibility.md). */
export function aboutModel(
  locale: Locale,
  member: MemberSettings,
  settings: AboutSettings,
): AboutModel {
  const texts = pageTextsIn(locale);
  const { operatorName, privacyNoticeUrl } = settings;
  const configured = operatorName !== null && privacyNoticeUrl !== null;
  return {
    conversation: texts.aboutConversation,
    employerSees: texts.aboutEmployerSees(member.privacyLevel, member.enterpriseName),
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

export interface CheckinPageInput {
  session: CheckinSession;
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
  const { session, token } = input;
  const texts = pageTextsIn(locale);
  const action = (form: CheckinForm) => checkinFormPath(token, form);
  const base = {
    title: texts.checkinTitle(session.groupName),
    who: whoLine(locale, session),
    saved: input.saved ? savedMessagesIn(locale)[input.saved] : null,
  };
  if (consentPending(session)) {
    return {
      ...base,
      consent: {
        action: action('consent'),
        text: texts.consentText(session.groupName, session.enterpriseName),
        // "No, thanks": a page that records nothing.
        declineHref: `${checkinPath(token)}/declined`,
        about: aboutModel(locale, session, input.about),
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
    privacy: privacySection(locale, session, action('choices'), input.earlierCheckins),
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
    privacy: privacySection(locale, member, settingsPath(token, 'choices'), earlierCheckins),
    preferences: preferencesSection(member, settingsPath(token, 'choices')),
    history: history.map((record) => ({
      at: record.at.toISOString(),
      when: historyTime(record.at, locale),
      what: texts.historyChange(record.change, record.from, record.to),
      via: texts.historyVia[record.via],
    })),
  };
}

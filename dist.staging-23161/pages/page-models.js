"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.whoLine = exports.preferencesSection = exports.consentPending = void 0;
exports.raiseMadeElsewhere = raiseMadeElsewhere;
exports.privacySection = privacySection;
exports.historyTime = historyTime;
exports.aboutModel = aboutModel;
exports.checkinPageModel = checkinPageModel;
exports.settingsPageModel = settingsPageModel;
const page_links_1 = require("./page-links");
const privacy_model_1 = require("../common/privacy-model");
const pages_messages_1 = require("./pages.messages");
/**
 * A raise of the member's level made in another browser and not yet answered in this one
 * (docs/privacy.md): the check-in asks "keep it or go back" before its hand-off. An answer holds
 * only in the browser that gave it, so every other browser asks once — one that never did a
 * check-in too. `identities`: this browser's.
 */
function raiseMadeElsewhere(member, identities) {
    const { raisedIn, privacyLevel, raiseKeptIn, browserLevels } = member;
    if (raisedIn === null || identities.includes(raisedIn))
        return null;
    if (identities.some((identity) => raiseKeptIn.includes(identity)))
        return null;
    // "Go back" returns to the level this browser last chose itself (lowered by any lowering
    // since); a browser that never chose one goes back to 0, the level nobody chose.
    const back = identities.length === 0 ? 0 : Math.min(...identities.map((id) => browserLevels[id] ?? 0));
    return back < privacyLevel ? { keep: privacyLevel, back } : null;
}
/**
 * Consent is pending when the group requires it and this member has not given it — on a check-in,
 * also when it was not given to this check-in, on its own page (docs/privacy.md).
 */
const consentPending = (member) => member.consentRequired &&
    (member.consentedAt === null ||
        ('sessionConsentedAt' in member && member.sessionConsentedAt === null));
exports.consentPending = consentPending;
/**
 * The privacy section; `earlierCheckins` is how many earlier check-ins of the membership this
 * browser did (the "Also share" box is offered when there are any).
 */
function privacySection(locale, member, action, earlierCheckins = 0) {
    const texts = (0, pages_messages_1.pageTextsIn)(locale);
    const current = member.privacyLevel;
    const requested = (0, privacy_model_1.requestedPrivacyLevel)(member.participantRequestedPrivacy, member.groupRequestedPrivacy);
    return {
        action,
        notice: requested > current
            ? {
                request: texts.privacyNoticeRequest(member.groupName, requested),
                current: texts.privacyNoticeCurrent(current),
            }
            : null,
        intro: texts.privacyIntro(member.groupName),
        levels: privacy_model_1.PRIVACY_LEVELS.map((level) => ({
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
const preferencesSection = (member, action) => ({
    action,
    checkinReminder: member.prefCheckinReminder,
    privacyRequest: member.prefPrivacyRequest,
});
exports.preferencesSection = preferencesSection;
/** A history entry's time in the page's language (Intl), in UTC, which it says. */
function historyTime(at, locale) {
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
const whoLine = (locale, member) => (0, pages_messages_1.pageTextsIn)(locale).whoLine(member.groupName, member.enterpriseName);
exports.whoLine = whoLine;
/** Who asks and what happens, for the start page and consent (docs/accessibility.md). */
function aboutModel(locale, member, settings) {
    const texts = (0, pages_messages_1.pageTextsIn)(locale);
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
/** The check-in page: consent alone until it is given; then privacy, email, hand-off. */
function checkinPageModel(locale, input) {
    const { session, token } = input;
    const texts = (0, pages_messages_1.pageTextsIn)(locale);
    const action = (form) => (0, page_links_1.checkinFormPath)(token, form);
    const base = {
        title: texts.checkinTitle(session.groupName),
        who: (0, exports.whoLine)(locale, session),
        saved: input.saved ? (0, pages_messages_1.savedMessagesIn)(locale)[input.saved] : null,
    };
    if ((0, exports.consentPending)(session)) {
        return {
            ...base,
            consent: {
                action: action('consent'),
                text: texts.consentText(session.groupName, session.enterpriseName),
                // "No, thanks": a page that records nothing.
                declineHref: `${(0, page_links_1.checkinPath)(token)}/declined`,
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
        preferences: (0, exports.preferencesSection)(session, action('choices')),
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
            developmentCommand: input.engineConfigured || session.sandbox ? null : input.developmentCommand,
            sandboxCompletion: session.sandbox
                ? `POST /sandbox/sessions/${session.sessionId}/complete`
                : null,
            doneHref: (0, page_links_1.checkinDonePath)(token),
            completed: session.completed,
        },
    };
}
/** The settings page reached from emails: privacy and email preferences of one membership. */
function settingsPageModel(locale, member, token, saved, history = [], earlierCheckins = 0) {
    const texts = (0, pages_messages_1.pageTextsIn)(locale);
    return {
        title: texts.settingsTitle(member.groupName),
        who: (0, exports.whoLine)(locale, member),
        saved: saved ? (0, pages_messages_1.savedMessagesIn)(locale)[saved] : null,
        exportAction: (0, page_links_1.settingsPath)(token, 'export'),
        deleteHref: (0, page_links_1.settingsPath)(token, 'delete'),
        signOutHref: (0, page_links_1.settingsPath)(token, 'sign-out'),
        withdraw: member.consentRequired && member.consentedAt !== null
            ? {
                href: (0, page_links_1.settingsPath)(token, 'consent/withdraw'),
                text: texts.withdrawText(member.groupName),
            }
            : null,
        privacy: privacySection(locale, member, (0, page_links_1.settingsPath)(token, 'choices'), earlierCheckins),
        preferences: (0, exports.preferencesSection)(member, (0, page_links_1.settingsPath)(token, 'choices')),
        history: history.map((record) => ({
            at: record.at.toISOString(),
            when: historyTime(record.at, locale),
            what: texts.historyChange(record.change, record.from, record.to),
            via: texts.historyVia[record.via],
        })),
    };
}
//# sourceMappingURL=page-models.js.map
"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ParticipantChoices = void 0;
/**
 * The one home of the choices a participant makes (docs/privacy.md): their privacy level, their
 * consent, the version of their links and their email preferences. Every page and link changes
 * them through here — the check-in page, the settings page, the one-click unsubscribe — each in
 * one transaction with what it owes: a consent-ledger row per value that changed, a
 * `user.privacy.updated` event for the enterprise when the level changed, a notice mail to the
 * participant when it rose, and the group comparisons brought in line with the check-ins shown at
 * level 5 (SharedFeatures). The tables are written by their owners (participants/).
 */
const common_1 = require("@nestjs/common");
const config_module_1 = require("../config/config.module");
const database_1 = require("../database/database");
const interact_repository_1 = require("../interact/interact.repository");
const consent_ledger_repository_1 = require("../participants/consent-ledger.repository");
const memberships_repository_1 = require("../participants/memberships.repository");
const participants_repository_1 = require("../participants/participants.repository");
const sessions_repository_1 = require("../sessions/sessions.repository");
const shared_features_1 = require("../metrics/rollups/shared-features");
const events_1 = require("../webhooks/events/events");
const events_repository_1 = require("../webhooks/events/events.repository");
let ParticipantChoices = class ParticipantChoices {
    db;
    memberships;
    sessions;
    sharedFeatures;
    participants;
    ledger;
    events;
    interact;
    config;
    constructor(db, memberships, sessions, sharedFeatures, participants, ledger, events, interact, config) {
        this.db = db;
        this.memberships = memberships;
        this.sessions = sessions;
        this.sharedFeatures = sharedFeatures;
        this.participants = participants;
        this.ledger = ledger;
        this.events = events;
        this.interact = interact;
        this.config = config;
    }
    /** The language the participant chose on a page (docs/i18n.md), for their pages and mails. */
    async keepLanguage(participantId, language) {
        await this.participants.setLanguage(participantId, language);
    }
    /**
     * Gives or withdraws consent (withdrawing drops the level to 0 and revokes the membership's
     * earlier links); given on a check-in's page (`sessionId`), it is also that check-in's consent.
     * Answers the membership's link version now, or null if the member is gone.
     */
    setConsent(member, consent, via, sessionId) {
        return this.db.transaction(async (sql) => {
            const before = await this.memberships.setConsent(member.participantId, member.groupId, consent, sql);
            if (!before)
                return null;
            // Given on a check-in's page: it is that check-in's consent (docs/privacy.md). Withdrawn:
            // no check-in not yet completed keeps a consent given before.
            if (consent && sessionId)
                await this.sessions.consentTo(sessionId, sql);
            if (!consent) {
                await this.sessions.clearPendingConsents(member.participantId, member.groupId, sql);
            }
            const level = consent ? before.privacyLevel : 0;
            // A withdrawal lowers the level "Go back" returns to in every browser.
            await this.memberships.recordBrowserLevel(member.participantId, member.groupId, level, null, sql);
            await this.sessions.capSharedLevels(member.participantId, member.groupId, level, sql);
            await this.sharedFeatures.reconcileMembership(member.participantId, member.groupId, sql);
            await this.ledger.append([
                this.entry(member, via, sessionId, 'consent', before.consented, consent),
                this.entry(member, via, sessionId, 'privacyLevel', before.privacyLevel, level),
            ], sql);
            await this.levelChanged(member, before.privacyLevel, level, sql);
            return { linkVersion: before.linkVersion };
        });
    }
    /**
     * Sets the member's privacy level; false if the member is gone. A lowering reaches every
     * check-in of the membership at once; a raise only those `reach` names.
     */
    setPrivacyLevel(member, level, via, reach = {}) {
        return this.db.transaction(async (sql) => {
            const before = await this.memberships.setPrivacyLevel(member.participantId, member.groupId, level, reach.madeIn ?? null, sql);
            if (before === null)
                return false;
            const { participantId, groupId } = member;
            // The level the browser that made it chose itself: what "Go back" returns to there.
            await this.memberships.recordBrowserLevel(participantId, groupId, level, reach.madeIn ?? null, sql);
            await this.sessions.capSharedLevels(participantId, groupId, level, sql);
            if (reach.sessionId)
                await this.sessions.shareAt(reach.sessionId, level, sql);
            if (reach.shareEarlierFrom?.length) {
                await this.sessions.raiseSharedLevelsDoneIn(participantId, groupId, reach.shareEarlierFrom, level, sql);
            }
            // What the group comparisons count follows: level-5 check-ins in, the others out.
            await this.sharedFeatures.reconcileMembership(participantId, groupId, sql);
            await this.ledger.append([this.entry(member, via, reach.sessionId, 'privacyLevel', before, level)], sql);
            await this.levelChanged(member, before, level, sql);
            return true;
        });
    }
    /**
     * Sets the participant's email preferences (on the page of check-in `sessionId`, if one's);
     * false if the participant is gone.
     */
    setEmailPreferences(member, preferences, via, sessionId) {
        return this.db.transaction(async (sql) => {
            const before = await this.participants.setEmailPreferences(member.participantId, preferences, sql);
            if (!before)
                return false;
            await this.ledger.append(['checkinReminder', 'privacyRequest'].map((type) => this.entry(member, via, sessionId, type, before[type], preferences[type])), sql);
            return true;
        });
    }
    /**
     * One-click unsubscribe: turns one email preference off (it applies to all the participant's
     * groups, so the ledger row names no group); false if the participant is gone or the link was
     * revoked (docs/security.md).
     */
    unsubscribe(link, preference) {
        return this.db.transaction(async (sql) => {
            const before = await this.participants.unsubscribe(link, preference, sql);
            if (!before)
                return false;
            await this.ledger.append([
                {
                    enterpriseId: before.enterpriseId,
                    participantId: link.participantId,
                    groupId: null,
                    change: preference,
                    from: before.before,
                    to: false,
                    via: 'unsubscribe',
                    sessionId: null,
                },
            ], sql);
            return true;
        });
    }
    /**
     * "Sign out my links" (docs/security.md): every settings and unsubscribe link the participant
     * was sent, in every group, stops working. Answers the memberships' new link versions.
     */
    signOutLinks(participantId) {
        return this.memberships.bumpLinkVersions(participantId);
    }
    /** A ledger row; `sessionId`: the check-in whose page made the change, if a check-in's. */
    entry(member, via, sessionId, change, from, to) {
        return {
            enterpriseId: member.enterpriseId,
            participantId: member.participantId,
            groupId: member.groupId,
            sessionId: sessionId ?? null,
            change,
            from,
            to,
            via,
        };
    }
    async levelChanged(member, from, to, sql) {
        if (from === to)
            return;
        const payload = {
            groupID: member.groupId,
            userIdentifier: member.externalId,
            privacyLevel: to,
            previousPrivacyLevel: from,
            timestamp: new Date().toISOString(),
        };
        await this.events.insert({
            enterpriseId: member.enterpriseId,
            groupId: member.groupId,
            type: events_1.EventTypes.PrivacyUpdated,
            payload,
        }, sql);
        if (to > from) {
            await this.interact.queuePrivacyNotice({
                enterpriseId: member.enterpriseId,
                participantId: member.participantId,
                groupId: member.groupId,
                from,
                to,
            }, this.config.email.dedupWindowMs, sql);
        }
    }
};
exports.ParticipantChoices = ParticipantChoices;
exports.ParticipantChoices = ParticipantChoices = __decorate([
    (0, common_1.Injectable)(),
    __param(8, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [database_1.Database,
        memberships_repository_1.MembershipsRepository,
        sessions_repository_1.SessionsRepository,
        shared_features_1.SharedFeatures,
        participants_repository_1.ParticipantsRepository,
        consent_ledger_repository_1.ConsentLedgerRepository,
        events_repository_1.EventsRepository,
        interact_repository_1.InteractRepository, Object])
], ParticipantChoices);
//# sourceMappingURL=participant-choices.js.map
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
Object.defineProperty(exports, "__esModule", { value: true });
exports.ErasureService = void 0;
const common_1 = require("@nestjs/common");
const ids_1 = require("../common/ids");
const database_1 = require("../database/database");
const cohort_cells_repository_1 = require("../metrics/cohorts/cohort-cells.repository");
const shared_features_1 = require("../metrics/rollups/shared-features");
const consent_ledger_repository_1 = require("../participants/consent-ledger.repository");
const participants_repository_1 = require("../participants/participants.repository");
const idempotency_repository_1 = require("../sessions/idempotency.repository");
const sessions_repository_1 = require("../sessions/sessions.repository");
const events_1 = require("../webhooks/events/events");
const events_repository_1 = require("../webhooks/events/events.repository");
/** PostgreSQL's `deadlock_detected`. */
const DEADLOCK = '40P01';
const MAX_ATTEMPTS = 3;
/**
 * Erasure (docs/privacy.md), in one transaction, each table's owner forgetting its part: the
 * participant's feature values the group comparisons count are taken out of their groups'
 * histograms (SharedFeatures) and their sessions out
 * of the live per-day counts of group `count` (metric rollups — first, while the rows that say
 * what the share is still exist); releases of group metrics stay as they are (docs/metrics.md); the
 * events and idempotent answers that name them are deleted (outbox, idempotency records); the
 * participant row goes (participants), and with it, as their entities declare (ON DELETE
 * CASCADE), their memberships, sessions and results, word counts, features, mails, ledger rows
 * their sessions still waiting for a release and their budget ledger; the consent ledger keeps one anonymous `erasure` row and every group they belonged to
 * gets a `user.deleted` event (their external ID only in the event's encrypted data). Afterwards
 * the external ID is unknown everywhere, and the same email is a new participant.
 */
let ErasureService = class ErasureService {
    db;
    participants;
    sharedFeatures;
    sessions;
    cohorts;
    idempotency;
    ledger;
    events;
    constructor(db, participants, sharedFeatures, sessions, cohorts, idempotency, ledger, events) {
        this.db = db;
        this.participants = participants;
        this.sharedFeatures = sharedFeatures;
        this.sessions = sessions;
        this.cohorts = cohorts;
        this.idempotency = idempotency;
        this.ledger = ledger;
        this.events = events;
    }
    /**
     * Erases the participant; false when there is none (for this requester). A deadlock with a
     * concurrent ingestion into the same group (both reduce or raise the same rollup rows) is
     * retried: PostgreSQL rolled one of the two back whole.
     */
    async erase(externalId, requester) {
        // A malformed ID names nobody (and a NUL byte must never reach PostgreSQL as text).
        if (!ids_1.EXTERNAL_ID_PATTERN.test(externalId))
            return false;
        for (let attempt = 1;; attempt++) {
            try {
                return await this.eraseOnce(externalId, requester);
            }
            catch (error) {
                if (error.code !== DEADLOCK || attempt >= MAX_ATTEMPTS)
                    throw error;
            }
        }
    }
    eraseOnce(externalId, requester) {
        return this.db.transaction(async (sql) => {
            const participant = await this.participants.lockForErasure(externalId, requester.by === 'enterprise' ? requester.enterpriseId : null, sql);
            if (!participant)
                return false;
            if (requester.by === 'participant' && participant.id !== requester.participantId) {
                return false;
            }
            await this.eraseLocked(participant, sql);
            return true;
        });
    }
    async eraseLocked(participant, sql) {
        const { id, enterpriseId, externalId } = participant;
        // The values the group comparisons count are taken out (opened: stored only encrypted).
        await this.sharedFeatures.unshare(await this.sessions.sharedFeaturesOf(id, sql), sql);
        await this.cohorts.forgetParticipant(id, sql);
        await this.events.forgetParticipant(enterpriseId, externalId, sql);
        await this.idempotency.forgetParticipant(enterpriseId, externalId, sql);
        await this.participants.forget(id, sql);
        await this.ledger.appendErasure(enterpriseId, sql);
        const timestamp = new Date().toISOString();
        for (const groupId of participant.groupIds) {
            const payload = { groupID: groupId, timestamp };
            await this.events.insert({
                enterpriseId,
                groupId,
                type: events_1.EventTypes.Deleted,
                payload,
                pii: { userIdentifier: externalId },
            }, sql);
        }
    }
};
exports.ErasureService = ErasureService;
exports.ErasureService = ErasureService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database,
        participants_repository_1.ParticipantsRepository,
        shared_features_1.SharedFeatures,
        sessions_repository_1.SessionsRepository,
        cohort_cells_repository_1.CohortCellsRepository,
        idempotency_repository_1.IdempotencyRepository,
        consent_ledger_repository_1.ConsentLedgerRepository,
        events_repository_1.EventsRepository])
], ErasureService);
//# sourceMappingURL=erasure.service.js.map
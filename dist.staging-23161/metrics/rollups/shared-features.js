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
exports.SharedFeatures = void 0;
const common_1 = require("@nestjs/common");
const pii_cipher_1 = require("../../common/crypto/pii-cipher");
const database_1 = require("../../database/database");
const sessions_repository_1 = require("../../sessions/sessions.repository");
const transcript_codec_1 = require("../../sessions/transcript-codec");
const metric_rollups_repository_1 = require("./metric-rollups.repository");
/**
 * Which sessions the group comparisons count (docs/checkin-flow.md, "Result ingestion"): a
 * session's `groupPercentiles` compare it with the group's other sessions shown at level 5 when
 * its result is recorded — what the enterprise may read anyway — so the feature histograms hold
 * exactly those sessions' values, and `sessions.features_shared` says which. Kept in line where a
 * level changes (ingestion, the participant's choices, in their transaction), where features go
 * (erasure, retention), and by the workers' sweep for anything a transaction skipped (a row
 * another one held).
 */
let SharedFeatures = class SharedFeatures {
    db;
    sessions;
    rollups;
    cipher;
    constructor(db, sessions, rollups, cipher) {
        this.db = db;
        this.sessions = sessions;
        this.rollups = rollups;
        this.cipher = cipher;
    }
    /** Brings one membership's sessions in line with its levels now, in the caller's transaction. */
    async reconcileMembership(participantId, groupId, sql) {
        await this.reconcile(await this.sessions.featuresToReconcile({ participantId, groupId }, sql), sql);
    }
    /** The workers' pass: up to `limit` sessions anywhere; answers how many it brought in line. */
    async reconcileSome(limit) {
        return this.db.transaction(async (sql) => {
            const due = await this.sessions.featuresToReconcile({ limit }, sql);
            await this.reconcile(due, sql);
            return due.length;
        });
    }
    /** Takes these sessions' values out of the comparisons (erasure, retention). */
    async unshare(sessions, sql) {
        if (sessions.length === 0)
            return;
        await this.rollups.lockGroups(sessions.map((session) => session.groupId), sql);
        await this.rollups.forgetFeatureValues(sessions.flatMap((session) => this.valuesOf(session)), sql);
        await this.sessions.setFeaturesShared(sessions.map((session) => session.sessionId), false, sql);
    }
    async reconcile(due, sql) {
        await this.rollups.lockGroups(due.map((session) => session.groupId), sql);
        const shared = due.filter((session) => session.share);
        for (const session of shared) {
            await this.rollups.addFeatures(session.groupId, (0, metric_rollups_repository_1.featureValues)(this.featuresOf(session)), sql);
        }
        await this.sessions.setFeaturesShared(shared.map((session) => session.sessionId), true, sql);
        await this.unshare(due.filter((session) => !session.share), sql);
    }
    valuesOf(session) {
        return Object.entries(this.featuresOf(session)).map(([name, value]) => ({
            groupId: session.groupId,
            name,
            value,
        }));
    }
    /**
     * The session's features; none when the keys cannot open them (docs/data-at-rest.md, "Data the
     * keys cannot open"): such a session is marked counted but adds nothing, and takes nothing out
     * when it stops being counted, so the sweep does not meet it again.
     */
    featuresOf(session) {
        return (0, transcript_codec_1.openSessionJson)(this.cipher, 'features', session.features) ?? {};
    }
};
exports.SharedFeatures = SharedFeatures;
exports.SharedFeatures = SharedFeatures = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database,
        sessions_repository_1.SessionsRepository,
        metric_rollups_repository_1.MetricRollupsRepository,
        pii_cipher_1.PiiCipher])
], SharedFeatures);
//# sourceMappingURL=shared-features.js.map
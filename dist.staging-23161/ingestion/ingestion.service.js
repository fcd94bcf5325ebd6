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
exports.IngestionService = void 0;
const common_1 = require("@nestjs/common");
const pii_cipher_1 = require("../common/crypto/pii-cipher");
const secrets_1 = require("../common/crypto/secrets");
const api_error_1 = require("../common/errors/api-error");
const ids_1 = require("../common/ids");
const events_1 = require("../webhooks/events/events");
const events_repository_1 = require("../webhooks/events/events.repository");
const groups_repository_1 = require("../groups/groups.repository");
const window_releaser_1 = require("../metrics/windows/window-releaser");
const metric_rollups_repository_1 = require("../metrics/rollups/metric-rollups.repository");
const shared_features_1 = require("../metrics/rollups/shared-features");
const mid_rank_1 = require("../metrics/rollups/mid-rank");
const database_1 = require("../database/database");
const sessions_repository_1 = require("../sessions/sessions.repository");
const transcript_codec_1 = require("../sessions/transcript-codec");
const words_1 = require("./words");
const ingestion_errors_1 = require("./ingestion.errors");
const ingestion_repository_1 = require("./ingestion.repository");
/** Hash of the result's content, to tell a repeated post from a different result. */
function resultHash(result) {
    const canonical = {
        version: result.version,
        mhci: result.mhci,
        subscores: [
            result.subscores.vision,
            result.subscores.audio,
            result.subscores.transcript,
            result.subscores.assessment,
        ],
        transcript: result.transcript.map((turn) => [turn.role, turn.content]),
        features: Object.keys(result.features)
            .sort()
            .map((name) => [name, result.features[name]]),
        completedAt: result.completedAt ? new Date(result.completedAt).toISOString() : null,
    };
    return (0, secrets_1.sha256Hex)(JSON.stringify(canonical));
}
/**
 * Result ingestion (docs/checkin-flow.md). In one transaction, with the session row locked:
 * compute group and user percentiles (against sessions shown at level 5 only), store the result,
 * count its features in the group comparisons when it is itself shown at level 5, add the session
 * to its group's pending cohort runs and day count (docs/metrics.md), deduct a credit and write
 * the `user.session.result` event — each table through its owner. Posting the same result again
 * changes nothing; a different one is refused with 409.
 */
let IngestionService = class IngestionService {
    db;
    ingestion;
    sessions;
    rollups;
    sharedFeatures;
    releases;
    groups;
    events;
    cipher;
    constructor(db, ingestion, sessions, rollups, sharedFeatures, releases, groups, events, cipher) {
        this.db = db;
        this.ingestion = ingestion;
        this.sessions = sessions;
        this.rollups = rollups;
        this.sharedFeatures = sharedFeatures;
        this.releases = releases;
        this.groups = groups;
        this.events = events;
        this.cipher = cipher;
    }
    async ingest(sessionId, result, options = {}) {
        if (!ids_1.SESSION_ID_PATTERN.test(sessionId))
            throw api_error_1.ApiError.badRequest(ingestion_errors_1.IngestionErrors.SessionNotFound);
        const hash = resultHash(result);
        return this.db.transaction(async (sql) => {
            const session = await this.ingestion.lockSession(sessionId, sql);
            if (!session)
                throw api_error_1.ApiError.badRequest(ingestion_errors_1.IngestionErrors.SessionNotFound);
            // A sandbox takes made-up results only (its own completion route, the CLI's simulations):
            // its check-in pages never hand off to the engine, and no real analysis is stored where
            // the enterprise reads the participants' mails (docs/integrating.md).
            if (session.sandbox && !options.synthetic) {
                throw new api_error_1.ApiError(409, ingestion_errors_1.IngestionErrors.SandboxSession);
            }
            // A hand-off token the result names must be this session's current one (docs/checkin-flow.md).
            if (result.handoff !== undefined && (0, secrets_1.sha256Hex)(result.handoff) !== session.handoffTokenHash) {
                throw new api_error_1.ApiError(409, ingestion_errors_1.IngestionErrors.HandoffMismatch);
            }
            if (session.status === 'completed') {
                if (session.resultHash === hash)
                    return 'already-recorded';
                throw new api_error_1.ApiError(409, ingestion_errors_1.IngestionErrors.DifferentResult);
            }
            if (session.consentMissing)
                throw new api_error_1.ApiError(409, ingestion_errors_1.IngestionErrors.ConsentMissing);
            const completedAt = result.completedAt ? new Date(result.completedAt) : new Date();
            const groupPercentiles = await this.rollups.groupPercentiles(session.groupId, (0, metric_rollups_repository_1.featureValues)(result.features), sql);
            const userPercentiles = await this.userPercentiles(session, result.features, sql);
            const userTurns = result.transcript
                .filter((turn) => turn.role === 'user')
                .map((turn) => turn.content);
            const words = (0, words_1.countWords)(userTurns);
            await this.sessions.complete(sessionId, {
                completedAt,
                version: result.version,
                mhci: result.mhci,
                subscores: {
                    vision: result.subscores.vision,
                    audio: result.subscores.audio,
                    transcript: result.subscores.transcript,
                    assessment: result.subscores.assessment,
                },
                sealedTranscript: (0, transcript_codec_1.sealTranscript)(this.cipher, result.transcript),
                sealedFeatures: (0, transcript_codec_1.sealJson)(this.cipher, result.features),
                sealedWordCounts: (0, transcript_codec_1.sealJson)(this.cipher, Object.fromEntries([...words.keys()].sort().map((word) => [word, words.get(word)]))),
                countedWords: [...words.values()].reduce((sum, count) => sum + count, 0),
                groupPercentiles,
                userPercentiles,
                resultHash: hash,
                synthetic: options.synthetic ?? false,
            }, 
            // The level it is shared at (docs/privacy.md): handed off from a page and confirmed by
            // the browser that did, the level handed off; a sandbox's made-up result, the member's;
            // anything else, 0 for good.
            session.sandbox ? 'memberLevel' : session.handoffConfirmed ? 'handedOff' : 'pinnedAtZero', sql);
            // Shown at level 5 now: its features join what later sessions of the group compare with.
            await this.sharedFeatures.reconcileMembership(session.participantId, session.groupId, sql);
            await this.releases.addCompleted(session, completedAt, sql);
            await this.groups.deductCredit(session.groupId, sql);
            const payload = {
                groupID: session.groupId,
                sessionID: session.sessionId,
                externalUserID: session.externalId,
                timestamp: completedAt.toISOString(),
            };
            await this.events.insert({
                enterpriseId: session.enterpriseId,
                groupId: session.groupId,
                type: events_1.EventTypes.SessionResult,
                payload,
            }, sql);
            return 'completed';
        });
    }
    /**
     * Mid-rank percentile of each of the session's features among the participant's own other
     * completed sessions shown at level 5 now (every group; what the enterprise may read anyway)
     * and itself (midRankPercentiles, metrics/rollups/mid-rank.ts). Their values are stored only
     * encrypted, so they are opened here — a participant has few sessions. One the keys cannot open
     * counts as one whose features retention removed (docs/data-at-rest.md).
     */
    async userPercentiles(session, features, sql) {
        const others = (await this.sessions.levelFiveFeaturesOf(session.participantId, session.sessionId, sql))
            .map((row) => (0, transcript_codec_1.openSessionJson)(this.cipher, 'features', row.features))
            .filter((values) => values !== null);
        return (0, mid_rank_1.midRankPercentiles)(features, others);
    }
};
exports.IngestionService = IngestionService;
exports.IngestionService = IngestionService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database,
        ingestion_repository_1.IngestionRepository,
        sessions_repository_1.SessionsRepository,
        metric_rollups_repository_1.MetricRollupsRepository,
        shared_features_1.SharedFeatures,
        window_releaser_1.WindowReleaser,
        groups_repository_1.GroupsRepository,
        events_repository_1.EventsRepository,
        pii_cipher_1.PiiCipher])
], IngestionService);
//# sourceMappingURL=ingestion.service.js.map
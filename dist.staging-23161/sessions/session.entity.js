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
exports.SessionEntity = void 0;
const typeorm_1 = require("typeorm");
const privacy_model_1 = require("../common/privacy-model");
const entity_columns_1 = require("../database/entity-columns");
const enterprise_entity_1 = require("../enterprises/enterprise.entity");
const membership_entity_1 = require("../participants/membership.entity");
/** Schema of `sessions`: a check-in and, once completed, its result. */
let SessionEntity = class SessionEntity {
    sessionId;
    enterpriseId;
    participantId;
    groupId;
    /** The session belongs to a membership: (participant_id, group_id). */
    membership;
    status;
    /**
     * The check-in's own privacy level (docs/privacy.md): set at the hand-off to the engine (or when
     * a result is recorded without one) to the member's level then; raised only from a page in the
     * browser that did the check-in; lowered with every lowering of the member's level. What the API
     * shows of the session is the lower of this and the member's level now. Null until then.
     */
    sharedLevel;
    /**
     * When the participant consented to this check-in, on its own page (docs/privacy.md): in a
     * group that requires consent, a result is recorded only for a check-in consented to, by a
     * member whose consent stands. Consent given on another check-in's page does not count.
     */
    consentedAt;
    /**
     * Whether a result needs the member's consent to this check-in (docs/privacy.md): the group's
     * `consentRequired` when the session was created, fixed again when it is handed off. Switching
     * the group's flag off later never lets in a result she withdrew from or never consented to.
     */
    consentRequired;
    /**
     * The SHA-256 of the one-time token of the latest hand-off to the engine (docs/checkin-flow.md,
     * "Hand-off"): the engine's address carries the token, the confirm step and the result name it.
     * Null until a page hands the check-in off; a new hand-off replaces it.
     */
    handoffTokenHash;
    /**
     * When the browser that handed the check-in off confirmed the hand-off (`GET /checkin/confirm`):
     * only then does the result count at the handed-off level.
     */
    handoffConfirmedAt;
    /**
     * The result was recorded at level 0 because no confirmed hand-off led to it (docs/privacy.md):
     * no page can raise it afterwards, as no browser provably did the check-in.
     */
    levelPinned;
    returnUrl;
    createdAt;
    completedAt;
    /** The analysis engine's version that scored the session (null while pending). */
    version;
    mhci;
    subscores;
    groupPercentiles;
    userPercentiles;
    /**
     * The turns' JSON, encrypted (transcript-codec.ts); null while pending and once retention has
     * removed it. Not jsonb: the database never sees the text.
     */
    transcript;
    /**
     * The features' JSON (name → value), encrypted like the transcript; null while pending and once
     * retention has removed them.
     */
    features;
    /**
     * The features are counted in the group's comparisons (group_feature_histograms and
     * group_feature_values): the session is shown at level 5 (docs/checkin-flow.md).
     */
    featuresShared;
    /**
     * The counted words of the participant's turns as JSON (word → count), encrypted like the
     * transcript: for their own word cloud and for the words releases of group metrics (docs/metrics.md). Null while
     * pending and once retention has removed the transcript.
     */
    wordCounts;
    /** How many words were counted (not which): whether the session gives a word cloud anything. */
    countedWords;
    /** SHA-256 of the result as posted: a repeated post is told apart from a different one. */
    resultHash;
    synthetic;
};
exports.SessionEntity = SessionEntity;
__decorate([
    (0, typeorm_1.PrimaryColumn)({ name: 'session_id', type: 'text', primaryKeyConstraintName: 'sessions_pkey' }),
    __metadata("design:type", String)
], SessionEntity.prototype, "sessionId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'sessions_enterprise_fkey'),
    __metadata("design:type", String)
], SessionEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'participant_id', type: 'uuid' }),
    __metadata("design:type", String)
], SessionEntity.prototype, "participantId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'group_id', type: 'bigint' }),
    __metadata("design:type", Number)
], SessionEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.ManyToOne)(() => membership_entity_1.MembershipEntity, { onDelete: 'CASCADE' }),
    (0, typeorm_1.JoinColumn)([
        {
            name: 'participant_id',
            referencedColumnName: 'participantId',
            foreignKeyConstraintName: 'sessions_membership_fkey',
        },
        {
            name: 'group_id',
            referencedColumnName: 'groupId',
            foreignKeyConstraintName: 'sessions_membership_fkey',
        },
    ]),
    __metadata("design:type", membership_entity_1.MembershipEntity)
], SessionEntity.prototype, "membership", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', default: 'created' }),
    __metadata("design:type", String)
], SessionEntity.prototype, "status", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'shared_level', type: 'smallint', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "sharedLevel", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'consented_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "consentedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'consent_required', type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], SessionEntity.prototype, "consentRequired", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'handoff_token_hash', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "handoffTokenHash", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'handoff_confirmed_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "handoffConfirmedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'level_pinned', type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], SessionEntity.prototype, "levelPinned", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'return_url', type: 'text' }),
    __metadata("design:type", String)
], SessionEntity.prototype, "returnUrl", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], SessionEntity.prototype, "createdAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'completed_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "completedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "version", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'double precision', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "mhci", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'jsonb', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "subscores", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'group_percentiles', type: 'jsonb', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "groupPercentiles", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'user_percentiles', type: 'jsonb', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "userPercentiles", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "transcript", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "features", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'features_shared', type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], SessionEntity.prototype, "featuresShared", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'word_counts', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "wordCounts", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'counted_words', type: 'integer', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "countedWords", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'result_hash', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], SessionEntity.prototype, "resultHash", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], SessionEntity.prototype, "synthetic", void 0);
exports.SessionEntity = SessionEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'sessions' })
    // Covering partial indexes with INCLUDE columns, which TypeORM cannot describe: the migration
    // owns them and schema comparison leaves them alone.
    ,
    (0, typeorm_1.Index)('sessions_group_completed_mhci_idx', { synchronize: false }),
    (0, typeorm_1.Index)('sessions_participant_completed_mhci_idx', { synchronize: false }),
    (0, typeorm_1.Index)('sessions_participant_created_idx', ['participantId', 'createdAt'])
    // The retention sweep's work list: completed sessions still holding a transcript, oldest first.
    ,
    (0, typeorm_1.Index)('sessions_transcript_retention_idx', ['completedAt'], { where: 'transcript IS NOT NULL' })
    // What the workers' reconciliation of the group comparisons reads (docs/checkin-flow.md): sessions
    // shared at level 5 whose features are not counted yet, and counted ones whose level went below
    // 5. Both are empty while every change goes through the participant's choices.
    ,
    (0, typeorm_1.Index)('sessions_features_to_share_idx', ['groupId'], {
        where: '((shared_level = 5) AND (NOT features_shared) AND (features IS NOT NULL))',
    }),
    (0, typeorm_1.Index)('sessions_features_to_unshare_idx', ['groupId'], {
        where: '(features_shared AND (shared_level < 5))',
    })
    // The confirm step finds a hand-off by its token (docs/checkin-flow.md, "Hand-off").
    ,
    (0, typeorm_1.Index)('sessions_handoff_token_idx', ['handoffTokenHash'], {
        unique: true,
        where: '(handoff_token_hash IS NOT NULL)',
    }),
    (0, typeorm_1.Check)('sessions_session_id_format', "(session_id ~ '^ses_[0-9A-Za-z]{24}$'::text)"),
    (0, typeorm_1.Check)('sessions_status_values', "(status = ANY (ARRAY['created'::text, 'completed'::text]))"),
    (0, typeorm_1.Check)('sessions_completed_consistency', "((status = 'completed'::text) = (completed_at IS NOT NULL))"),
    (0, typeorm_1.Check)('sessions_shared_level_range', `((shared_level >= ${privacy_model_1.MIN_PRIVACY_LEVEL}) AND (shared_level <= ${privacy_model_1.MAX_PRIVACY_LEVEL}))`)
], SessionEntity);
//# sourceMappingURL=session.entity.js.map
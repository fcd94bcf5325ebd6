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
exports.ConsentRecordEntity = exports.CONSENT_VIAS = exports.CONSENT_CHANGES = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../database/entity-columns");
const enterprise_entity_1 = require("../enterprises/enterprise.entity");
const group_entity_1 = require("../groups/group.entity");
const participant_entity_1 = require("./participant.entity");
/** What a ledger row records (docs/privacy.md); `erasure` is the one anonymous row an erasure leaves. */
exports.CONSENT_CHANGES = [
    'consent',
    'privacyLevel',
    'checkinReminder',
    'privacyRequest',
    'erasure',
];
/** Where the change was made. */
exports.CONSENT_VIAS = ['checkin', 'settings', 'unsubscribe', 'erasure'];
const valuesCheck = (column, values) => `(${column} = ANY (ARRAY[${values.map((value) => `'${value}'::text`).join(', ')}]))`;
/**
 * Schema of `consent_ledger`: every consent, privacy-level and email-preference change a
 * participant made, appended and never updated. The participant sees it on the settings page;
 * the enterprise reads it at GET /participants/{externalID}/consents. Email preferences belong
 * to the participant (all groups of the enterprise): `group_id` is the group whose page made the
 * change, null from an unsubscribe link. An erasure deletes the participant's rows and leaves one
 * row without participant or group.
 */
let ConsentRecordEntity = class ConsentRecordEntity {
    id;
    enterpriseId;
    participantId;
    groupId;
    /**
     * The check-in whose page made the change (docs/privacy.md); null from the settings page or an
     * unsubscribe link. No foreign key: the ledger is append-only, and a participant's rows go with
     * the participant (erasure) anyway.
     */
    sessionId;
    change;
    /** A number (privacy level) or a boolean (consent, preferences); null for `erasure`. */
    fromValue;
    toValue;
    via;
    at;
};
exports.ConsentRecordEntity = ConsentRecordEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('identity', {
        type: 'bigint',
        generatedIdentity: 'ALWAYS',
        primaryKeyConstraintName: 'consent_ledger_pkey',
    }),
    __metadata("design:type", Number)
], ConsentRecordEntity.prototype, "id", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'consent_ledger_enterprise_fkey'),
    __metadata("design:type", String)
], ConsentRecordEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => participant_entity_1.ParticipantEntity, 'uuid', 'consent_ledger_participant_fkey', {
        nullable: true,
    }),
    __metadata("design:type", Object)
], ConsentRecordEntity.prototype, "participantId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'consent_ledger_group_fkey', { nullable: true }),
    __metadata("design:type", Object)
], ConsentRecordEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'session_id', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], ConsentRecordEntity.prototype, "sessionId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], ConsentRecordEntity.prototype, "change", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'from_value', type: 'jsonb', nullable: true }),
    __metadata("design:type", Object)
], ConsentRecordEntity.prototype, "fromValue", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'to_value', type: 'jsonb', nullable: true }),
    __metadata("design:type", Object)
], ConsentRecordEntity.prototype, "toValue", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], ConsentRecordEntity.prototype, "via", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'timestamptz', default: () => 'now()' }),
    __metadata("design:type", Date)
], ConsentRecordEntity.prototype, "at", void 0);
exports.ConsentRecordEntity = ConsentRecordEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'consent_ledger' }),
    (0, typeorm_1.Index)('consent_ledger_participant_idx', ['participantId', 'id']),
    (0, typeorm_1.Check)('consent_ledger_change_values', valuesCheck('change', exports.CONSENT_CHANGES)),
    (0, typeorm_1.Check)('consent_ledger_via_values', valuesCheck('via', exports.CONSENT_VIAS))
], ConsentRecordEntity);
//# sourceMappingURL=consent-record.entity.js.map
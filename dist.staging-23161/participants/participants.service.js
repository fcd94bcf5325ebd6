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
exports.ParticipantsService = void 0;
const common_1 = require("@nestjs/common");
const api_error_1 = require("../common/errors/api-error");
const ids_1 = require("../common/ids");
const consent_ledger_repository_1 = require("./consent-ledger.repository");
const memberships_repository_1 = require("./memberships.repository");
const participants_errors_1 = require("./participants.errors");
const participants_repository_1 = require("./participants.repository");
let ParticipantsService = class ParticipantsService {
    participants;
    memberships;
    ledger;
    constructor(participants, memberships, ledger) {
        this.participants = participants;
        this.memberships = memberships;
        this.ledger = ledger;
    }
    /** The enterprise's participant, or 400 `Participant not found` (also for malformed ids). */
    async require(enterpriseId, externalId) {
        const participant = ids_1.EXTERNAL_ID_PATTERN.test(externalId)
            ? await this.participants.findForEnterprise(enterpriseId, externalId)
            : null;
        if (!participant)
            throw api_error_1.ApiError.badRequest(participants_errors_1.ParticipantErrors.NotFound);
        return participant;
    }
    async get(enterpriseId, externalId) {
        const participant = await this.require(enterpriseId, externalId);
        const memberships = await this.memberships.listForEnterprise(enterpriseId, participant.id);
        return {
            externalID: participant.externalId,
            userGroups: memberships.map((membership) => ({
                externalID: participant.externalId,
                groupID: membership.groupId,
                joinDate: membership.joinDate.toISOString(),
                privacyLevel: membership.privacyLevel,
            })),
        };
    }
    /** The participant's consent ledger, oldest first (docs/privacy.md). */
    async listConsents(enterpriseId, externalId) {
        const participant = await this.require(enterpriseId, externalId);
        const records = await this.ledger.list(enterpriseId, participant.id);
        return records.map((record) => ({ ...record, at: record.at.toISOString() }));
    }
    async listSessions(enterpriseId, externalId) {
        const participant = await this.require(enterpriseId, externalId);
        return this.participants.listSessionIds(enterpriseId, participant.id);
    }
};
exports.ParticipantsService = ParticipantsService;
exports.ParticipantsService = ParticipantsService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [participants_repository_1.ParticipantsRepository,
        memberships_repository_1.MembershipsRepository,
        consent_ledger_repository_1.ConsentLedgerRepository])
], ParticipantsService);
//# sourceMappingURL=participants.service.js.map
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
exports.GroupsRepository = exports.groupOf = exports.LIST_FOR_ENTERPRISE = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
const entity_columns_1 = require("../database/entity-columns");
const group_entity_1 = require("./group.entity");
const GROUP = (0, entity_columns_1.columnsOf)(group_entity_1.GroupEntity, [
    'groupId',
    'name',
    'requestedPrivacy',
    'inviteCode',
    'key',
    'consentRequired',
    'credits',
]);
/** The list of an enterprise's groups, and a group of its rows (bench/row-mode.js times both). */
exports.LIST_FOR_ENTERPRISE = `SELECT ${GROUP.select()} FROM groups WHERE enterprise_id = $1 ORDER BY group_id`;
const groupOf = (tuple) => ({
    groupId: tuple[0],
    name: tuple[1],
    requestedPrivacy: tuple[2],
    inviteCode: tuple[3],
    key: tuple[4],
    consentRequired: tuple[5],
    credits: tuple[6],
});
exports.groupOf = groupOf;
/** Groups' SQL. Every method is scoped by the calling enterprise. */
/** A group by id, the enterprise's own: every POST /session/create starts here (prepared). */
const FIND_FOR_ENTERPRISE = (0, database_1.statement)('groups-find-for-enterprise', `SELECT ${GROUP.select()} FROM groups WHERE group_id = $1 AND enterprise_id = $2`);
let GroupsRepository = class GroupsRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    async listForEnterprise(enterpriseId) {
        // As arrays: GET /groups' rows, 100 in the benchmark (Database.tuples).
        const tuples = await this.db.tuples(exports.LIST_FOR_ENTERPRISE, [enterpriseId]);
        return tuples.map(exports.groupOf);
    }
    async findForEnterprise(enterpriseId, groupId) {
        const [group] = await this.db.rows(FIND_FOR_ENTERPRISE, [groupId, enterpriseId]);
        return group ?? null;
    }
    async existsForEnterprise(enterpriseId, groupId) {
        const rows = await this.db.rows('SELECT 1 FROM groups WHERE group_id = $1 AND enterprise_id = $2', [groupId, enterpriseId]);
        return rows.length > 0;
    }
    async insertForEnterprise(enterpriseId, values) {
        const [group] = await this.db.rows(`INSERT INTO groups (enterprise_id, name, key, invite_code) VALUES ($1, $2, $3, $4)
       RETURNING ${GROUP.select()}`, [enterpriseId, values.name, values.key, values.inviteCode]);
        return group;
    }
    /** Changes the given fields (null = keep); null when the enterprise has no such group. */
    async updateForEnterprise(enterpriseId, groupId, changes) {
        const [group] = await this.db.rows(`UPDATE groups
          SET name = coalesce($3, name),
              consent_required = coalesce($4, consent_required),
              updated_at = now()
        WHERE group_id = $1 AND enterprise_id = $2
      RETURNING ${GROUP.select()}`, [groupId, enterpriseId, changes.name, changes.consentRequired]);
        return group ?? null;
    }
    /** Deletes the group and, through ON DELETE CASCADE, everything that hangs off it. */
    async deleteForEnterprise(enterpriseId, groupId) {
        const rows = await this.db.rows('DELETE FROM groups WHERE group_id = $1 AND enterprise_id = $2 RETURNING group_id', [groupId, enterpriseId]);
        return rows.length > 0;
    }
    /** External IDs of the group's participants, in the order they joined. */
    async listParticipantExternalIds(enterpriseId, groupId) {
        const rows = await this.db.rows(`SELECT p.external_id AS "externalId"
         FROM memberships m
         JOIN participants p ON p.id = m.participant_id
        WHERE m.group_id = $1 AND p.enterprise_id = $2
        ORDER BY m.join_date, p.external_id`, [groupId, enterpriseId]);
        return rows.map((row) => row.externalId);
    }
    /** Stores the group's privacy request; false when the enterprise has no such group. */
    async setRequestedPrivacy(enterpriseId, groupId, names) {
        const rows = await this.db.rows(`UPDATE groups SET requested_privacy = $3, updated_at = now()
        WHERE group_id = $1 AND enterprise_id = $2 RETURNING group_id`, [groupId, enterpriseId, names]);
        return rows.length > 0;
    }
    /** Whether a group with this id exists at all, in any enterprise. */
    async existsAnywhere(groupId) {
        const rows = await this.db.rows('SELECT 1 FROM groups WHERE group_id = $1', [groupId]);
        return rows.length > 0;
    }
    /** One credit per completed check-in; balances may go negative (never blocks a check-in). */
    async deductCredit(groupId, sql = this.db) {
        await sql.rows('UPDATE groups SET credits = credits - 1 WHERE group_id = $1', [groupId]);
    }
};
exports.GroupsRepository = GroupsRepository;
exports.GroupsRepository = GroupsRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], GroupsRepository);
//# sourceMappingURL=groups.repository.js.map
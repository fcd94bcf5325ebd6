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
exports.SandboxRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
const entity_columns_1 = require("../database/entity-columns");
const sandbox_email_entity_1 = require("../interact/sandbox-email.entity");
const CAPTURED = (0, entity_columns_1.columnsOf)(sandbox_email_entity_1.SandboxEmailEntity, ['subject', 'textCiphertext', 'createdAt']);
/** The sandbox routes' SQL (the mails are captured by the email worker, interact/sending/). */
let SandboxRepository = class SandboxRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /** The enterprise's captured mails, newest first, at most `limit`. */
    async listEmails(enterpriseId, limit, sql = this.db) {
        return sql.rows(`SELECT ${CAPTURED.select('c')}, e.type AS "type", e.group_id AS "groupId",
              p.external_id AS "externalId", p.email_ciphertext AS "emailCiphertext"
         FROM sandbox_emails c
         JOIN email_messages e ON e.id = c.email_message_id
         JOIN participants p ON p.id = e.participant_id
        WHERE c.enterprise_id = $1
        ORDER BY c.created_at DESC, c.email_message_id DESC
        LIMIT $2`, [enterpriseId, limit]);
    }
};
exports.SandboxRepository = SandboxRepository;
exports.SandboxRepository = SandboxRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], SandboxRepository);
//# sourceMappingURL=sandbox.repository.js.map
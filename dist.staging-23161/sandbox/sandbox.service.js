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
exports.SandboxService = void 0;
const common_1 = require("@nestjs/common");
const ingestion_errors_1 = require("../ingestion/ingestion.errors");
const ingestion_service_1 = require("../ingestion/ingestion.service");
const synthetic_result_1 = require("../ingestion/synthetic-result");
const pii_cipher_1 = require("../common/crypto/pii-cipher");
const sealed_reads_1 = require("../common/crypto/sealed-reads");
const api_error_1 = require("../common/errors/api-error");
const sessions_service_1 = require("../sessions/sessions.service");
const sandbox_errors_1 = require("./sandbox.errors");
const sandbox_repository_1 = require("./sandbox.repository");
/**
 * Sandbox enterprises (docs/integrating.md), like a payment API's test mode: complete a session without
 * the analysis engine, through the real ingestion path, and read the mails the email worker
 * captured instead of sending them. Only sandbox enterprises get here (SandboxEnterpriseGuard).
 */
let SandboxService = class SandboxService {
    sessions;
    ingestion;
    repository;
    cipher;
    constructor(sessions, ingestion, repository, cipher) {
        this.sessions = sessions;
        this.ingestion = ingestion;
        this.repository = repository;
        this.cipher = cipher;
    }
    /**
     * Completes the enterprise's session with `result`, or with a synthetic one when none is given,
     * through ingestion (result, percentiles, rollups, credit, `user.session.result` event: one
     * transaction), and answers the session as `GET /sessions/{sessionID}` shows it — limited by
     * the participant's privacy level like any read. Every sandbox completion is flagged
     * `synthetic`: no engine scored it.
     *
     * The same explicit result again changes nothing (ingestion's idempotence). Any other
     * completion of a completed session — a synthetic one, or a different result — is 409
     * `Session already completed`. A group that requires consent the member has not given keeps
     * ingestion's 409.
     */
    async complete(enterpriseId, sessionId, result) {
        // Tenancy before anything: ingestion itself looks sessions up across every enterprise.
        await this.sessions.findOwned(enterpriseId, sessionId);
        try {
            await this.ingestion.ingest(sessionId, result ?? (0, synthetic_result_1.syntheticResult)(), { synthetic: true });
        }
        catch (error) {
            if (error instanceof api_error_1.ApiError && error.message === ingestion_errors_1.IngestionErrors.DifferentResult) {
                throw new api_error_1.ApiError(409, sandbox_errors_1.SandboxErrors.AlreadyCompleted);
            }
            throw error;
        }
        return this.sessions.get(enterpriseId, sessionId);
    }
    /**
     * The enterprise's captured mails, newest first, at most {@link SANDBOX_EMAILS_LIMIT}. A mail
     * whose address or text the keys cannot open is left out, as if removed (docs/data-at-rest.md,
     * "Data the keys cannot open").
     */
    async emails(enterpriseId) {
        const rows = await this.repository.listEmails(enterpriseId, sandbox_errors_1.SANDBOX_EMAILS_LIMIT);
        return rows.flatMap((row) => {
            const to = (0, sealed_reads_1.openSealed)(this.cipher, 'participants.email_ciphertext', row.emailCiphertext);
            const text = (0, sealed_reads_1.openSealed)(this.cipher, 'sandbox_emails.text_ciphertext', row.textCiphertext);
            if (to === null || text === null)
                return [];
            return [
                {
                    to,
                    userIdentifier: row.externalId,
                    emailType: row.type,
                    subject: row.subject,
                    text,
                    groupID: row.groupId,
                    createdAt: row.createdAt.toISOString(),
                },
            ];
        });
    }
};
exports.SandboxService = SandboxService;
exports.SandboxService = SandboxService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [sessions_service_1.SessionsService,
        ingestion_service_1.IngestionService,
        sandbox_repository_1.SandboxRepository,
        pii_cipher_1.PiiCipher])
], SandboxService);
//# sourceMappingURL=sandbox.service.js.map
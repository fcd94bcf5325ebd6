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
exports.EnterprisesService = exports.SANDBOX_NOTE = void 0;
const common_1 = require("@nestjs/common");
const privacy_model_1 = require("../common/privacy-model");
const database_1 = require("../database/database");
const enterprises_repository_1 = require("./enterprises.repository");
const api_keys_service_1 = require("./api-keys.service");
const enterprises_errors_1 = require("./enterprises.errors");
/** A floor option as typed: absent (null, keep), or a whole number in the floor's range. */
function floorValue(option, value) {
    if (value === undefined)
        return null;
    const n = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
    if (!(n >= privacy_model_1.PRIVACY_FLOOR.min && n <= privacy_model_1.PRIVACY_FLOOR.max)) {
        throw new Error(enterprises_errors_1.EnterpriseErrors.FloorInvalid(option, value));
    }
    return n;
}
/** `--budget` or `--max-margin` as typed: absent (null, keep), or 1–100 with two decimals at most. */
function budgetOption(option, value) {
    if (value === undefined)
        return null;
    const n = (0, privacy_model_1.parseBudgetNumber)(value, privacy_model_1.METRICS_BUDGET.min, privacy_model_1.METRICS_BUDGET.max);
    if (n === null)
        throw new Error(enterprises_errors_1.EnterpriseErrors.BudgetInvalid(option, value));
    return n;
}
/** `--window` as typed: absent (null, keep), `month` or `week`. */
function windowOption(value) {
    if (value === undefined)
        return null;
    if (value !== 'month' && value !== 'week')
        throw new Error(enterprises_errors_1.EnterpriseErrors.WindowInvalid(value));
    return value;
}
/** What an operator is told about a sandbox enterprise they created (CLI, development bootstrap). */
exports.SANDBOX_NOTE = 'Sandbox: complete its sessions with POST /sandbox/sessions/{sessionID}/complete; ' +
    'its mails are captured at GET /sandbox/emails, never sent.';
/** Operator actions on tenants; used by the CLI and the development bootstrap. */
let EnterprisesService = class EnterprisesService {
    db;
    repository;
    apiKeys;
    constructor(db, repository, apiKeys) {
        this.db = db;
        this.repository = repository;
        this.apiKeys = apiKeys;
    }
    /**
     * Creates an enterprise and its first API key in one transaction; a sandbox with
     * `{ sandbox: true }` (fixed for the enterprise's life).
     */
    async create(rawName, options = {}) {
        const name = rawName.trim();
        if (!name)
            throw new Error(enterprises_errors_1.EnterpriseErrors.NameRequired);
        return this.db.transaction((sql) => this.insertWithKey(name, options, sql));
    }
    /**
     * Creates an enterprise only when none exists (development bootstrap). An advisory lock makes
     * two processes starting together create one, not two.
     */
    async createIfNoneExist(name, options = {}) {
        return this.db.transaction(async (sql) => {
            await this.repository.lockForBootstrap(sql);
            if ((await this.repository.count(sql)) > 0)
                return null;
            return this.insertWithKey(name, options, sql);
        });
    }
    async createApiKey(enterpriseId) {
        await this.assertExists(enterpriseId);
        return this.apiKeys.issue(enterpriseId);
    }
    async listApiKeys(enterpriseId) {
        await this.assertExists(enterpriseId);
        return this.apiKeys.list(enterpriseId);
    }
    async revokeApiKey(prefix) {
        const record = await this.apiKeys.revoke(prefix);
        if (!record)
            throw new Error(enterprises_errors_1.EnterpriseErrors.KeyPrefixNotFound(prefix));
        return record;
    }
    /**
     * Sets an enterprise's privacy floor and ε (docs/metrics.md), operator only: `scores`, `words`
     * and/or `speakers`, each a whole number 1–100, and `epsilon`, 0.1–10 in hundredths, as typed on
     * the command line; an omitted one keeps its value. Cells released before keep what they were
     * released under.
     */
    /**
     * The privacy settings as the operator typed them, checked (a one-line refusal for a bad
     * value); null for each one not given.
     */
    parsePrivacyFloor(options) {
        if (Object.values(options).every((value) => value === undefined)) {
            throw new Error(enterprises_errors_1.EnterpriseErrors.FloorMissing);
        }
        return {
            minCohortScores: floorValue('--scores', options.scores),
            minCohortWords: floorValue('--words', options.words),
            minWordSpeakers: floorValue('--speakers', options.speakers),
            epsilonYear: budgetOption('--budget', options.budget),
            metricsWindow: windowOption(options.window),
            maxMargin: budgetOption('--max-margin', options.maxMargin),
        };
    }
    async setPrivacyFloor(enterpriseId, options) {
        const floor = this.parsePrivacyFloor(options);
        await this.assertExists(enterpriseId);
        const updated = await this.repository.updatePrivacyFloor(enterpriseId, floor);
        if (!updated)
            throw new Error(enterprises_errors_1.EnterpriseErrors.NotFound(enterpriseId));
        return { enterpriseId, ...updated };
    }
    async insertWithKey(name, options, sql) {
        const sandbox = options.sandbox ?? false;
        const enterpriseId = await this.repository.insertEnterprise({ name, sandbox }, sql);
        const { apiKey } = await this.apiKeys.issue(enterpriseId, sql);
        return { enterpriseId, name, apiKey, sandbox };
    }
    /** Whether an enterprise with this id exists (any string: a malformed id is none). */
    async exists(enterpriseId) {
        const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(enterpriseId);
        return isUuid && (await this.repository.exists(enterpriseId));
    }
    async assertExists(enterpriseId) {
        if (!(await this.exists(enterpriseId))) {
            throw new Error(enterprises_errors_1.EnterpriseErrors.NotFound(enterpriseId));
        }
    }
};
exports.EnterprisesService = EnterprisesService;
exports.EnterprisesService = EnterprisesService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database,
        enterprises_repository_1.EnterprisesRepository,
        api_keys_service_1.ApiKeysService])
], EnterprisesService);
//# sourceMappingURL=enterprises.service.js.map
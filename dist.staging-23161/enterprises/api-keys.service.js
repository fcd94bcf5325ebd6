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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
var ApiKeysService_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.ApiKeysService = void 0;
const common_1 = require("@nestjs/common");
const lru_cache_1 = require("lru-cache");
const config_module_1 = require("../config/config.module");
const ids_1 = require("../common/ids");
const enterprises_repository_1 = require("./enterprises.repository");
/** Wrote last_used_at at most this often per key, so authentication stays a read. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;
/**
 * Issues, authenticates and revokes API keys. Authentication hashes the presented key and looks
 * the hash up; answers (hits and misses) are cached in-process for API_KEY_CACHE_TTL_MS (default
 * 5 s), so a revocation takes effect within that time on every process. Requests that miss the
 * cache together share one lookup (lru-cache's `fetch`): when a busy key's entry expires, the
 * requests in flight on every connection used to look it up at once (86 lookups in 22,578
 * requests with 50 connections, docs/performance.md); a lookup that fails is not cached.
 */
let ApiKeysService = ApiKeysService_1 = class ApiKeysService {
    repository;
    logger = new common_1.Logger(ApiKeysService_1.name);
    cache;
    lastUsedWrites = new Map();
    constructor(repository, config) {
        this.repository = repository;
        this.cache =
            config.apiKeyCacheTtlMs > 0
                ? new lru_cache_1.LRUCache({
                    max: 10_000,
                    ttl: config.apiKeyCacheTtlMs,
                    fetchMethod: async (keyHash) => ({
                        key: await this.repository.findActiveKeyByHash(keyHash),
                    }),
                })
                : null;
    }
    /**
     * The enterprise a presented key belongs to (and whether it is a sandbox), or null for a
     * missing, unknown or revoked key.
     */
    async authenticate(presentedKey) {
        // Not the shape of a key we issue: refused without a hash or a query.
        if (!presentedKey || !ids_1.API_KEY_PATTERN.test(presentedKey))
            return null;
        const keyHash = (0, ids_1.hashApiKey)(presentedKey);
        let entry = this.cache?.get(keyHash);
        // A miss joins the lookup under way, if there is one; without a cache, a lookup each time.
        if (!entry && this.cache)
            entry = await this.cache.fetch(keyHash);
        entry ??= { key: await this.repository.findActiveKeyByHash(keyHash) };
        if (entry.key)
            this.recordUse(entry.key.apiKeyId);
        return entry.key;
    }
    /** Creates a key; the returned plaintext is shown once and never stored. */
    async issue(enterpriseId, sql) {
        const apiKey = (0, ids_1.newApiKey)();
        const record = await this.repository.insertApiKey({ enterpriseId, prefix: (0, ids_1.apiKeyPrefix)(apiKey), keyHash: (0, ids_1.hashApiKey)(apiKey) }, sql);
        return { apiKey, record };
    }
    list(enterpriseId) {
        return this.repository.listKeysForEnterprise(enterpriseId);
    }
    revoke(prefix) {
        return this.repository.revokeByPrefix(prefix);
    }
    recordUse(apiKeyId) {
        const now = Date.now();
        if (now - (this.lastUsedWrites.get(apiKeyId) ?? 0) < LAST_USED_WRITE_INTERVAL_MS)
            return;
        this.lastUsedWrites.set(apiKeyId, now);
        this.repository.touchLastUsed(apiKeyId).catch((error) => {
            this.logger.warn(`Could not record API key use: ${error.message}`);
        });
    }
};
exports.ApiKeysService = ApiKeysService;
exports.ApiKeysService = ApiKeysService = ApiKeysService_1 = __decorate([
    (0, common_1.Injectable)(),
    __param(1, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [enterprises_repository_1.EnterprisesRepository, Object])
], ApiKeysService);
//# sourceMappingURL=api-keys.service.js.map
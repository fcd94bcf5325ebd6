import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { Sql } from '../database/database';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { API_KEY_PATTERN, apiKeyPrefix, hashApiKey, newApiKey } from '../common/ids';
import { ActiveApiKey, ApiKeyRecord, EnterprisesRepository } from './enterprises.repository';

/** Wrote last_used_at at most this often per key, so authentication stays a read. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

type CacheEntry = { key: ActiveApiKey | null };

/**
 * Issues, authenticates and revokes API keys. Authentication hashes the presented key and looks
 * the hash up; answers (hits and misses) are cached in-process for API_KEY_CACHE_TTL_MS (default
 * 5 s), so a revocation takes effect within that time on every process. Requests that miss the
 * cache together share one lookup (lru-cache's `fetch`): when a busy key's entry expires, the
 * requests in flight on every connection used to look it up at once (86 lookups in 22,578
 * requests with 50 connections, docs/performance.md); a lookup that fails is not cached.
 */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly cache: LRUCache<string, CacheEntry> | null;
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly repository: EnterprisesRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cache =
      config.apiKeyCacheTtlMs > 0
        ? new LRUCache<string, CacheEntry>({
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
  async authenticate(presentedKey: string | undefined): Promise<ActiveApiKey | null> {
    // Not the shape of a key we issue: refused without a hash or a query.
    if (!presentedKey || !API_KEY_PATTERN.test(presentedKey)) return null;
    const keyHash = hashApiKey(presentedKey);
    let entry = this.cache?.get(keyHash);
    // A miss joins the lookup under way, if there is one; without a cache, a lookup each time.
    if (!entry && this.cache) entry = await this.cache.fetch(keyHash);
    entry ??= { key: await this.repository.findActiveKeyByHash(keyHash) };
    if (entry.key) this.recordUse(entry.key.apiKeyId);
    return entry.key;
  }

  /** Creates a key; the returned plaintext is shown once and never stored. */
  async issue(enterpriseId: string, sql?: Sql): Promise<{ apiKey: string; record: ApiKeyRecord }> {
    const apiKey = newApiKey();
    const record = await this.repository.insertApiKey(
      { enterpriseId, prefix: apiKeyPrefix(apiKey), keyHash: hashApiKey(apiKey) },
      sql,
    );
    return { apiKey, record };
  }

  list(enterpriseId: string): Promise<ApiKeyRecord[]> {
    return this.repository.listKeysForEnterprise(enterpriseId);
  }

  revoke(prefix: string): Promise<ApiKeyRecord | null> {
    return this.repository.revokeByPrefix(prefix);
  }

  private recordUse(apiKeyId: string): void {
    const now = Date.now();
    if (now - (this.lastUsedWrites.get(apiKeyId) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWrites.set(apiKeyId, now);
    this.repository.touchLastUsed(apiKeyId).catch((error: unknown) => {
      this.logger.warn(`Could not record API key use: ${(error as Error).message}`);
    });
  }
}

/**
 * API keys (ApiKeysService) with the repository faked:
 * - a key is issued as `ck_` + 40 base62 characters; only its SHA-256 (hex) and its public
 *   11-character prefix reach the repository, and the plaintext is answered once;
 * - authentication refuses a missing, empty or malformed key without hashing or looking it up,
 *   and answers the enterprise (and its sandbox flag) of a known, unrevoked key;
 * - answers, found and not found, are cached for API_KEY_CACHE_TTL_MS and no longer, so a revoked
 *   key stops working once the TTL has passed (and at once with a TTL of 0);
 * - last use is written at most once a minute per key, and a failed write never refuses a key.
 */
import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { loadConfig } from '../config/config';
import type { Sql } from '../database/database';
import { ApiKeysService } from './api-keys.service';
import type { ActiveApiKey, ApiKeyRecord, EnterprisesRepository } from './enterprises.repository';

const ACME = '00000000-0000-4000-8000-00000000000a';
const GLOBEX = '00000000-0000-4000-8000-00000000000b';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

interface StoredKey {
  record: ApiKeyRecord;
  keyHash: string;
  sandbox: boolean;
}

/** The repository's key methods over an array, recording every call the service makes. */
class FakeKeys {
  readonly keys: StoredKey[] = [];
  readonly lookups: string[] = [];
  readonly touched: string[] = [];
  readonly inserts: { values: { enterpriseId: string; prefix: string; keyHash: string } }[] = [];
  readonly insertSql: (Sql | undefined)[] = [];
  sandboxes = new Set<string>();
  touchFails = false;

  /** Lookups take this long (a busy database), or fail with this error. */
  lookupDelayMs = 0;
  lookupError: Error | null = null;

  async findActiveKeyByHash(keyHash: string): Promise<ActiveApiKey | null> {
    this.lookups.push(keyHash);
    if (this.lookupDelayMs > 0)
      await new Promise((resolve) => setTimeout(resolve, this.lookupDelayMs));
    if (this.lookupError) throw this.lookupError;
    const key = this.keys.find((stored) => stored.keyHash === keyHash && !stored.record.revokedAt);
    return Promise.resolve(
      key
        ? { apiKeyId: key.record.id, enterpriseId: key.record.enterpriseId, sandbox: key.sandbox }
        : null,
    );
  }

  insertApiKey(
    values: { enterpriseId: string; prefix: string; keyHash: string },
    sql?: Sql,
  ): Promise<ApiKeyRecord> {
    this.inserts.push({ values });
    this.insertSql.push(sql);
    const record: ApiKeyRecord = {
      id: `key-${this.keys.length + 1}`,
      enterpriseId: values.enterpriseId,
      prefix: values.prefix,
      createdAt: new Date('2026-01-01T00:00:00Z'),
      lastUsedAt: null,
      revokedAt: null,
    };
    this.keys.push({
      record,
      keyHash: values.keyHash,
      sandbox: this.sandboxes.has(values.enterpriseId),
    });
    return Promise.resolve(record);
  }

  listKeysForEnterprise(enterpriseId: string): Promise<ApiKeyRecord[]> {
    return Promise.resolve(
      this.keys.filter((key) => key.record.enterpriseId === enterpriseId).map((key) => key.record),
    );
  }

  revokeByPrefix(prefix: string): Promise<ApiKeyRecord | null> {
    const key = this.keys.find((stored) => stored.record.prefix === prefix);
    if (!key) return Promise.resolve(null);
    key.record.revokedAt ??= new Date('2026-01-02T00:00:00Z');
    return Promise.resolve(key.record);
  }

  touchLastUsed(apiKeyId: string): Promise<void> {
    this.touched.push(apiKeyId);
    return this.touchFails ? Promise.reject(new Error('connection lost')) : Promise.resolve();
  }
}

const serviceWith = (cacheTtlMs: number) => {
  const repository = new FakeKeys();
  const config = loadConfig({ NODE_ENV: 'test', API_KEY_CACHE_TTL_MS: String(cacheTtlMs) });
  const service = new ApiKeysService(repository as unknown as EnterprisesRepository, config);
  return { repository, service };
};

/** The cache's clock (lru-cache reads `performance.now()`) and the service's (`Date.now()`). */
const clock = () => {
  jest.useFakeTimers({ doNotFake: ['performance'], now: new Date('2026-03-01T09:00:00Z') });
  let now = 1_000_000;
  jest.spyOn(performance, 'now').mockImplementation(() => now);
  return {
    advance(ms: number) {
      now += ms;
      jest.advanceTimersByTime(ms);
    },
  };
};

describe('ApiKeysService', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  describe('issue', () => {
    it('answers a ck_ + 40 base62 key once; stores only its 11-character prefix and SHA-256', async () => {
      const { repository, service } = serviceWith(5_000);
      const { apiKey, record } = await service.issue(ACME);

      expect(apiKey).toMatch(/^ck_[0-9A-Za-z]{40}$/);
      expect(repository.inserts).toEqual([
        { values: { enterpriseId: ACME, prefix: apiKey.slice(0, 11), keyHash: sha256(apiKey) } },
      ]);
      expect(JSON.stringify(repository.inserts)).not.toContain(apiKey.slice(11));
      expect(record).toEqual(repository.keys[0].record);
    });

    it("inserts in the caller's transaction when given one", async () => {
      const { repository, service } = serviceWith(5_000);
      const transaction: Sql = { rows: () => Promise.resolve([]) };
      await service.issue(ACME, transaction);
      await service.issue(ACME);
      expect(repository.insertSql).toEqual([transaction, undefined]);
    });

    it('never issues the same key twice', async () => {
      const { service } = serviceWith(5_000);
      const keys = new Set<string>();
      for (let i = 0; i < 50; i++) keys.add((await service.issue(ACME)).apiKey);
      expect(keys.size).toBe(50);
    });
  });

  describe('authenticate', () => {
    it("answers the key's enterprise, key id and sandbox flag", async () => {
      const { repository, service } = serviceWith(5_000);
      repository.sandboxes.add(GLOBEX);
      const acme = await service.issue(ACME);
      const globex = await service.issue(GLOBEX);

      expect(await service.authenticate(acme.apiKey)).toEqual({
        apiKeyId: acme.record.id,
        enterpriseId: ACME,
        sandbox: false,
      });
      expect(await service.authenticate(globex.apiKey)).toEqual({
        apiKeyId: globex.record.id,
        enterpriseId: GLOBEX,
        sandbox: true,
      });
      expect(repository.lookups).toEqual([sha256(acme.apiKey), sha256(globex.apiKey)]);
    });

    it('refuses what is not shaped like a key without looking anything up', async () => {
      const { repository, service } = serviceWith(5_000);
      const { apiKey } = await service.issue(ACME);
      const notKeys = [
        undefined,
        '',
        apiKey.slice(0, 42), // one character short
        `${apiKey}x`, // one too many
        `CK_${apiKey.slice(3)}`, // wrong prefix
        `${apiKey.slice(0, 42)}-`, // not base62
        ` ${apiKey}`,
        `${apiKey}\n`,
        apiKey.slice(0, 11), // the public prefix alone
        sha256(apiKey), // the stored hash
      ];
      for (const presented of notKeys) expect(await service.authenticate(presented)).toBeNull();
      expect(repository.lookups).toEqual([]);
    });

    it('refuses a well-formed key nobody issued', async () => {
      const { repository, service } = serviceWith(5_000);
      await service.issue(ACME);
      const unknown = `ck_${'A'.repeat(40)}`;
      expect(await service.authenticate(unknown)).toBeNull();
      expect(repository.lookups).toEqual([sha256(unknown)]);
    });
  });

  describe('the cache', () => {
    it('looks a key up once per TTL, found or not', async () => {
      const { repository, service } = serviceWith(5_000);
      const { apiKey } = await service.issue(ACME);
      const unknown = `ck_${'B'.repeat(40)}`;
      for (let i = 0; i < 3; i++) {
        await service.authenticate(apiKey);
        await service.authenticate(unknown);
      }
      expect(repository.lookups).toEqual([sha256(apiKey), sha256(unknown)]);
    });

    it('requests that miss together share one lookup; a failed lookup is not cached', async () => {
      const { repository, service } = serviceWith(5_000);
      const { apiKey, record } = await service.issue(ACME);
      const unknown = `ck_${'C'.repeat(40)}`;
      repository.lookupDelayMs = 20;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => service.authenticate(i % 2 ? apiKey : unknown)),
      );
      expect(answers.filter((answer) => answer?.apiKeyId === record.id)).toHaveLength(10);
      expect(answers.filter((answer) => answer === null)).toHaveLength(10);
      expect(repository.lookups.sort()).toEqual([sha256(apiKey), sha256(unknown)].sort());

      const other = await service.issue(ACME);
      repository.lookupError = new Error('connection lost');
      const failed = await Promise.allSettled(
        Array.from({ length: 5 }, () => service.authenticate(other.apiKey)),
      );
      expect(failed.map((outcome) => outcome.status)).toEqual(Array(5).fill('rejected'));
      repository.lookupError = null;
      expect(await service.authenticate(other.apiKey)).toMatchObject({ apiKeyId: other.record.id });
      expect(repository.lookups.filter((hash) => hash === sha256(other.apiKey))).toHaveLength(2);
    });

    it('a revoked key still answers until the TTL has passed, then is refused', async () => {
      const time = clock();
      const { repository, service } = serviceWith(5_000);
      const { apiKey, record } = await service.issue(ACME);
      const active = { apiKeyId: record.id, enterpriseId: ACME, sandbox: false };
      expect(await service.authenticate(apiKey)).toEqual(active);

      expect(await service.revoke(record.prefix)).toEqual({
        ...record,
        revokedAt: new Date('2026-01-02T00:00:00Z'),
      });
      time.advance(5_000);
      expect(await service.authenticate(apiKey)).toEqual(active);
      time.advance(1);
      expect(await service.authenticate(apiKey)).toBeNull();
      expect(repository.lookups).toEqual([sha256(apiKey), sha256(apiKey)]);
    });

    it('a refusal is cached for the TTL too, and no longer', async () => {
      const time = clock();
      const { repository, service } = serviceWith(2_000);
      const { apiKey } = await service.issue(ACME);
      const revoked = repository.keys[0];
      revoked.record.revokedAt = new Date('2026-01-02T00:00:00Z');
      expect(await service.authenticate(apiKey)).toBeNull();
      revoked.record.revokedAt = null;
      expect(await service.authenticate(apiKey)).toBeNull();
      time.advance(2_001);
      expect(await service.authenticate(apiKey)).toEqual({
        apiKeyId: revoked.record.id,
        enterpriseId: ACME,
        sandbox: false,
      });
    });

    it('with API_KEY_CACHE_TTL_MS=0 every request looks the key up: a revocation holds at once', async () => {
      const { repository, service } = serviceWith(0);
      const { apiKey, record } = await service.issue(ACME);
      expect(await service.authenticate(apiKey)).not.toBeNull();
      await service.revoke(record.prefix);
      expect(await service.authenticate(apiKey)).toBeNull();
      expect(repository.lookups).toEqual([sha256(apiKey), sha256(apiKey)]);
    });
  });

  describe('last use', () => {
    it('is written at most once a minute per key, whatever the cache', async () => {
      const time = clock();
      const { repository, service } = serviceWith(0);
      const first = await service.issue(ACME);
      const second = await service.issue(ACME);

      await service.authenticate(first.apiKey);
      await service.authenticate(first.apiKey);
      await service.authenticate(second.apiKey);
      time.advance(59_999);
      await service.authenticate(first.apiKey);
      expect(repository.touched).toEqual([first.record.id, second.record.id]);

      time.advance(1);
      await service.authenticate(first.apiKey);
      await service.authenticate(first.apiKey);
      expect(repository.touched).toEqual([first.record.id, second.record.id, first.record.id]);
    });

    it('is not written for refused keys', async () => {
      const { repository, service } = serviceWith(5_000);
      const { apiKey, record } = await service.issue(ACME);
      await service.revoke(record.prefix);
      await service.authenticate(apiKey);
      await service.authenticate(`ck_${'C'.repeat(40)}`);
      expect(repository.touched).toEqual([]);
    });

    it('a failed write is logged as a warning and the key still answers', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const { repository, service } = serviceWith(5_000);
      repository.touchFails = true;
      const { apiKey, record } = await service.issue(ACME);

      expect(await service.authenticate(apiKey)).toEqual({
        apiKeyId: record.id,
        enterpriseId: ACME,
        sandbox: false,
      });
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(warn.mock.calls).toEqual([['Could not record API key use: connection lost']]);
    });
  });

  describe('list and revoke', () => {
    it("lists the enterprise's keys only; revoking an unknown prefix answers null", async () => {
      const { service } = serviceWith(5_000);
      const acme = await service.issue(ACME);
      await service.issue(GLOBEX);
      expect(await service.list(ACME)).toEqual([acme.record]);
      expect(await service.revoke('ck_00000000')).toBeNull();
    });
  });
});

import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';

/** Arbitrary, fixed advisory lock key for the demo bootstrap ("demo" in ASCII). */
const BOOTSTRAP_LOCK_KEY = 0x64656d6f;

export interface ApiKeyRecord {
  id: string;
  enterpriseId: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface ActiveApiKey {
  apiKeyId: string;
  enterpriseId: string;
}

interface ApiKeyRow {
  id: string;
  enterprise_id: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const toApiKeyRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  enterpriseId: row.enterprise_id,
  prefix: row.prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

/** SQL for enterprises and their API keys. */
@Injectable()
export class EnterprisesRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insertEnterprise(sql: Sql, name: string): Promise<string> {
    const rows = await sql.rows<{ id: string }>(
      'INSERT INTO enterprises (name) VALUES ($1) RETURNING id',
      [name],
    );
    return rows[0].id;
  }

  async exists(enterpriseId: string): Promise<boolean> {
    const rows = await this.db.rows<unknown>('SELECT 1 FROM enterprises WHERE id = $1', [
      enterpriseId,
    ]);
    return rows.length > 0;
  }

  async countWith(sql: Sql): Promise<number> {
    const rows = await sql.rows<{ count: string }>('SELECT count(*) AS count FROM enterprises');
    return Number(rows[0].count);
  }

  /** Serialises the development bootstrap across processes (released at commit). */
  async lockForBootstrap(sql: Sql): Promise<void> {
    await sql.rows('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
  }

  async insertApiKey(
    sql: Sql,
    enterpriseId: string,
    prefix: string,
    keyHash: string,
  ): Promise<ApiKeyRecord> {
    const rows = await sql.rows<ApiKeyRow>(
      `INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1, $2, $3)
       RETURNING id, enterprise_id, prefix, created_at, last_used_at, revoked_at`,
      [enterpriseId, prefix, keyHash],
    );
    return toApiKeyRecord(rows[0]);
  }

  async findActiveKeyByHash(keyHash: string): Promise<ActiveApiKey | null> {
    const rows = await this.db.rows<{ id: string; enterprise_id: string }>(
      'SELECT id, enterprise_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    );
    return rows.length ? { apiKeyId: rows[0].id, enterpriseId: rows[0].enterprise_id } : null;
  }

  async listKeysForEnterprise(enterpriseId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.rows<ApiKeyRow>(
      `SELECT id, enterprise_id, prefix, created_at, last_used_at, revoked_at
         FROM api_keys WHERE enterprise_id = $1 ORDER BY created_at, id`,
      [enterpriseId],
    );
    return rows.map(toApiKeyRecord);
  }

  /** Revokes the key with this prefix; returns it, or null when no key has that prefix. */
  async revokeByPrefix(prefix: string): Promise<ApiKeyRecord | null> {
    const rows = await this.db.rows<ApiKeyRow>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE prefix = $1
         RETURNING id, enterprise_id, prefix, created_at, last_used_at, revoked_at`,
      [prefix],
    );
    return rows.length ? toApiKeyRecord(rows[0]) : null;
  }

  async touchLastUsed(apiKeyId: string): Promise<void> {
    await this.db.rows('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [apiKeyId]);
  }
}

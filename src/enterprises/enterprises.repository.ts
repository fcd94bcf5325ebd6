import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import { columnsOf, RowOf } from '../database/entity-columns';
import type { PrivacyFloor } from '../common/privacy-model';
import { ApiKeyEntity } from './api-key.entity';
import { EnterpriseEntity } from './enterprise.entity';

/** Arbitrary, fixed advisory lock key for the demo bootstrap ("demo" in ASCII). */
const BOOTSTRAP_LOCK_KEY = 0x64656d6f;

const API_KEY = columnsOf(ApiKeyEntity, [
  'id',
  'enterpriseId',
  'prefix',
  'createdAt',
  'lastUsedAt',
  'revokedAt',
]);

export type ApiKeyRecord = RowOf<typeof API_KEY>;

const PRIVACY_FLOOR_COLUMNS = columnsOf(EnterpriseEntity, [
  'minCohortScores',
  'minCohortWords',
  'minWordSpeakers',
]);

export interface ActiveApiKey {
  apiKeyId: string;
  enterpriseId: string;
  /** The enterprise is a sandbox (docs/integrating.md): read with the key, so no request asks again. */
  sandbox: EnterpriseEntity['sandbox'];
}

/** SQL for enterprises and their API keys (operator actions and authentication). */
@Injectable()
export class EnterprisesRepository {
  constructor(private readonly db: Database) {}

  async insertEnterprise(
    values: Pick<EnterpriseEntity, 'name' | 'sandbox'>,
    sql: Sql = this.db,
  ): Promise<string> {
    const [enterprise] = await sql.rows<{ id: string }>(
      'INSERT INTO enterprises (name, sandbox) VALUES ($1, $2) RETURNING id',
      [values.name, values.sandbox],
    );
    return enterprise.id;
  }

  async exists(enterpriseId: string): Promise<boolean> {
    const rows = await this.db.rows('SELECT 1 FROM enterprises WHERE id = $1', [enterpriseId]);
    return rows.length > 0;
  }

  /** The oldest sandbox enterprise of this name (the demo bootstrap's), or null. */
  async sandboxNamed(name: string): Promise<string | null> {
    const [row] = await this.db.rows<{ id: string }>(
      'SELECT id FROM enterprises WHERE name = $1 AND sandbox ORDER BY created_at, id LIMIT 1',
      [name],
    );
    return row?.id ?? null;
  }

  async count(sql: Sql = this.db): Promise<number> {
    const [row] = await sql.rows<{ count: number }>('SELECT count(*) AS count FROM enterprises');
    return row.count;
  }

  /** Serialises the development bootstrap across processes (released at commit). */
  async lockForBootstrap(sql: Sql): Promise<void> {
    await sql.rows('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
  }

  async insertApiKey(
    values: Pick<ApiKeyEntity, 'enterpriseId' | 'prefix' | 'keyHash'>,
    sql: Sql = this.db,
  ): Promise<ApiKeyRecord> {
    const [key] = await sql.rows<ApiKeyRecord>(
      `INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1, $2, $3)
       RETURNING ${API_KEY.select()}`,
      [values.enterpriseId, values.prefix, values.keyHash],
    );
    return key;
  }

  async findActiveKeyByHash(keyHash: string): Promise<ActiveApiKey | null> {
    const [key] = await this.db.rows<ActiveApiKey>(
      `SELECT k.id AS "apiKeyId", k.enterprise_id AS "enterpriseId", e.sandbox AS "sandbox"
         FROM api_keys k
         JOIN enterprises e ON e.id = k.enterprise_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [keyHash],
    );
    return key ?? null;
  }

  /**
   * Sets any part of the floor and ε (null keeps it; ε in hundredths) and answers the
   * enterprise's; null if none.
   */
  async updatePrivacyFloor(
    enterpriseId: string,
    floor: { [K in keyof PrivacyFloor]: PrivacyFloor[K] | null },
  ): Promise<PrivacyFloor | null> {
    const [row] = await this.db.rows<PrivacyFloor>(
      `UPDATE enterprises
          SET min_cohort_scores = coalesce($2, min_cohort_scores),
              min_cohort_words = coalesce($3, min_cohort_words),
              min_word_speakers = coalesce($4, min_word_speakers),
              epsilon_year = coalesce($5::numeric, epsilon_year),
              metrics_window = coalesce($6, metrics_window),
              max_margin = coalesce($7::numeric, max_margin)
        WHERE id = $1
       RETURNING ${PRIVACY_FLOOR_COLUMNS.select()}, epsilon_year::float8 AS "epsilonYear",
                 metrics_window AS "metricsWindow", max_margin::float8 AS "maxMargin"`,
      [
        enterpriseId,
        floor.minCohortScores,
        floor.minCohortWords,
        floor.minWordSpeakers,
        floor.epsilonYear,
        floor.metricsWindow,
        floor.maxMargin,
      ],
    );
    return row ?? null;
  }

  /** The enterprise's name, sandbox flag and group-metrics parameters (GET /enterprise). */
  async settingsOf(
    enterpriseId: string,
  ): Promise<({ name: string; sandbox: boolean } & PrivacyFloor) | null> {
    const [row] = await this.db.rows<{ name: string; sandbox: boolean } & PrivacyFloor>(
      `SELECT name, sandbox, ${PRIVACY_FLOOR_COLUMNS.select()},
              epsilon_year::float8 AS "epsilonYear", metrics_window AS "metricsWindow",
              max_margin::float8 AS "maxMargin"
         FROM enterprises WHERE id = $1`,
      [enterpriseId],
    );
    return row ?? null;
  }

  async listKeysForEnterprise(enterpriseId: string): Promise<ApiKeyRecord[]> {
    return this.db.rows<ApiKeyRecord>(
      `SELECT ${API_KEY.select()} FROM api_keys WHERE enterprise_id = $1 ORDER BY created_at, id`,
      [enterpriseId],
    );
  }

  /** Revokes the key with this prefix; returns it, or null when no key has that prefix. */
  async revokeByPrefix(prefix: string): Promise<ApiKeyRecord | null> {
    const [key] = await this.db.rows<ApiKeyRecord>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE prefix = $1
         RETURNING ${API_KEY.select()}`,
      [prefix],
    );
    return key ?? null;
  }

  async touchLastUsed(apiKeyId: string): Promise<void> {
    await this.db.rows('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [apiKeyId]);
  }
}

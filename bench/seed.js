'use strict';

/**
 * Deterministic benchmark data: one enterprise, one API key and `groups` groups, written with the
 * same columns and formats the service itself writes (src/common/ids.ts,
 * src/enterprises/enterprises.repository.ts, src/groups/groups.repository.ts). Every "random"
 * value comes from a seeded PRNG, so every run seeds byte-identical rows (apart from ids and
 * timestamps the database assigns).
 *
 * The schema comes from the service's own migrations (dist/database/prepare-database.js), so
 * `npm run build` must have run first (`npm run bench` does it).
 */

const { createHash } = require('node:crypto');
const path = require('node:path');
const { Client } = require('pg');

const DIST = path.join(__dirname, '..', 'dist');
const SEED = 0x636b6e; // "ckn"

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LOWER_ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyz';
const PRIVACY_NAMES = ['mhci', 'groupPerecntiles', 'userPercentiles', 'transcript', 'features'];
const API_KEY_PREFIX_LENGTH = 11;
/** Rows per INSERT statement (7 parameters a row, well under PostgreSQL's 65535). */
const INSERT_BATCH = 1000;

const GROUPS_ENTERPRISE = 'Benchmark Enterprise';
const METRICS_ENTERPRISE = 'Benchmark Metrics Enterprise';
/** A different PRNG seed, so the metrics enterprise's API key differs from the groups one. */
const METRICS_SEED = 0x6d6574; // "met"

const NAME_WORDS = [
  'Support',
  'Engineering',
  'Sales',
  'Night shift',
  'Équipe Lyon',
  'R&D "Blue"',
  'Customer Care',
  'Warehouse',
  'Leadership',
  'Onboarding — cohort',
  'Zürich office',
  'Field team',
];

/** mulberry32: a tiny, fast 32-bit PRNG; returns floats in [0, 1). */
function mulberry32(seed) {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function createGenerator(seed = SEED) {
  const random = mulberry32(seed);
  const int = (maxExclusive) => Math.floor(random() * maxExclusive);
  const string = (length, alphabet) => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[int(alphabet.length)];
    return out;
  };
  return {
    random,
    int,
    apiKey: () => `ck_${string(40, BASE62)}`,
    groupKey: () => `gk_${string(32, BASE62)}`,
    inviteCode: () => string(13, LOWER_ALPHANUMERIC),
  };
}

const hashApiKey = (apiKey) => createHash('sha256').update(apiKey, 'utf8').digest('hex');

function loadDist(relative) {
  try {
    return require(path.join(DIST, relative));
  } catch (error) {
    throw new Error(`Cannot load dist/${relative} (${error.message}); run "npm run build" first`, {
      cause: error,
    });
  }
}

/** Creates the database when it is missing and runs the service's migrations on it. */
async function prepareSchema(databaseUrl) {
  const { loadConfig } = loadDist('config/config.js');
  const { prepareDatabase } = loadDist('database/prepare-database.js');
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    DB_MIGRATE_ON_START: 'true',
  });
  return prepareDatabase(config);
}

/** The groups' rows, in insertion (= group_id) order. */
function buildGroups(generator, count) {
  const inviteCodes = new Set();
  const keys = new Set();
  const rows = [];
  for (let i = 0; i < count; i++) {
    let inviteCode;
    do inviteCode = generator.inviteCode();
    while (inviteCodes.has(inviteCode));
    inviteCodes.add(inviteCode);
    let key;
    do key = generator.groupKey();
    while (keys.has(key));
    keys.add(key);

    const word = NAME_WORDS[generator.int(NAME_WORDS.length)];
    const name = `${word} ${i + 1}`;
    const consentRequired = generator.random() < 0.3;
    // Most groups keep the default 0 credits; the rest hold a realistic balance.
    const credits = generator.random() < 0.4 ? 0 : 1 + generator.int(5000);
    // A subset of the privacy names, in their canonical order (about a third request none).
    const requestedPrivacy =
      generator.random() < 0.35 ? [] : PRIVACY_NAMES.filter(() => generator.random() < 0.5);
    rows.push({ name, key, inviteCode, consentRequired, credits, requestedPrivacy });
  }
  return rows;
}

async function insertGroups(client, enterpriseId, rows) {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const batch = rows.slice(start, start + INSERT_BATCH);
    const values = [];
    const params = [];
    for (const row of batch) {
      const p = params.length;
      values.push(`($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7})`);
      params.push(
        enterpriseId,
        row.name,
        row.key,
        row.inviteCode,
        row.consentRequired,
        row.credits,
        row.requestedPrivacy,
      );
    }
    await client.query(
      `INSERT INTO groups
         (enterprise_id, name, key, invite_code, consent_required, credits, requested_privacy)
       VALUES ${values.join(', ')}`,
      params,
    );
  }
}

/**
 * Deletes the previous "Benchmark Enterprise" (cascading to its API key and groups) and seeds it
 * again; other enterprises' rows are left alone.
 * Returns the plaintext API key and the enterprise id.
 */
async function seedGroups({ databaseUrl, groups = 100, seed = SEED }) {
  if (!databaseUrl) throw new Error('seedGroups: databaseUrl is required');
  await prepareSchema(databaseUrl);

  const generator = createGenerator(seed);
  const apiKey = generator.apiKey();
  const groupRows = buildGroups(generator, groups);

  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query('BEGIN');
    // Only this scenario's enterprise (cascading to its keys and groups): other scenarios' data
    // (the metrics scenario's million sessions) stays, so each scenario can skip re-seeding.
    await client.query('DELETE FROM enterprises WHERE name = $1', [GROUPS_ENTERPRISE]);
    const { rows } = await client.query('INSERT INTO enterprises (name) VALUES ($1) RETURNING id', [
      GROUPS_ENTERPRISE,
    ]);
    const enterpriseId = rows[0].id;
    await client.query('INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1,$2,$3)', [
      enterpriseId,
      apiKey.slice(0, API_KEY_PREFIX_LENGTH),
      hashApiKey(apiKey),
    ]);
    await insertGroups(client, enterpriseId, groupRows);
    await client.query('COMMIT');
    // Fresh statistics so the planner sees the seeded sizes straight away.
    await client.query('ANALYZE enterprises, api_keys, groups');
    return { apiKey, enterpriseId };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * The metrics scenario's data, in its own enterprise ("Benchmark Metrics Enterprise", its own API
 * key): one group, `participants` participants each with a membership in it, `sessions` completed
 * sessions spread evenly over 2025 (UTC) with a deterministic pseudo-random mhci in [0, 100], and
 * the group's per-day word rollup (`days` × `words` rows). Everything is generated in SQL with
 * generate_series. Seeding is skipped when the enterprise already holds exactly these sizes (a
 * million sessions take a while); `force` re-seeds anyway.
 *
 * Returns { apiKey, enterpriseId, groupId, seeded (false when skipped), seconds }.
 */
async function seedMetrics({
  databaseUrl,
  participants = 10_000,
  sessions = 1_000_000,
  days = 365,
  words = 300,
  force = false,
  log = () => undefined,
}) {
  if (!databaseUrl) throw new Error('seedMetrics: databaseUrl is required');
  const started = Date.now();
  await prepareSchema(databaseUrl);
  const apiKey = createGenerator(METRICS_SEED).apiKey();
  const keyHash = hashApiKey(apiKey);

  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    if (!force) {
      const existing = await existingMetricsSeed(client, keyHash);
      if (
        existing &&
        existing.participants === participants &&
        existing.sessions === sessions &&
        existing.wordRows === days * words
      ) {
        // Cheap when nothing changed; refreshes the visibility map after a crash or new index.
        await client.query('VACUUM (ANALYZE) sessions');
        return { ...existing.ids, apiKey, seeded: false, seconds: (Date.now() - started) / 1000 };
      }
    }

    await client.query('BEGIN');
    log('  deleting the previous metrics enterprise (if any) …');
    await client.query('DELETE FROM enterprises WHERE name = $1', [METRICS_ENTERPRISE]);
    // Rows are consistent by construction; skipping the per-row foreign-key triggers (superuser
    // only; after the cascading delete above) makes the million-row insert several times faster.
    // Without the privilege the insert simply runs with the checks.
    await client.query('SAVEPOINT replica');
    try {
      await client.query("SET LOCAL session_replication_role = 'replica'");
    } catch {
      await client.query('ROLLBACK TO SAVEPOINT replica');
    }
    const enterpriseId = (
      await client.query('INSERT INTO enterprises (name) VALUES ($1) RETURNING id', [
        METRICS_ENTERPRISE,
      ])
    ).rows[0].id;
    await client.query('INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1,$2,$3)', [
      enterpriseId,
      apiKey.slice(0, API_KEY_PREFIX_LENGTH),
      keyHash,
    ]);
    const groupId = (
      await client.query(
        `INSERT INTO groups (enterprise_id, name, key, invite_code, consent_required, credits,
                             requested_privacy)
         VALUES ($1, 'Metrics group', $2, $3, false, 0, '{}') RETURNING group_id`,
        [enterpriseId, createGenerator(METRICS_SEED + 1).groupKey(), 'metricsbench1'],
      )
    ).rows[0].group_id;

    log(`  ${participants} participants and memberships …`);
    await client.query(
      `INSERT INTO participants (enterprise_id, external_id, email_ciphertext, email_hash)
       SELECT $1, 'ok_' || lpad(to_hex(i), 48, '0'), 'x', 'bench' || i
         FROM generate_series(1, $2::int) i`,
      [enterpriseId, participants],
    );
    await client.query(
      `INSERT INTO memberships (participant_id, group_id)
       SELECT id, $2 FROM participants WHERE enterprise_id = $1`,
      [enterpriseId, groupId],
    );

    log(`  ${sessions} sessions …`);
    // Session i belongs to participant ((i - 1) % participants) + 1 (by external id), completes
    // at 2025-01-01 UTC + (i - 1) × (year / sessions), and has mhci (i × 7919 mod 10001) / 100.
    await client.query(
      `WITH p AS (
         SELECT id, row_number() OVER (ORDER BY external_id) AS n
           FROM participants WHERE enterprise_id = $1),
       s AS (
         SELECT i, ((i - 1) % $3::int) + 1 AS n,
                timestamptz '2025-01-01 00:00:00+00'
                  + ((i - 1) * (31536000::float8 / $4::int)) * interval '1 second' AS completed_at
           FROM generate_series(1, $4::bigint) i)
       INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, status,
                             return_url, created_at, completed_at, version, mhci)
       SELECT 'ses_' || lpad(s.i::text, 24, '0'), $1, p.id, $2, 'completed',
              'https://example.com/x', s.completed_at - interval '5 minutes', s.completed_at,
              'v1.0.0', (s.i * 7919 % 10001) / 100.0
         FROM s JOIN p ON p.n = s.n
        ORDER BY s.i`,
      [enterpriseId, groupId, participants, sessions],
    );

    log(`  ${days} × ${words} group word counts …`);
    // A long-tailed, deterministic distribution: word n is about 1000/n as frequent, plus noise.
    await client.query(
      `INSERT INTO group_word_counts (group_id, day, word, count)
       SELECT $1, date '2025-01-01' + d, 'word' || w, 1000 / w + (d * 31 + w * 17) % 50
         FROM generate_series(0, $2::int - 1) d, generate_series(1, $3::int) w`,
      [groupId, days, words],
    );
    await client.query('COMMIT');

    log('  VACUUM (ANALYZE) sessions, ANALYZE …');
    await client.query('VACUUM (ANALYZE) sessions');
    await client.query(
      'ANALYZE enterprises, api_keys, groups, participants, memberships, group_word_counts',
    );
    return {
      apiKey,
      enterpriseId,
      groupId: Number(groupId),
      seeded: true,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** The metrics enterprise's ids and row counts when it exists with the expected key; else null. */
async function existingMetricsSeed(client, keyHash) {
  const { rows } = await client.query(
    `SELECT e.id AS enterprise_id, g.group_id
       FROM enterprises e
       JOIN api_keys k ON k.enterprise_id = e.id AND k.key_hash = $2 AND k.revoked_at IS NULL
       JOIN groups g ON g.enterprise_id = e.id
      WHERE e.name = $1`,
    [METRICS_ENTERPRISE, keyHash],
  );
  if (rows.length !== 1) return null;
  const { enterprise_id: enterpriseId, group_id: groupId } = rows[0];
  const counts = await client.query(
    `SELECT (SELECT count(*) FROM participants WHERE enterprise_id = $1)::int AS participants,
            (SELECT count(*) FROM memberships WHERE group_id = $2)::int AS memberships,
            (SELECT count(*) FROM sessions WHERE group_id = $2
                AND completed_at IS NOT NULL)::int AS sessions,
            (SELECT count(*) FROM group_word_counts WHERE group_id = $2)::int AS word_rows`,
    [enterpriseId, groupId],
  );
  const c = counts.rows[0];
  if (c.memberships !== c.participants) return null;
  return {
    ids: { enterpriseId, groupId: Number(groupId) },
    participants: c.participants,
    sessions: c.sessions,
    wordRows: c.word_rows,
  };
}

module.exports = {
  seedGroups,
  seedMetrics,
  mulberry32,
  createGenerator,
  hashApiKey,
  METRICS_ENTERPRISE,
};

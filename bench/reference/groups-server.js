'use strict';

/**
 * Reference implementation of `GET /groups`: bare Fastify + pg, the same SQL, the same API key
 * cache (5 s, hits and misses) and the same JSON as the service, and nothing else. It is the
 * floor the service's own overhead (Nest, guards, logging, TypeORM) is measured against.
 *
 *   node bench/reference/groups-server.js [--port N] [--host H]
 *
 * Environment: PORT (default 3100), HOST (default 127.0.0.1), DATABASE_URL, DB_POOL_SIZE
 * (default 10, the service's default pool size).
 */

const { createHash } = require('node:crypto');
const path = require('node:path');
const fastify = require('fastify');
const { Pool } = require('pg');

/** The service's pool type parsers (bigint as numbers), so both read rows the same way. */
const { POOL_TYPES } = require(
  path.join(__dirname, '..', '..', 'dist', 'database', 'typeorm-options.js'),
);

/** The service's defaults: API_KEY_CACHE_TTL_MS, its LRU size, and last_used_at throttling. */
const API_KEY_CACHE_TTL_MS = 5_000;
const API_KEY_CACHE_MAX = 10_000;
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

const FIND_KEY_SQL =
  'SELECT k.id, k.enterprise_id, e.sandbox FROM api_keys k' +
  ' JOIN enterprises e ON e.id = k.enterprise_id WHERE k.key_hash = $1 AND k.revoked_at IS NULL';
const LIST_GROUPS_SQL =
  'SELECT group_id, name, requested_privacy, invite_code, key, consent_required, credits' +
  ' FROM groups WHERE enterprise_id = $1 ORDER BY group_id';
const TOUCH_KEY_SQL = 'UPDATE api_keys SET last_used_at = now() WHERE id = $1';

function option(argv, name) {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
}

function createKeyCache() {
  /** hash -> { key, expiresAt }; Map order doubles as LRU order (oldest first). */
  const entries = new Map();
  return {
    get(hash, now) {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      entries.delete(hash);
      if (entry.expiresAt <= now) return undefined;
      entries.set(hash, entry);
      return entry;
    },
    set(hash, entry) {
      entries.set(hash, entry);
      if (entries.size > API_KEY_CACHE_MAX) entries.delete(entries.keys().next().value);
    },
  };
}

/**
 * The service's API key check: SHA-256 of the header, a 5 s cache of hits and misses, and a
 * throttled last_used_at write. Returns `authenticate(header) -> { apiKeyId, enterpriseId } | null`.
 */
function createAuthenticator(pool) {
  const cache = createKeyCache();
  const lastUsedWrites = new Map();

  function recordUse(apiKeyId) {
    const now = Date.now();
    if (now - (lastUsedWrites.get(apiKeyId) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    lastUsedWrites.set(apiKeyId, now);
    pool.query(TOUCH_KEY_SQL, [apiKeyId]).catch((error) => {
      console.error(`Could not record API key use: ${error.message}`);
    });
  }

  return async function authenticate(presented) {
    if (!presented || presented.length > 200) return null;
    const hash = createHash('sha256').update(presented, 'utf8').digest('hex');
    const now = Date.now();
    let entry = cache.get(hash, now);
    if (!entry) {
      const { rows } = await pool.query(FIND_KEY_SQL, [hash]);
      const key = rows.length
        ? { apiKeyId: rows[0].id, enterpriseId: rows[0].enterprise_id }
        : null;
      entry = { key, expiresAt: now + API_KEY_CACHE_TTL_MS };
      cache.set(hash, entry);
    }
    if (entry.key) recordUse(entry.key.apiKeyId);
    return entry.key;
  };
}

function buildServer(pool) {
  const authenticate = createAuthenticator(pool);

  const app = fastify({ logger: false });

  app.get('/groups', async (request, reply) => {
    const header = request.headers['x-api-key'];
    const key = await authenticate(Array.isArray(header) ? undefined : header);
    if (!key) return reply.code(401).send({ error: 'Unauthorized' });
    const { rows } = await pool.query(LIST_GROUPS_SQL, [key.enterpriseId]);
    return rows.map((row) => ({
      groupID: row.group_id,
      groupName: row.name,
      requestedPrivacyLevel: row.requested_privacy,
      inviteCode: row.invite_code,
      key: row.key,
      consentRequired: row.consent_required ? 'true' : 'false',
      credits: row.credits,
    }));
  });

  app.get('/health', async () => {
    await pool.query('SELECT 1');
    return { status: 'ok' };
  });

  return app;
}

/**
 * Runs a reference server built by `build(pool)` from the command line: --port/--host (or PORT,
 * HOST), the same pool settings as the service, and a clean stop on SIGTERM/SIGINT.
 */
async function serveReference(build, { defaultPort, applicationName }) {
  const argv = process.argv.slice(2);
  const port = Number(option(argv, 'port') ?? process.env.PORT ?? defaultPort);
  const host = option(argv, 'host') ?? process.env.HOST ?? '127.0.0.1';
  const pool = new Pool({
    connectionString:
      process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/checkin_bench',
    max: Number(process.env.DB_POOL_SIZE ?? 10),
    connectionTimeoutMillis: 5_000,
    application_name: applicationName,
    types: POOL_TYPES,
  });
  const app = build(pool);
  await app.listen({ port, host });

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    app
      .close()
      .then(() => pool.end())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

function exitOnStartFailure(error) {
  console.error(`Reference server failed to start: ${error.message}`);
  process.exit(1);
}

if (require.main === module) {
  serveReference(buildServer, {
    defaultPort: 3100,
    applicationName: 'checkin-bench-reference',
  }).catch(exitOnStartFailure);
}

module.exports = { buildServer, createAuthenticator, option, serveReference, exitOnStartFailure };

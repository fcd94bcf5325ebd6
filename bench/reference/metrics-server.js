'use strict';

/**
 * Reference implementation of `GET /metrics/groups/{groupID}/mhci` (without groupBy): bare
 * Fastify + pg, the same API key check and cache as groups-server.js, the same group existence
 * check and the same mhci statement as the service, and nothing else.
 *
 * "The same statement" literally: the SQL text is taken at start-up from the built service's
 * MetricsRepository (dist/metrics/metrics.repository.js, called once with a recording stand-in
 * for its database), so the reference can never drift from what the service sends. It is printed
 * with --print-sql.
 *
 *   node bench/reference/metrics-server.js [--port N] [--host H] [--print-sql]
 *
 * Environment: PORT (default 3101), HOST (default 127.0.0.1), DATABASE_URL, DB_POOL_SIZE
 * (default 10, the service's default pool size).
 */

const path = require('node:path');
const fastify = require('fastify');
const { createAuthenticator, exitOnStartFailure, serveReference } = require('./groups-server');

const DIST = path.join(__dirname, '..', '..', 'dist');
/** GroupsRepository.existsForEnterprise, which the service runs before every group metric. */
const GROUP_EXISTS_SQL = 'SELECT 1 FROM groups WHERE group_id = $1 AND enterprise_id = $2';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The service's SQL for a group metric without groupBy: `metric` is 'count', 'mhci' or
 * 'wordcloud'. Returns { text, params: (groupId, enterpriseId, from, to) => [...] }.
 */
function serviceSql(metric) {
  const { MetricsRepository } = require(path.join(DIST, 'metrics', 'metrics.repository.js'));
  let recorded;
  const repository = new MetricsRepository({
    rows: async (text, params) => {
      recorded = { text, params };
      return [];
    },
  });
  const scope = { kind: 'group', groupId: -1, enterpriseId: 'E' };
  const range = { from: '1999-01-01', to: '1999-12-31', groupBy: null };
  const extra = metric === 'wordcloud' ? [50] : [];
  repository[metric](scope, range, ...extra);
  if (!recorded) throw new Error(`MetricsRepository.${metric} sent no SQL`);
  // The parameters must be exactly (group id, enterprise id, from, to[, top]) for the reference
  // to reuse them.
  const expected = JSON.stringify([-1, 'E', range.from, range.to, ...extra]);
  if (JSON.stringify(recorded.params) !== expected) {
    throw new Error(
      `MetricsRepository.${metric} parameters changed: ${JSON.stringify(recorded.params)}`,
    );
  }
  return {
    text: recorded.text,
    params: (groupId, enterpriseId, from, to) => [groupId, enterpriseId, from, to, ...extra],
  };
}

function buildServer(pool) {
  const authenticate = createAuthenticator(pool);
  const mhci = serviceSql('mhci');
  const app = fastify({ logger: false });

  app.get('/metrics/groups/:groupID/mhci', async (request, reply) => {
    const header = request.headers['x-api-key'];
    const key = await authenticate(Array.isArray(header) ? undefined : header);
    if (!key) return reply.code(401).send({ error: 'Unauthorized' });
    const groupId = Number(request.params.groupID);
    const { from = null, to = null } = request.query;
    // The benchmark only sends valid input; the service's full validation is not reproduced.
    if (!Number.isSafeInteger(groupId) || groupId < 1) return reply.code(400).send({});
    if ((from && !DATE.test(from)) || (to && !DATE.test(to))) return reply.code(400).send({});
    const exists = await pool.query(GROUP_EXISTS_SQL, [groupId, key.enterpriseId]);
    if (exists.rows.length === 0) return reply.code(400).send({});
    const { rows } = await pool.query(mhci.text, mhci.params(groupId, key.enterpriseId, from, to));
    if (rows.length === 0 || rows[0].sessions === 0) return { all: null };
    const { key: period, sessions: _sessions, ...stats } = rows[0];
    return { [period]: stats };
  });

  app.get('/health', async () => {
    await pool.query('SELECT 1');
    return { status: 'ok' };
  });

  return app;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--print-sql')) {
    for (const metric of ['count', 'mhci', 'wordcloud']) {
      console.log(`-- ${metric}\n${serviceSql(metric).text}\n`);
    }
    return;
  }
  await serveReference(buildServer, {
    defaultPort: 3101,
    applicationName: 'checkin-bench-reference-metrics',
  });
}

if (require.main === module) {
  main().catch(exitOnStartFailure);
}

module.exports = { buildServer, serviceSql };

'use strict';

/**
 * Reference implementation of `GET /metrics/groups/{groupID}/mhci` (without groupBy): bare
 * Fastify + pg, the same API key check and cache as groups-server.js, the same group existence
 * check, and the raw `percentile_cont` statement over the same covering index, and nothing else:
 * what a group's MHCI costs read straight from its sessions. The service answers from the
 * differentially private releases of its calendar windows instead (docs/metrics.md, "Release
 * windows"), which the ratio compares against (docs/performance.md: ≤ 0.05 of this). The
 * benchmark checks that both answers agree closely (over a year of 10,000 participants the noise
 * is far below a point).
 *
 * The service's own statements are taken from the built code (dist/metrics/metrics.repository.js
 * for count, dist/metrics/windows/group-releases.reader.js for mhci and wordcloud, called once
 * with a recording stand-in for their database), for the EXPLAIN and --print-sql, which prints
 * them and the raw one.
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
 * 'wordcloud'. Group `count` is one statement of the built MetricsRepository (over the per-day
 * counts); group `mhci` and `wordcloud` read releases (dist/metrics/windows/
 * group-releases.reader.js): the group's days, the enterprise's windows with the group's
 * releases, and the second version's cells, three statements sent at once (the wordcloud then
 * reads its released words, a fourth, not recorded here: it needs release ids). Each is recorded
 * by calling the built code once with a stand-in for its database. Returns a list of
 * { name, text, params: (groupId, enterpriseId, from, to) => [...] }.
 */
function serviceSql(metric) {
  const recorded = [];
  const db = {
    rows: async (text, params) => {
      recorded.push({ text, params });
      return [];
    },
  };
  const range = { from: '1999-01-01', to: '1999-12-31', groupBy: null };
  // Stand-ins for the ids, swapped for the real ones in `params`.
  const GROUP = -1;
  const ENTERPRISE = '00000000-0000-4000-8000-00000000000e';
  if (metric === 'count') {
    const { MetricsRepository } = require(path.join(DIST, 'metrics', 'metrics.repository.js'));
    new MetricsRepository(db, null).count(
      { kind: 'group', groupId: GROUP, enterpriseId: ENTERPRISE },
      range,
    );
  } else {
    const { GroupReleasesReader } = require(
      path.join(DIST, 'metrics', 'windows', 'group-releases.reader.js'),
    );
    const settings = {
      window: 'month',
      epsilonYear: 24,
      maxMargin: 10,
      minCohortScores: 5,
      minCohortWords: 10,
      minWordSpeakers: 3,
    };
    const reader = new GroupReleasesReader(db);
    if (metric === 'mhci') reader.mhci(ENTERPRISE, GROUP, range, settings);
    else reader.wordcloud(ENTERPRISE, GROUP, range, settings, 50);
  }
  if (recorded.length === 0) throw new Error(`the service's ${metric} sent no SQL`);
  const names =
    metric === 'count' ? ['count'] : [`${metric} days`, `${metric} windows`, `${metric} legacy`];
  return recorded.map(({ text, params }, i) => {
    // The parameters must be (group id, enterprise id, from, to[, series]) for the bench to
    // reuse them with its own ids.
    const head = JSON.stringify(params.slice(0, 4));
    if (head !== JSON.stringify([GROUP, ENTERPRISE, range.from, range.to])) {
      throw new Error(`the service's ${metric} parameters changed: ${JSON.stringify(params)}`);
    }
    const rest = params.slice(4);
    return {
      name: names[i] ?? `${metric} ${i + 1}`,
      text,
      params: (groupId, enterpriseId, from, to) => [groupId, enterpriseId, from, to, ...rest],
    };
  });
}

/**
 * The raw query: a group's MHCI statistics over its completed sessions in the range, without the
 * privacy floor ($1 group id, $2 enterprise id, $3 from, $4 to; the service's parameters).
 */
const RAW_MHCI_SQL = `SELECT 'all' AS key, count(*)::int AS sessions,
        min(s.mhci) AS "minMhci", max(s.mhci) AS "maxMhci", avg(s.mhci) AS "avgMhci",
        percentile_cont(0.25) WITHIN GROUP (ORDER BY s.mhci) AS "percentile25Mhci",
        percentile_cont(0.5) WITHIN GROUP (ORDER BY s.mhci) AS "percentile50Mhci",
        percentile_cont(0.75) WITHIN GROUP (ORDER BY s.mhci) AS "percentile75Mhci"
   FROM sessions s
  WHERE s.group_id = (SELECT group_id FROM groups WHERE group_id = $1 AND enterprise_id = $2)
    AND s.completed_at IS NOT NULL
    AND ($3::date IS NULL OR s.completed_at >= $3::date::timestamp AT TIME ZONE 'UTC')
    AND ($4::date IS NULL OR s.completed_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC')`;

function buildServer(pool) {
  const authenticate = createAuthenticator(pool);
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
    const { rows } = await pool.query(RAW_MHCI_SQL, [groupId, key.enterpriseId, from, to]);
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
      for (const { name, text } of serviceSql(metric)) {
        console.log(`-- ${name} (the service's)\n${text}\n`);
      }
    }
    console.log(`-- mhci (the reference's raw query)\n${RAW_MHCI_SQL}\n`);
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

module.exports = { buildServer, serviceSql, RAW_MHCI_SQL };

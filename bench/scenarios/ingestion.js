'use strict';

/**
 * Result ingestion (`POST /internal/sessions/{sessionID}/result`, the analysis engine's endpoint)
 * into a group that already holds 1,000,000 completed sessions with their features, against
 * ingestion into an empty group, both on the built service (`node dist/main`, production mode).
 * Ratio = p50 latency into the 1M group ÷ p50 latency into the empty group, target ≤ 3 (docs/performance.md:
 * percentiles must not scan the group).
 *
 * Every request completes a different pending session: before each run the scenario inserts
 * pending sessions (status 'created', as POST /session/create leaves them) in SQL, and autocannon's
 * setupRequest hands each request the next one, with its own result body (6 continuous features
 * drawn from the seed's distributions, a short transcript). The participants are members of both
 * groups, so their own history (user percentiles) is the same whichever group is measured.
 * Seeding (bench/seed.js seedIngestion) is skipped when the data is already there.
 */

const http = require('node:http');
const { Buffer } = require('node:buffer');
const { setTimeout: sleep } = require('node:timers/promises');
const { Client } = require('pg');
const {
  DEFAULTS,
  freePort,
  startProcess,
  stopProcess,
  measureOnce,
  median,
  markdownTable,
  ourServiceOptions,
} = require('../lib');
const {
  seedIngestion,
  addPendingSessions,
  mulberry32,
  ingestionFeatureValue,
  INGESTION_FEATURES,
  loadDist,
} = require('../seed');

const SESSIONS = 1_000_000;
const PARTICIPANTS = 10_000;
const ROUNDS = 2;
/**
 * Concurrent ingestions into one group, as an engine finishing a group's check-ins posts them; each
 * request is a write transaction. BENCH_INGESTION_CONNECTIONS=1 measures one at a time.
 */
const CONNECTIONS = Math.max(1, Math.floor(Number(process.env.BENCH_INGESTION_CONNECTIONS) || 4));
const TARGET = 3; // p50 into the 1M group ÷ p50 into the empty group, at most
/** At most this many first results of a group have nothing to compare with (and concurrent ones). */
const FIRST_RESULTS = 1;

/** Pending sessions made for a warm-up: more than any ingestion rate this machine reaches. */
const WARMUP_POOL_PER_SECOND = 1_500;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';
const SHARED_ENV = { DB_POOL_SIZE: '10', API_KEY_CACHE_TTL_MS: '5000' };

const fmt = {
  rps: (value) => (value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')),
  ms: (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`,
  ratio: (value) => value.toFixed(2),
};

/** Participant turns; words recur across lines in different orders, as in real transcripts. */
const USER_LINES = [
  'Work has been busy, but I am sleeping better this week.',
  'I feel a bit tired, the deadlines keep coming and work never stops.',
  'Honestly I feel good, the team is supportive and the weekend helped.',
  'Stress is high, meetings all day, little time for exercise or sleep.',
  'Calmer than last month; walking in the morning really helps my stress.',
  'Sleeping badly this week, too many meetings and the team is tired.',
];

const round = (value, digits) => Number(value.toFixed(digits));

/** A result as the engine posts it (docs/checkin-flow.md, session-result.dto.ts), from the PRNG `random`. */
function resultBody(random) {
  const mhci = round(30 + random() * 65, 1);
  const around = () => round(Math.min(100, Math.max(0, mhci - 12 + random() * 24)), 1);
  const line = () => USER_LINES[Math.floor(random() * USER_LINES.length)];
  const features = {};
  for (const feature of INGESTION_FEATURES) {
    features[feature.name] = ingestionFeatureValue(feature, random);
  }
  return JSON.stringify({
    version: 'v1.4.0',
    mhci,
    subscores: { vision: around(), audio: around(), transcript: around(), assessment: around() },
    transcript: [
      { role: 'assistant', content: 'How have you been feeling this week?' },
      { role: 'user', content: line() },
      { role: 'assistant', content: 'What helped, and what did not?' },
      { role: 'user', content: line() },
    ],
    features,
  });
}

function post(url, body, headers, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(body);
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': payload.length,
        },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(payload);
  });
}

/** Six random base62 characters, with the service's own generator (dist/common/ids.js). */
const randomToken = () => {
  const { randomString, BASE62 } = loadDist('common/ids.js');
  return randomString(6, BASE62);
};

/**
 * Pending sessions for one autocannon run and the matching request: each request takes the next
 * session and a fresh result body. `exhausted` turns true when the run wanted more sessions than
 * the pool holds (the run then fails: reused sessions answer 409).
 */
async function pendingPool(db, { enterpriseId, groupId, count, seed }) {
  const ids = await addPendingSessions(db, { enterpriseId, groupId, token: randomToken(), count });
  const random = mulberry32(seed);
  const pool = { ids, next: 0, exhausted: false, firstFailure: null };
  pool.request = {
    method: 'POST',
    setupRequest: (request) => {
      if (pool.next >= ids.length) pool.exhausted = true;
      const id = ids[Math.min(pool.next, ids.length - 1)];
      pool.next += 1;
      return { ...request, path: `/internal/sessions/${id}/result`, body: resultBody(random) };
    },
    onResponse: (status, body) => {
      if ((status < 200 || status > 299) && !pool.firstFailure) {
        pool.firstFailure = `${status} ${String(body).slice(0, 300)}`;
      }
    },
  };
  return pool;
}

/**
 * After a run: how many of the pool's sessions were completed (with percentiles for every
 * feature), then deletes the ones still pending.
 */
async function settlePool(db, pool) {
  const { rows } = await db.query(
    `SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed,
            -- Compared with the group's sessions shown at level 5, and with the participant's
            -- own when they have one with features (the seed's have none): all features or none.
            count(*) FILTER (WHERE status = 'completed'
              AND (SELECT count(*) FROM jsonb_object_keys(group_percentiles)) = $2
              AND (SELECT count(*) FROM jsonb_object_keys(user_percentiles)) IN (0, $2)
              )::int AS complete,
            -- Completed before any other session of the group was recorded: nothing to compare
            -- with yet (docs/checkin-flow.md).
            count(*) FILTER (WHERE status = 'completed' AND group_percentiles = '{}'::jsonb
              )::int AS early
       FROM sessions WHERE session_id = ANY ($1::text[])`,
    [pool.ids, INGESTION_FEATURES.length],
  );
  await db.query(
    `DELETE FROM sessions WHERE session_id = ANY ($1::text[]) AND status = 'created'`,
    [pool.ids],
  );
  return rows[0];
}

/** One autocannon run on `pool`; fails on any non-2xx answer and checks the completions in SQL. */
async function runOnPool(db, baseUrl, pool, { durationSeconds, headers }) {
  let figures;
  const deadlocksBefore = await deadlocks(db);
  try {
    figures = await measureOnce({
      url: baseUrl,
      method: 'POST',
      headers,
      connections: CONNECTIONS,
      duration: durationSeconds,
      requests: [pool.request],
    });
  } catch (error) {
    if (pool.exhausted) {
      throw new Error(`ran out of the ${pool.ids.length} pending sessions made for this run`, {
        cause: error,
      });
    }
    if (pool.firstFailure) error.message += `; the first was ${pool.firstFailure}`;
    // Backends report their statistics at most once a second, idle ones within about 10 s.
    let detected = 0;
    for (let waited = 0; detected === 0 && waited < 11_000; waited += 500) {
      await sleep(500);
      detected = (await deadlocks(db)) - deadlocksBefore;
    }
    if (detected > 0) {
      error.message +=
        `; PostgreSQL detected ${detected} deadlocks in this database during the run ` +
        '(concurrent ingestions into one group)';
    }
    throw error;
  }
  const settled = await settlePool(db, pool);
  // Requests still in flight when autocannon stops are not counted but may complete.
  if (
    settled.completed < figures.responses2xx ||
    settled.completed > figures.responses2xx + CONNECTIONS ||
    settled.complete + settled.early !== settled.completed ||
    // (Concurrent first results do not see each other's: up to CONNECTIONS more.)
    settled.early > FIRST_RESULTS + CONNECTIONS
  ) {
    throw new Error(
      `${figures.responses2xx} answers 2xx but ${settled.completed} sessions completed ` +
        `(${settled.complete} with percentiles of all ${INGESTION_FEATURES.length} features, ` +
        `${settled.early} without colleagues to compare with)`,
    );
  }
  return { ...figures, completed: settled.completed };
}

/** Deadlocks PostgreSQL has detected in this database (cumulative; updated about once a second). */
async function deadlocks(db) {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await db.query(
    'SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(rows[0].deadlocks);
}

const PERCENTILE_TOLERANCE = 0.01;

/**
 * One ingestion into each group through the API, then the stored group percentiles of the 1M
 * group's session against the same mid-rank computed by scanning the group: the histograms the
 * seed built must agree with the rows it inserted, within 0.01. The empty group's session has
 * nobody to be compared with: `{}`.
 */
async function checkIngestion(db, baseUrl, seed, headers) {
  const checks = [];
  for (const groupId of [seed.largeGroupId, seed.emptyGroupId]) {
    const pool = await pendingPool(db, {
      enterpriseId: seed.enterpriseId,
      groupId,
      count: 1,
      seed: groupId,
    });
    const body = resultBody(mulberry32(groupId));
    const answer = await post(`${baseUrl}/internal/sessions/${pool.ids[0]}/result`, body, headers);
    if (answer.status !== 200 || answer.body !== '{"message":"success"}') {
      throw new Error(`ingestion into group ${groupId}: ${answer.status} ${answer.body}`);
    }
    const again = await post(`${baseUrl}/internal/sessions/${pool.ids[0]}/result`, body, headers);
    if (again.status !== 200) {
      throw new Error(`the same result again: ${again.status} ${again.body}, expected 200`);
    }
    const stored = (
      await db.query('SELECT group_percentiles FROM sessions WHERE session_id = $1', [pool.ids[0]])
    ).rows[0].group_percentiles;
    // The same mid-rank counted exactly over the group's exact value counts (the session's own
    // values, as posted, are among them).
    const posted = JSON.parse(body);
    const expected = (
      await db.query(
        `SELECT m.name,
                (coalesce(sum(v.count) FILTER (WHERE v.value < m.value), 0)
                  + 0.5 * coalesce(sum(v.count) FILTER (WHERE v.value = m.value), 0))::float8
                  / sum(v.count) AS p
           FROM unnest($2::text[], $3::float8[]) AS m(name, value)
           JOIN group_feature_values v ON v.group_id = $1 AND v.name = m.name
          GROUP BY m.name`,
        [groupId, Object.keys(posted.features), Object.values(posted.features)],
      )
    ).rows;
    if (groupId === seed.emptyGroupId) {
      // Nobody else in the empty group: no comparison with colleagues (docs/metrics.md).
      if (JSON.stringify(stored) !== '{}') {
        throw new Error(`empty group: groupPercentiles ${JSON.stringify(stored)}, expected {}`);
      }
      checks.push({ groupId, sessionId: pool.ids[0], groupPercentiles: stored });
      continue;
    }
    for (const { name, p } of expected) {
      // Exact in small groups; within 0.01 where the histogram answers alone (docs/performance.md).
      if (typeof stored?.[name] !== 'number' || Math.abs(stored[name] - p) > PERCENTILE_TOLERANCE) {
        throw new Error(
          `group ${groupId}: groupPercentiles.${name} is ${stored?.[name]}, the group's rows ` +
            `give ${p}`,
        );
      }
    }
    checks.push({ groupId, sessionId: pool.ids[0], groupPercentiles: stored });
  }
  return checks;
}

/** Buckets per feature in the 1M group's histograms, and the fullest bucket (rows counted exactly). */
async function histogramShape(db, groupId) {
  const { rows: exists } = await db.query(
    `SELECT 1 FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name = 'group_feature_histograms'`,
  );
  if (!exists.length) return null;
  const { rows } = await db.query(
    `SELECT name, count(*)::int AS buckets, max(count)::int AS fullest, sum(count)::int AS total
       FROM group_feature_histograms WHERE group_id = $1 GROUP BY name ORDER BY name`,
    [groupId],
  );
  return rows;
}

async function run({ log = console.log } = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  log(
    `Seeding ${SESSIONS} sessions × ${INGESTION_FEATURES.length} features (ingestion ` +
      `enterprise) into ${databaseUrl} …`,
  );
  const seed = await seedIngestion({
    databaseUrl,
    sessions: SESSIONS,
    participants: PARTICIPANTS,
    log,
  });
  log(
    seed.seeded
      ? `Seeded in ${seed.seconds.toFixed(1)} s (groups ${seed.largeGroupId} and ${seed.emptyGroupId}).`
      : `Already seeded, kept (clean-up, check and VACUUM took ${seed.seconds.toFixed(1)} s).`,
  );

  const [port, opsPort] = await Promise.all([freePort(), freePort()]);
  const serviceOptions = ourServiceOptions({ port, opsPort, databaseUrl, env: SHARED_ENV });
  const baseUrl = `http://127.0.0.1:${port}`;
  const headers = {
    authorization: `Bearer ${serviceOptions.env.ENGINE_TOKEN}`,
    'content-type': 'application/json',
  };
  const targets = {
    large: { label: '1M group', groupId: seed.largeGroupId, rounds: [] },
    empty: { label: 'empty group', groupId: seed.emptyGroupId, rounds: [] },
  };

  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  let service;
  let checks;
  let histograms;
  let logLines;
  try {
    histograms = await histogramShape(db, seed.largeGroupId);
    if (histograms) {
      log(
        `Histograms of the 1M group: ${histograms
          .map((h) => `${h.name} ${h.buckets} buckets (fullest ${h.fullest})`)
          .join(', ')}`,
      );
    } else {
      log('No group_feature_histograms table in this schema.');
    }

    log('Starting the service (node dist/main) …');
    service = await startProcess(serviceOptions);
    checks = await checkIngestion(db, baseUrl, seed, headers);
    log(
      'One ingestion into each group answered 200 (and 200 again for the same result); the 1M ' +
        "group's stored percentiles are within 0.01 of a full scan of its rows.",
    );

    service.resetLineCount();
    let seedNumber = 1;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of [targets.empty, targets.large]) {
        const make = async (count) =>
          pendingPool(db, {
            enterpriseId: seed.enterpriseId,
            groupId: target.groupId,
            count,
            seed: (seedNumber += 1),
          });
        const warmupPool = await make(DEFAULTS.warmupSeconds * WARMUP_POOL_PER_SECOND + 500);
        const warmup = await runOnPool(db, baseUrl, warmupPool, {
          durationSeconds: DEFAULTS.warmupSeconds,
          headers,
        });
        // Twice the warm-up's rate, plus slack: the measured run cannot run out.
        const pool = await make(
          Math.ceil(warmup.requestsPerSec * DEFAULTS.durationSeconds * 2) + 500,
        );
        const figures = await runOnPool(db, baseUrl, pool, {
          durationSeconds: DEFAULTS.durationSeconds,
          headers,
        });
        target.rounds.push(figures);
        log(
          `  round ${round} ${target.label.padEnd(11)} ${fmt.rps(figures.requestsPerSec)} req/s, ` +
            `p50 ${fmt.ms(figures.latencyP50)}, p99 ${fmt.ms(figures.latencyP99)} ` +
            `(${figures.completed} sessions completed)`,
        );
      }
    }
    logLines = service.lineCount();
  } finally {
    await stopProcess(service);
    await db.end();
  }

  for (const target of Object.values(targets)) {
    target.requestsPerSec = median(target.rounds.map((r) => r.requestsPerSec));
    target.latencyP50 = median(target.rounds.map((r) => r.latencyP50));
    target.latencyP99 = median(target.rounds.map((r) => r.latencyP99));
  }
  const ratio = targets.large.latencyP50 / targets.empty.latencyP50;
  const completed = Object.values(targets)
    .flatMap((target) => target.rounds)
    .reduce((sum, r) => sum + r.completed, 0);
  const result = {
    id: 'ingestion',
    title:
      'POST /internal/sessions/{id}/result into a group of 1M sessions vs an empty group ' +
      '("ours" = 1M group, "reference" = empty group; ratio = p50 latency 1M ÷ empty)',
    target: TARGET,
    targetLabel: `≤ ${TARGET}`,
    ratio,
    meetsTarget: ratio <= TARGET,
    ours: targets.large,
    reference: targets.empty,
    targets,
    seed: { ...seed, apiKey: undefined },
    histograms,
    checks,
    settings: {
      connections: CONNECTIONS,
      durationSeconds: DEFAULTS.durationSeconds,
      warmupSeconds: DEFAULTS.warmupSeconds,
      rounds: ROUNDS,
    },
    notes: [
      seed.seeded
        ? `Seeding took ${seed.seconds.toFixed(1)} s (10,000 participants in both groups, ` +
          `1,000,000 completed sessions, the group's exact counts of their ` +
          `${INGESTION_FEATURES.length} features and histograms, VACUUM ANALYZE).`
        : `Data already seeded; removing earlier runs' sessions, the check and VACUUM ANALYZE ` +
          `took ${seed.seconds.toFixed(1)} s.`,
      `Each request completes a different pending session (made in SQL before each run, ` +
        `participants of both groups in turn) with its own body: ${INGESTION_FEATURES.length} ` +
        `features (${INGESTION_FEATURES.map((f) => f.name).join(', ')}) from the seed's ` +
        'distributions, a 4-turn transcript. Rounds alternate empty group, 1M group; ' +
        `${completed.toLocaleString('en-US')} measured ingestions, every one answered 2xx and ` +
        'completed its session with group and user percentiles of every feature (checked in SQL).',
      'Before loading, one ingestion into each group: 200, the same result again 200, and the 1M ' +
        "group's stored groupPercentiles equal the mid-rank counted exactly over the group's values; " +
        "the empty group's answer {} (nobody to compare with).",
      histograms
        ? `group_feature_histograms of the 1M group: ${histograms
            .map((h) => `${h.name} ${h.buckets} buckets, fullest ${h.fullest} rows`)
            .join('; ')}.`
        : 'No histograms.',
    ],
  };
  if (logLines > 0) {
    result.notes.push(
      `The service wrote ${logLines} output lines while being measured (LOG_LEVEL=warn).`,
    );
  }
  log('');
  log(formatTable(result));
  return result;
}

function formatTable(result) {
  const { targets } = result;
  const line = (target) => [
    target.label,
    fmt.rps(target.requestsPerSec),
    fmt.ms(target.latencyP50),
    fmt.ms(target.latencyP99),
    target.rounds.map((r) => `${fmt.rps(r.requestsPerSec)} / ${fmt.ms(r.latencyP50)}`).join(', '),
  ];
  return markdownTable(
    ['', 'req/s (median)', 'p50', 'p99', 'rounds req/s / p50'],
    [
      line(targets.empty),
      line(targets.large),
      [
        'p50 1M group ÷ empty group',
        `${fmt.ratio(result.ratio)} (target ${result.targetLabel})`,
        '',
        '',
        result.meetsTarget ? 'ok' : 'BELOW TARGET',
      ],
    ],
  );
}

module.exports = { id: 'ingestion', run, formatTable };

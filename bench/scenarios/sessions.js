'use strict';

/**
 * GET /sessions/{sessionID} over 100,000 completed sessions (100 groups, 10,000 participants at
 * privacy level 5, so every field is shown): the built service (`node dist/main`, production
 * mode) against the bare Fastify + pg reference (bench/reference/sessions-server.js, the
 * service's own SQL) on the same database, in the same run, measuring reference, ours with the
 * per-key rate limit on (the target) and ours with it off (what the limit costs), in an order
 * rotated round by round.
 * autocannon rotates over all the session ids in one shuffled order, the same for every server.
 * Seeding (bench/seed.js seedSessions) is skipped when the database already holds this data.
 */

const path = require('node:path');
const {
  DEFAULTS,
  freePort,
  httpRequest,
  startProcess,
  stopProcess,
  measure,
  median,
  throughputFmt,
  throughputTable,
  ourServiceOptions,
  rateLimitRows,
  rotated,
} = require('../lib');
const { loadDist, mulberry32, seedSessions, waitForSharedFeatures } = require('../seed');

const GROUPS = 100;
const PARTICIPANTS = 10_000;
const SESSIONS = 100_000;
// Six: each server measured twice in each position (rotated); on this 2-core machine single
// rounds vary by ±0.1, and six rounds steady the medians (docs/performance.md).
const ROUNDS = 6;
/** With the per-key rate limit on (docs/performance.md). */
const TARGET_RATIO = 0.8;
/** Sessions whose answers are compared byte for byte before measuring. */
const CHECKED_SESSIONS = 20;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';

/** Shared by both servers, pinned to the service's defaults so the local env cannot skew them. */
const SHARED_ENV = {
  DB_POOL_SIZE: '10',
  API_KEY_CACHE_TTL_MS: '5000',
  CHECKIN_TOKEN_TTL_HOURS: '24',
  PUBLIC_BASE_URL: 'https://checkin.bench.example',
};

/** The fields of a level-5 session, in the service's order (docs/privacy.md). */
/** Every field of a session at level 5, from the service's privacy model. */
const LEVEL_5_FIELDS = loadDist('common/privacy-model.js').sessionFieldsAt(5);

const fmt = throughputFmt;

/** `items` in a deterministic pseudo-random order (Fisher–Yates with mulberry32). */
function shuffled(items, seed) {
  const random = mulberry32(seed);
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * autocannon's `requests` for GET /sessions/{id} over `order`, restarted from its beginning for
 * every measurement (the same sequence for every server).
 */
/** Every seeded session once, in one shuffled order (the same for every server; also profile.js). */
const sessionOrder = (sessionIds) => shuffled(sessionIds, 0x676574); // "get"

function sessionRequests(order) {
  return () => {
    let next = 0;
    return [
      {
        method: 'GET',
        setupRequest: (request) => {
          request.path = `/sessions/${order[next++ % order.length]}`;
          return request;
        },
      },
    ];
  };
}

function firstDifference(a, b) {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return length;
}

const excerpt = (buffer, at) => buffer.subarray(Math.max(0, at - 40), at + 40).toString('utf8');

/** Throws unless every answer has `status` and the same bytes as the first one. */
function assertSameBytes(what, targets, answers, status) {
  answers.forEach((answer, i) => {
    if (answer.status !== status) {
      throw new Error(
        `${what}: ${targets[i].name} answered ${answer.status}, expected ${status}: ` +
          answer.body.toString('utf8').slice(0, 300),
      );
    }
  });
  const [first, ...others] = answers;
  others.forEach((answer, i) => {
    if (!answer.body.equals(first.body)) {
      const at = firstDifference(first.body, answer.body);
      throw new Error(
        `${what}: ${targets[0].name} and ${targets[i + 1].name} answer different bodies ` +
          `(${first.body.length} vs ${answer.body.length} bytes, ` +
          `first difference at byte ${at}):\n` +
          `  ${targets[0].name}: …${excerpt(first.body, at)}…\n` +
          `  ${targets[i + 1].name}: …${excerpt(answer.body, at)}…`,
      );
    }
  });
  return first.body;
}

/** Both servers must answer the same bytes to the same request before they are compared. */
async function checkSameAnswers(targets, apiKey, sessionIds) {
  const get = (sessionId, headers) =>
    Promise.all(
      targets.map((target) => httpRequest(`${target.baseUrl}/sessions/${sessionId}`, { headers })),
    );
  const withKey = { 'x-api-key': apiKey };
  const step = Math.floor(sessionIds.length / CHECKED_SESSIONS);
  let sample;
  for (let i = 0; i < CHECKED_SESSIONS; i++) {
    const sessionId = sessionIds[i * step];
    const body = assertSameBytes(
      `GET /sessions/${sessionId} with the seeded key`,
      targets,
      await get(sessionId, withKey),
      200,
    );
    const session = JSON.parse(body.toString('utf8'));
    if (JSON.stringify(Object.keys(session)) !== JSON.stringify(LEVEL_5_FIELDS)) {
      throw new Error(
        `GET /sessions/${sessionId}: fields ${Object.keys(session).join(', ')}, ` +
          `expected every level-5 field (${LEVEL_5_FIELDS.join(', ')})`,
      );
    }
    if (session.sessionID !== sessionId) {
      throw new Error(`GET /sessions/${sessionId} answered session ${session.sessionID}`);
    }
    sample ??= body;
  }
  assertSameBytes('GET /sessions/{id} without a key', targets, await get(sessionIds[0], {}), 401);
  const unknown = `ses_${'Z'.repeat(24)}`;
  assertSameBytes(
    'GET /sessions/{id} of an unknown session',
    targets,
    await get(unknown, withKey),
    400,
  );
  assertSameBytes(
    'GET /sessions/{id} with a malformed id',
    targets,
    await get('ses_short', withKey),
    400,
  );
  return sample;
}

/**
 * Starts our service and a reference server (and our service again with each of `alsoOurs`, other
 * settings); resolves [ourProcess, referenceProcess, ...alsoOurs' processes].
 */
async function startServers({ ourOptions, alsoOurs = [], referenceScript, referencePort, name }) {
  const started = await Promise.allSettled([
    startProcess(ourOptions),
    startProcess({
      name,
      command: process.execPath,
      args: [
        path.join(__dirname, '..', 'reference', referenceScript),
        '--port',
        String(referencePort),
      ],
      env: {
        ...process.env,
        ...SHARED_ENV,
        HOST: '127.0.0.1',
        DATABASE_URL: ourOptions.env.DATABASE_URL,
        CHECKIN_TOKEN_SECRET: ourOptions.env.CHECKIN_TOKEN_SECRET,
        // Transcripts are stored encrypted: the reference decrypts them with the same keys.
        DATA_ENCRYPTION_KEY: ourOptions.env.DATA_ENCRYPTION_KEY,
      },
      readyUrl: `http://127.0.0.1:${referencePort}/health`,
      timeoutMs: 30_000,
    }),
    ...alsoOurs.map((options) => startProcess(options)),
  ]);
  const processes = started.map((outcome) => outcome.value);
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await Promise.all(processes.map((handle) => stopProcess(handle)));
    throw failed.reason;
  }
  return processes;
}

/** Each server's medians over its rounds. */
function summarise(...targets) {
  for (const target of targets) {
    target.requestsPerSec = median(target.rounds.map((r) => r.requestsPerSec));
    target.latencyP50 = median(target.rounds.map((r) => r.latencyP50));
    target.latencyP99 = median(target.rounds.map((r) => r.latencyP99));
  }
}

/**
 * The sessions enterprise's data (shared with scenarios/session-create.js): seeded once, kept
 * while it matches, pending sessions of earlier runs deleted.
 */
async function seedSessionsData({ databaseUrl, serviceEnv, log }) {
  log(`Seeding ${SESSIONS} sessions (sessions enterprise) into ${databaseUrl} …`);
  const seed = await seedSessions({
    databaseUrl,
    serviceEnv,
    groups: GROUPS,
    participants: PARTICIPANTS,
    sessions: SESSIONS,
    log,
  });
  log(
    seed.seeded
      ? `Seeded in ${seed.seconds.toFixed(1)} s.`
      : `Already seeded, kept (${seed.seconds.toFixed(1)} s; ` +
          `${seed.deletedPending} pending sessions of earlier runs deleted).`,
  );
  return seed;
}

async function run({ log = console.log } = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  const [ourPort, offPort, referencePort, opsPort, offOpsPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const ourOptions = ourServiceOptions({ port: ourPort, opsPort, databaseUrl, env: SHARED_ENV });
  const offOptions = ourServiceOptions({
    port: offPort,
    opsPort: offOpsPort,
    databaseUrl,
    env: SHARED_ENV,
    rateLimit: 'off',
  });

  const seed = await seedSessionsData({ databaseUrl, serviceEnv: ourOptions.env, log });
  const { apiKey } = seed;
  if (seed.sessionIds.length !== SESSIONS) {
    throw new Error(`expected ${SESSIONS} seeded sessions, found ${seed.sessionIds.length}`);
  }
  // One shuffled order of every session id; each measurement starts it from the beginning.
  const order = sessionOrder(seed.sessionIds);
  const requests = sessionRequests(order);

  const ours = { name: 'ours', baseUrl: `http://127.0.0.1:${ourPort}`, rounds: [] };
  const oursLimitOff = { name: 'ours/off', baseUrl: `http://127.0.0.1:${offPort}`, rounds: [] };
  const reference = { name: 'reference', baseUrl: `http://127.0.0.1:${referencePort}`, rounds: [] };

  let ourProcess;
  let referenceProcess;
  let offProcess;
  let sample;
  try {
    log('Starting the service twice (node dist/main, rate limit on and off) and the reference …');
    [ourProcess, referenceProcess, offProcess] = await startServers({
      ourOptions,
      alsoOurs: [offOptions],
      referenceScript: 'sessions-server.js',
      referencePort,
      name: 'reference sessions server',
    });

    const waited = await waitForSharedFeatures(databaseUrl);
    if (waited > 1)
      log(`Waited ${waited.toFixed(0)} s for the service to count the seeded features.`);
    sample = await checkSameAnswers([reference, ours, oursLimitOff], apiKey, seed.sessionIds);
    log(
      `All three servers answer byte-identical bodies (${CHECKED_SESSIONS} sessions with every ` +
        `level-5 field, ${sample.length} bytes for the first; 401 without a key; 400 for an ` +
        'unknown and a malformed id).',
    );

    ourProcess.resetLineCount();
    const headers = { 'x-api-key': apiKey };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of rotated([reference, ours, oursLimitOff], round - 1)) {
        const figures = await measure(target.baseUrl, { headers, requests });
        target.rounds.push(figures);
        log(
          `  round ${round} ${target.name.padEnd(9)} ${fmt.rps(figures.requestsPerSec)} req/s, ` +
            `p50 ${fmt.ms(figures.latencyP50)}, p99 ${fmt.ms(figures.latencyP99)}`,
        );
      }
    }
    ours.logLines = ourProcess.lineCount();
  } finally {
    await Promise.all([ourProcess, referenceProcess, offProcess].map((p) => stopProcess(p)));
  }

  summarise(ours, oursLimitOff, reference);
  const title = `GET /sessions/{id} (${SESSIONS.toLocaleString('en-US')} sessions, level 5)`;
  const rows = rateLimitRows({ title, ours, oursLimitOff, reference, target: TARGET_RATIO });
  const result = {
    id: 'sessions',
    title,
    target: TARGET_RATIO,
    ratio: rows[0].ratio,
    meetsTarget: rows[0].meetsTarget,
    ours,
    oursLimitOff,
    reference,
    rows,
    settings: {
      connections: DEFAULTS.connections,
      durationSeconds: DEFAULTS.durationSeconds,
      warmupSeconds: DEFAULTS.warmupSeconds,
      rounds: ROUNDS,
      rotated: true,
    },
    notes: [
      seed.seeded
        ? `Seeding took ${seed.seconds.toFixed(1)} s (${GROUPS} groups, ` +
          `${PARTICIPANTS.toLocaleString('en-US')} participants, ` +
          `${SESSIONS.toLocaleString('en-US')} completed sessions, VACUUM ANALYZE).`
        : `Data already seeded; the check took ${seed.seconds.toFixed(1)} s` +
          (seed.deletedPending > 0
            ? ` (with the deletion of ${seed.deletedPending.toLocaleString('en-US')} pending ` +
              'sessions left by session-create).'
            : '.'),
      `Requests rotate over all ${SESSIONS.toLocaleString('en-US')} session ids in one ` +
        'shuffled order, restarted for every measurement (same sequence for every server). ' +
        `Before measuring, all three servers answered byte-identical bodies for ${CHECKED_SESSIONS} ` +
        `sessions (${sample.length} bytes for the first, every level-5 field), 401 without a ` +
        'key and 400 `Session not found` for unknown and malformed ids.',
    ],
  };
  if (ours.logLines > 0) {
    result.notes.push(
      `The service wrote ${ours.logLines} output lines while being measured (LOG_LEVEL=warn).`,
    );
  }
  log('');
  log(throughputTable(result));
  return result;
}

module.exports = {
  id: 'sessions',
  run,
  formatTable: throughputTable,
  checkSameAnswers,
  // Shared with scenarios/session-create.js.
  GROUPS,
  PARTICIPANTS,
  SESSIONS,
  SHARED_ENV,
  seedSessionsData,
  assertSameBytes,
  shuffled,
  sessionOrder,
  sessionRequests,
  startServers,
  summarise,
};

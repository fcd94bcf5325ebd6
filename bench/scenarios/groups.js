'use strict';

/**
 * GET /groups with 100 groups: the built service (`node dist/main`, production mode) against the
 * bare Fastify + pg reference (bench/reference/groups-server.js) on the same database, in the
 * same run, measuring reference, ours with the per-key rate limit on (the target) and ours with
 * it off (what the limit costs) in an order rotated round by round.
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
const { seedGroups } = require('../seed');

const GROUPS = 100;
// Six: each server measured twice in each position (rotated); on this 2-core machine single
// rounds vary by ±0.1, and six rounds steady the medians (docs/performance.md).
const ROUNDS = 6;
/** With the per-key rate limit on (docs/performance.md). */
const TARGET_RATIO = 0.85;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';

/** Shared by both servers, pinned to the service's defaults so the local env cannot skew them. */
const SHARED_ENV = { DB_POOL_SIZE: '10', API_KEY_CACHE_TTL_MS: '5000' };

const fmt = throughputFmt;

/** Both servers must answer the same bytes to the same request before they are compared. */
async function checkSameAnswers(targets, apiKey) {
  const cases = [
    { what: 'GET /groups with the seeded key', headers: { 'x-api-key': apiKey }, status: 200 },
    { what: 'GET /groups without a key', headers: {}, status: 401 },
  ];
  for (const { what, headers, status } of cases) {
    const answers = await Promise.all(
      targets.map((target) => httpRequest(`${target.baseUrl}/groups`, { headers })),
    );
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
    if (status === 200) {
      const groups = JSON.parse(first.body.toString('utf8'));
      if (!Array.isArray(groups) || groups.length !== GROUPS) {
        throw new Error(
          `${what}: expected ${GROUPS} groups, got ${groups.length ?? typeof groups}`,
        );
      }
    }
  }
}

function firstDifference(a, b) {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return length;
}

const excerpt = (buffer, at) => buffer.subarray(Math.max(0, at - 40), at + 40).toString('utf8');

async function run({ log = console.log } = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  log(`Seeding ${GROUPS} groups into ${databaseUrl} …`);
  const { apiKey } = await seedGroups({ databaseUrl, groups: GROUPS });

  const [ourPort, offPort, referencePort, opsPort, offOpsPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const target = (name, port) => ({ name, baseUrl: `http://127.0.0.1:${port}`, rounds: [] });
  const ours = target('ours', ourPort);
  const oursLimitOff = target('ours/off', offPort);
  const reference = target('reference', referencePort);

  let processes = [];
  try {
    log('Starting the service twice (node dist/main, rate limit on and off) and the reference …');
    const started = await Promise.allSettled([
      startProcess(ourServiceOptions({ port: ourPort, opsPort, databaseUrl, env: SHARED_ENV })),
      startProcess(
        ourServiceOptions({
          port: offPort,
          opsPort: offOpsPort,
          databaseUrl,
          env: SHARED_ENV,
          rateLimit: 'off',
        }),
      ),
      startProcess({
        name: 'reference server',
        command: process.execPath,
        args: [
          path.join(__dirname, '..', 'reference', 'groups-server.js'),
          '--port',
          String(referencePort),
        ],
        env: {
          ...process.env,
          ...SHARED_ENV,
          HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl,
        },
        readyUrl: `${reference.baseUrl}/health`,
        timeoutMs: 30_000,
      }),
    ]);
    processes = started.map((outcome) => outcome.value);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;

    await checkSameAnswers([reference, ours, oursLimitOff], apiKey);
    log('All three servers answer byte-identical bodies (200 with the key, 401 without).');

    const [ourProcess] = processes;
    ourProcess.resetLineCount();
    const headers = { 'x-api-key': apiKey };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const measured of rotated([reference, ours, oursLimitOff], round - 1)) {
        const figures = await measure(`${measured.baseUrl}/groups`, { headers });
        measured.rounds.push(figures);
        log(
          `  round ${round} ${measured.name.padEnd(9)} ${fmt.rps(figures.requestsPerSec)} req/s, ` +
            `p50 ${fmt.ms(figures.latencyP50)}, p99 ${fmt.ms(figures.latencyP99)}`,
        );
      }
    }
    ours.logLines = ourProcess.lineCount();
  } finally {
    await Promise.all(processes.map((handle) => stopProcess(handle)));
  }

  for (const measured of [ours, oursLimitOff, reference]) {
    measured.requestsPerSec = median(measured.rounds.map((r) => r.requestsPerSec));
    measured.latencyP50 = median(measured.rounds.map((r) => r.latencyP50));
    measured.latencyP99 = median(measured.rounds.map((r) => r.latencyP99));
  }
  const rows = rateLimitRows({
    title: `GET /groups (${GROUPS} groups)`,
    ours,
    oursLimitOff,
    reference,
    target: TARGET_RATIO,
  });
  const result = {
    id: 'groups',
    title: `GET /groups (${GROUPS} groups)`,
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
    notes: [],
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

module.exports = { id: 'groups', run, formatTable: throughputTable, checkSameAnswers };

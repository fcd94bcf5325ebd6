'use strict';

/**
 * GET /groups with 100 groups: the built service (`node dist/main`, production mode) against the
 * bare Fastify + pg reference (bench/reference/groups-server.js) on the same database, in the
 * same run, alternating reference and ours.
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
} = require('../lib');
const { seedGroups } = require('../seed');

const GROUPS = 100;
const ROUNDS = 2;
const TARGET_RATIO = 0.6;
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

  const [ourPort, referencePort] = await Promise.all([freePort(), freePort()]);
  const ours = {
    name: 'ours',
    baseUrl: `http://127.0.0.1:${ourPort}`,
    rounds: [],
  };
  const reference = {
    name: 'reference',
    baseUrl: `http://127.0.0.1:${referencePort}`,
    rounds: [],
  };

  let ourProcess;
  let referenceProcess;
  try {
    log('Starting the service (node dist/main) and the reference server …');
    const started = await Promise.allSettled([
      startProcess(ourServiceOptions({ port: ourPort, databaseUrl, env: SHARED_ENV })),
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
    [ourProcess, referenceProcess] = started.map((outcome) => outcome.value);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;

    await checkSameAnswers([reference, ours], apiKey);
    log('Both servers answer byte-identical bodies (200 with the key, 401 without).');

    ourProcess.resetLineCount();
    const headers = { 'x-api-key': apiKey };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of [reference, ours]) {
        const figures = await measure(`${target.baseUrl}/groups`, { headers });
        target.rounds.push(figures);
        log(
          `  round ${round} ${target.name.padEnd(9)} ${fmt.rps(figures.requestsPerSec)} req/s, ` +
            `p50 ${fmt.ms(figures.latencyP50)}, p99 ${fmt.ms(figures.latencyP99)}`,
        );
      }
    }
    ours.logLines = ourProcess.lineCount();
  } finally {
    await Promise.all([stopProcess(ourProcess), stopProcess(referenceProcess)]);
  }

  for (const target of [ours, reference]) {
    target.requestsPerSec = median(target.rounds.map((r) => r.requestsPerSec));
    target.latencyP50 = median(target.rounds.map((r) => r.latencyP50));
    target.latencyP99 = median(target.rounds.map((r) => r.latencyP99));
  }
  const ratio = ours.requestsPerSec / reference.requestsPerSec;
  const result = {
    id: 'groups',
    title: `GET /groups (${GROUPS} groups)`,
    target: TARGET_RATIO,
    ratio,
    meetsTarget: ratio >= TARGET_RATIO,
    ours,
    reference,
    settings: {
      connections: DEFAULTS.connections,
      durationSeconds: DEFAULTS.durationSeconds,
      warmupSeconds: DEFAULTS.warmupSeconds,
      rounds: ROUNDS,
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

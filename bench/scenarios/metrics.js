'use strict';

/**
 * Group metrics over 1,000,000 completed sessions (one group, 10,000 participants, 2025):
 *
 *  (a) GET /metrics/groups/{id}/mhci, with and without `?accuracy=true`: the built service (it
 *      merges the year's 12 released monthly windows, docs/metrics.md "Release windows")
 *      against the bare Fastify + pg reference running the raw `percentile_cont` query over the
 *      sessions (bench/reference/metrics-server.js); ratio = our p50 latency ÷ reference p50
 *      latency, target ≤ 0.05, and our p50 ≤ 20 ms.
 *  (b) the service's GET …/wordcloud (with and without `?accuracy=true`, ≤ 20 ms p50) and
 *      GET …/count (≤ 10 ms p50), absolute.
 *
 * Few connections (each request aggregates a million rows), alternating rounds, medians.
 * Seeding (bench/seed.js seedMetrics) is skipped when the database already holds this data.
 */

const path = require('node:path');
const { Client } = require('pg');
const {
  DEFAULTS,
  freePort,
  httpRequest,
  startProcess,
  stopProcess,
  measure,
  median,
  markdownTable,
  ourServiceOptions,
} = require('../lib');
const { seedMetrics } = require('../seed');
const { serviceSql, RAW_MHCI_SQL } = require('../reference/metrics-server');

const SESSIONS = 1_000_000;
const PARTICIPANTS = 10_000;
const ROUNDS = 2;
const CONNECTIONS = 4;
const MHCI_TARGET = 0.05; // ours p50 ÷ reference p50, at most
const MHCI_MS = 20; // ours p50, at most
const WORDCLOUD_MS = 20;
const COUNT_MS = 10;
const RANGE = { from: '2025-01-01', to: '2025-12-31' };
const QUERY = `?from=${RANGE.from}&to=${RANGE.to}`;
const ACCURACY = '&accuracy=true';
const MONTHS = 12;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';
const SHARED_ENV = { DB_POOL_SIZE: '10', API_KEY_CACHE_TTL_MS: '5000' };

const fmt = {
  rps: (value) => (value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')),
  ms: (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`,
  ratio: (value) => value.toFixed(2),
};

async function checkCloseMhci(ours, reference, groupId, apiKey) {
  const url = (target) => `${target.baseUrl}/metrics/groups/${groupId}/mhci${QUERY}`;
  const headers = { 'x-api-key': apiKey };
  // One after the other: two concurrent sequential scans of the same large table synchronise
  // (synchronize_seqscans), so each sums the rows in a different order and avg() of the float8
  // column differs in its last digits.
  const a = await httpRequest(url(reference), { headers, timeoutMs: 30_000 });
  const b = await httpRequest(url(ours), { headers, timeoutMs: 30_000 });
  for (const [name, answer] of [
    ['reference', a],
    ['ours', b],
  ]) {
    if (answer.status !== 200) {
      throw new Error(`mhci: ${name} answered ${answer.status}: ${answer.body.toString('utf8')}`);
    }
  }
  // Ours is a differentially private release (docs/metrics.md): over a year of this group its
  // noise is far below a point, so the mean and median agree with the raw query's closely. (Ours
  // averages each participant's mean of a month, read from a 20-bin histogram; the raw query every
  // session: here nearly the same.)
  const body = JSON.parse(a.body.toString('utf8'));
  const theirs = JSON.parse(b.body.toString('utf8'));
  const close =
    body.all &&
    theirs.all &&
    Object.keys(theirs.all).length === Object.keys(body.all).length &&
    Math.abs(body.all.avgMhci - theirs.all.avgMhci) <= 0.5 &&
    Math.abs(body.all.percentile50Mhci - theirs.all.percentile50Mhci) <= 2;
  if (!close) {
    throw new Error(
      `mhci: answers too far apart\n  reference: ${a.body.toString('utf8')}\n  ours: ${b.body}`,
    );
  }
  // With ?accuracy=true: the same value (answers are post-processing of stored releases), and
  // what it is worth: the 12 months, every participant of each, nothing left out or withheld.
  const c = await httpRequest(`${url(ours)}${ACCURACY}`, { headers, timeoutMs: 30_000 });
  const withAccuracy = JSON.parse(c.body.toString('utf8'));
  const accuracy = withAccuracy.all?.accuracy;
  if (
    c.status !== 200 ||
    JSON.stringify(withAccuracy.all.value) !== JSON.stringify(theirs.all) ||
    accuracy.windows !== MONTHS ||
    accuracy.windowsNotReleased !== 0 ||
    accuracy.legacyCells !== 0 ||
    accuracy.resultsLeftOut !== 0 ||
    accuracy.reason !== null ||
    !(accuracy.margin > 0 && accuracy.margin < 0.1)
  ) {
    throw new Error(`mhci?accuracy=true: ${c.status} ${c.body.toString('utf8')}`);
  }
  return {
    ours: b.body.toString('utf8'),
    reference: a.body.toString('utf8'),
    accuracy,
  };
}

async function checkOwnAnswers(ours, groupId, apiKey) {
  const headers = { 'x-api-key': apiKey };
  const count = await httpRequest(`${ours.baseUrl}/metrics/groups/${groupId}/count${QUERY}`, {
    headers,
    timeoutMs: 30_000,
  });
  const countBody = count.body.toString('utf8');
  if (count.status !== 200 || countBody !== JSON.stringify({ all: SESSIONS })) {
    throw new Error(`count: ${count.status} ${countBody}, expected {"all":${SESSIONS}}`);
  }
  const cloud = await httpRequest(`${ours.baseUrl}/metrics/groups/${groupId}/wordcloud${QUERY}`, {
    headers,
    timeoutMs: 30_000,
  });
  const cloudBody = JSON.parse(cloud.body.toString('utf8'));
  const words = cloudBody.all ? Object.keys(cloudBody.all).length : 0;
  if (cloud.status !== 200 || words !== 50) {
    throw new Error(`wordcloud: ${cloud.status}, ${words} words (expected 50)`);
  }
  const cloudAccuracy = await httpRequest(
    `${ours.baseUrl}/metrics/groups/${groupId}/wordcloud${QUERY}${ACCURACY}`,
    { headers, timeoutMs: 30_000 },
  );
  const withAccuracy = JSON.parse(cloudAccuracy.body.toString('utf8'));
  if (
    cloudAccuracy.status !== 200 ||
    JSON.stringify(withAccuracy.all?.value) !== JSON.stringify(cloudBody.all) ||
    withAccuracy.all.accuracy.windows !== MONTHS ||
    withAccuracy.all.accuracy.reason !== null
  ) {
    throw new Error(
      `wordcloud?accuracy=true: ${cloudAccuracy.status} ${cloudAccuracy.body.toString('utf8')}`,
    );
  }
  return { countBody, words, speakersNeeded: withAccuracy.all.accuracy.speakersNeeded };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the service's count statement, of its mhci statements (the
 * group's days, the windows with the group's releases, the legacy cells) and of the raw mhci
 * query.
 */
async function explain(databaseUrl, groupId, enterpriseId) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const plans = {};
    const statements = [
      ...serviceSql('count'),
      ...serviceSql('mhci'),
      { name: 'rawMhci', text: RAW_MHCI_SQL, params: (...ids) => ids },
    ];
    for (const { name, text, params } of statements) {
      const { rows } = await client.query(
        `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
        params(groupId, enterpriseId, RANGE.from, RANGE.to),
      );
      plans[name] = rows.map((row) => row['QUERY PLAN']);
    }
    return plans;
  } finally {
    await client.end();
  }
}

/** One line per plan: the scan node, heap fetches, buffers and execution time. */
function planSummary(lines) {
  const scan = lines
    .find((line) => /Scan/.test(line))
    ?.trim()
    .replace(/^->\s+/, '')
    .replace(/\s+\(cost.*$/, '');
  const heap = lines.find((line) => /Heap Fetches/.test(line))?.trim();
  const buffers = lines.find((line) => /Buffers:/.test(line))?.trim();
  const time = lines.find((line) => /Execution Time/.test(line))?.trim();
  return [scan, heap, buffers, time].filter(Boolean).join('; ');
}

async function run({ log = console.log } = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  log(`Seeding ${SESSIONS} sessions (metrics enterprise) into ${databaseUrl} …`);
  const seed = await seedMetrics({
    databaseUrl,
    sessions: SESSIONS,
    participants: PARTICIPANTS,
    log,
  });
  log(
    seed.seeded
      ? `Seeded in ${seed.seconds.toFixed(1)} s (group ${seed.groupId}).`
      : `Already seeded, kept (check + VACUUM took ${seed.seconds.toFixed(1)} s; group ${seed.groupId}).`,
  );
  const { apiKey, groupId, enterpriseId } = seed;

  const plans = await explain(databaseUrl, groupId, enterpriseId);
  for (const [name, lines] of Object.entries(plans)) {
    log(`EXPLAIN (ANALYZE, BUFFERS) ${name}:\n  ${lines.join('\n  ')}`);
  }

  const [ourPort, referencePort, opsPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const ours = { name: 'ours', baseUrl: `http://127.0.0.1:${ourPort}` };
  const reference = { name: 'reference', baseUrl: `http://127.0.0.1:${referencePort}` };
  const targets = {
    referenceMhci: { label: 'reference mhci', server: reference, metric: 'mhci', rounds: [] },
    oursMhci: { label: 'ours mhci', server: ours, metric: 'mhci', rounds: [] },
    oursMhciAccuracy: {
      label: 'ours mhci ?accuracy=true',
      server: ours,
      metric: 'mhci',
      query: ACCURACY,
      rounds: [],
    },
    count: { label: 'ours count', server: ours, metric: 'count', rounds: [] },
    wordcloud: { label: 'ours wordcloud', server: ours, metric: 'wordcloud', rounds: [] },
    wordcloudAccuracy: {
      label: 'ours wordcloud ?accuracy=true',
      server: ours,
      metric: 'wordcloud',
      query: ACCURACY,
      rounds: [],
    },
  };

  let ourProcess;
  let referenceProcess;
  let mhciBody;
  let speakersNeeded;
  try {
    log('Starting the service (node dist/main) and the reference server …');
    const started = await Promise.allSettled([
      startProcess(ourServiceOptions({ port: ourPort, opsPort, databaseUrl, env: SHARED_ENV })),
      startProcess({
        name: 'reference metrics server',
        command: process.execPath,
        args: [
          path.join(__dirname, '..', 'reference', 'metrics-server.js'),
          '--port',
          String(referencePort),
        ],
        env: { ...process.env, ...SHARED_ENV, HOST: '127.0.0.1', DATABASE_URL: databaseUrl },
        readyUrl: `${reference.baseUrl}/health`,
        timeoutMs: 30_000,
      }),
    ]);
    [ourProcess, referenceProcess] = started.map((outcome) => outcome.value);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;

    mhciBody = await checkCloseMhci(ours, reference, groupId, apiKey);
    log(`mhci: ours ${mhciBody.ours}, the raw query ${mhciBody.reference}`);
    const own = await checkOwnAnswers(ours, groupId, apiKey);
    log(
      `count answers ${own.countBody}; wordcloud answers ${own.words} words ` +
        `(speakersNeeded ${own.speakersNeeded}).`,
    );
    speakersNeeded = own.speakersNeeded;

    ourProcess.resetLineCount();
    const headers = { 'x-api-key': apiKey };
    const order = [
      targets.referenceMhci,
      targets.oursMhci,
      targets.oursMhciAccuracy,
      targets.count,
      targets.wordcloud,
      targets.wordcloudAccuracy,
    ];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of order) {
        const url =
          `${target.server.baseUrl}/metrics/groups/${groupId}/${target.metric}${QUERY}` +
          (target.query ?? '');
        const figures = await measure(url, { headers, connections: CONNECTIONS });
        target.rounds.push(figures);
        log(
          `  round ${round} ${target.label.padEnd(30)} ${fmt.rps(figures.requestsPerSec)} req/s, ` +
            `p50 ${fmt.ms(figures.latencyP50)}, p99 ${fmt.ms(figures.latencyP99)}`,
        );
      }
    }
    ours.logLines = ourProcess.lineCount();
  } finally {
    await Promise.all([stopProcess(ourProcess), stopProcess(referenceProcess)]);
  }

  for (const target of Object.values(targets)) {
    target.requestsPerSec = median(target.rounds.map((r) => r.requestsPerSec));
    target.latencyP50 = median(target.rounds.map((r) => r.latencyP50));
    target.latencyP99 = median(target.rounds.map((r) => r.latencyP99));
  }
  const mhciRatio = targets.oursMhci.latencyP50 / targets.referenceMhci.latencyP50;
  const accuracyRatio = targets.oursMhciAccuracy.latencyP50 / targets.referenceMhci.latencyP50;
  const absolute = (target, ms) => ({
    title: `GET …/${target.metric}${target.query ? '?accuracy=true' : ''} p50 ≤ ${ms} ms (1M sessions; "ours" = ${target.metric}${target.query ? ' with accuracy' : ''}, "reference" = the raw mhci query; ratio = p50 ÷ ${ms} ms)`,
    ours: target,
    reference: targets.referenceMhci,
    ratio: target.latencyP50 / ms,
    target: 1,
    targetLabel: '≤ 1',
    meetsTarget: target.latencyP50 <= ms,
  });
  const rows = [
    {
      title: `GET /metrics/groups/{id}/mhci, ours vs reference (1M sessions; ratio = p50 latency ours ÷ reference)`,
      ours: targets.oursMhci,
      reference: targets.referenceMhci,
      ratio: mhciRatio,
      target: MHCI_TARGET,
      targetLabel: `≤ ${MHCI_TARGET}`,
      meetsTarget: mhciRatio <= MHCI_TARGET,
    },
    absolute(targets.oursMhci, MHCI_MS),
    {
      title: `GET /metrics/groups/{id}/mhci?accuracy=true, ours vs reference (1M sessions; ratio = p50 latency ours ÷ reference)`,
      ours: targets.oursMhciAccuracy,
      reference: targets.referenceMhci,
      ratio: accuracyRatio,
      target: MHCI_TARGET,
      targetLabel: `≤ ${MHCI_TARGET}`,
      meetsTarget: accuracyRatio <= MHCI_TARGET,
    },
    absolute(targets.oursMhciAccuracy, MHCI_MS),
    absolute(targets.wordcloud, WORDCLOUD_MS),
    absolute(targets.wordcloudAccuracy, WORDCLOUD_MS),
    absolute(targets.count, COUNT_MS),
  ];
  const result = {
    id: 'metrics',
    title: `Group metrics over ${SESSIONS.toLocaleString('en-US')} sessions`,
    rows,
    meetsTarget: rows.every((row) => row.meetsTarget),
    targets,
    seed,
    plans,
    mhciBody,
    settings: {
      connections: CONNECTIONS,
      durationSeconds: DEFAULTS.durationSeconds,
      warmupSeconds: DEFAULTS.warmupSeconds,
      rounds: ROUNDS,
    },
    notes: [
      seed.seeded
        ? `Seeding took ${seed.seconds.toFixed(1)} s (10,000 participants, 1,000,000 sessions, ` +
          `12 released monthly windows with their scores and words releases (60 words each) ` +
          `and the ledger, VACUUM ANALYZE).`
        : `Data already seeded; the check and VACUUM ANALYZE took ${seed.seconds.toFixed(1)} s.`,
      `mhci answered \`${mhciBody.ours}\` (12 monthly releases at the default budget, ε_year ` +
        `24); the raw query \`${mhciBody.reference}\`. With \`?accuracy=true\`: the same value, ` +
        `${mhciBody.accuracy.participants.toLocaleString('en-US')} participant-months in ` +
        `${mhciBody.accuracy.windows} windows, margin ±${mhciBody.accuracy.margin}, ` +
        `budgetShare ${mhciBody.accuracy.budgetShare}, ε ${mhciBody.accuracy.epsilon}; the ` +
        `wordcloud's speakersNeeded ${speakersNeeded}.`,
      `Plan of count: ${planSummary(plans.count)}.`,
      ...Object.keys(plans)
        .filter((name) => name.startsWith('mhci'))
        .map(
          (name) =>
            `Plan of ${name} (the service's read of releases): ${planSummary(plans[name])}.`,
        ),
      `Plan of the reference's raw mhci: ${planSummary(plans.rawMhci)}.`,
      'The reference scans the sessions (the benchmark group owns every row, so the planner may ' +
        "prefer a sequential scan to the covering index); ours reads the group's 365 day counts " +
        "(for the answer's periods), the 12 windows with their releases, and no legacy cells.",
    ],
  };
  if (ours.logLines > 0) {
    result.notes.push(
      `The service wrote ${ours.logLines} output lines while being measured (LOG_LEVEL=warn).`,
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
  const ratioLine = (label, row) => [
    label,
    `${fmt.ratio(row.ratio)} (target ${row.targetLabel})`,
    '',
    '',
    row.meetsTarget ? 'ok' : 'BELOW TARGET',
  ];
  return markdownTable(
    ['', 'req/s (median)', 'p50', 'p99', 'rounds req/s / p50'],
    [
      line(targets.referenceMhci),
      line(targets.oursMhci),
      ratioLine('mhci p50 ours ÷ reference', result.rows[0]),
      ratioLine(`mhci p50 ÷ ${MHCI_MS} ms`, result.rows[1]),
      line(targets.oursMhciAccuracy),
      ratioLine('mhci?accuracy=true p50 ours ÷ reference', result.rows[2]),
      ratioLine(`mhci?accuracy=true p50 ÷ ${MHCI_MS} ms`, result.rows[3]),
      line(targets.count),
      ratioLine(`count p50 ÷ ${COUNT_MS} ms`, result.rows[6]),
      line(targets.wordcloud),
      ratioLine(`wordcloud p50 ÷ ${WORDCLOUD_MS} ms`, result.rows[4]),
      line(targets.wordcloudAccuracy),
      ratioLine(`wordcloud?accuracy=true p50 ÷ ${WORDCLOUD_MS} ms`, result.rows[5]),
    ],
  );
}

module.exports = { id: 'metrics', run, formatTable };

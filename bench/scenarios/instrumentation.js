'use strict';

/**
 * What the operations instrumentation costs (docs/operations.md): the built service with its
 * operations port on (the default: request-duration histogram, the process's metrics served on
 * OPS_PORT and scraped every BENCH_SCRAPE_MS while measured, default every second — far more
 * often than a Prometheus would, 15 to 60 s) against
 * the same build with OPS_PORT=0 (no instrumentation at all), on the same database, in the same
 * run, for GET /groups (100 groups) and GET /sessions/{id} (100,000 sessions, level 5).
 *
 * Both servers are ours, so the noise of the machine is the enemy: the two are measured in pairs
 * (on then off, then off then on, …), and the cost is the median of the pairs' ratios, each pair
 * measured seconds apart. Target: instrumentation costs at most 3 % (ratio on ÷ off ≥ 0.97).
 */

const {
  DEFAULTS,
  freePort,
  httpRequest,
  startProcess,
  stopProcess,
  measure,
  median,
  throughputFmt,
  ourServiceOptions,
} = require('../lib');
const { seedGroups } = require('../seed');
const sessionsScenario = require('./sessions');

const PAIRS = Number(process.env.BENCH_PAIRS) > 0 ? Number(process.env.BENCH_PAIRS) : 11;
/** How often the instrumented service's /metrics is scraped while measured (Prometheus: 15–60 s). */
const SCRAPE_MS =
  Number(process.env.BENCH_SCRAPE_MS) > 0 ? Number(process.env.BENCH_SCRAPE_MS) : 1_000;
/** Instrumentation may cost at most 3 % of the throughput. */
const TARGET_RATIO = 0.97;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';

const fmt = throughputFmt;

/** Scrapes `url` every `everyMs` until stopped; counts the scrapes. */
function scraper(url, everyMs) {
  let scrapes = 0;
  let failures = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const answer = await httpRequest(url);
        if (answer.status === 200) scrapes += 1;
        else failures += 1;
      } catch {
        failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return { scrapes, failures };
    },
  };
}

/** Measures `on` and `off` PAIRS times, alternating which goes first; the pairs' ratios. */
async function pairs({ on, off, url, options, log, what, count = PAIRS }) {
  const rounds = [];
  for (let pair = 0; pair < count; pair++) {
    const order = pair % 2 === 0 ? [on, off] : [off, on];
    const figures = {};
    for (const target of order) {
      const scrape = target.opsUrl ? scraper(`${target.opsUrl}/metrics`, SCRAPE_MS) : null;
      figures[target.name] = await measure(url(target), options);
      if (scrape) {
        const { scrapes, failures } = await scrape.stop();
        if (failures > 0)
          throw new Error(`${what}: ${failures} failed scrapes of ${target.opsUrl}`);
        target.scrapes = (target.scrapes ?? 0) + scrapes;
      }
    }
    const ratio = figures.on.requestsPerSec / figures.off.requestsPerSec;
    rounds.push({ on: figures.on, off: figures.off, ratio });
    log(
      `  ${what} pair ${pair + 1}: on ${fmt.rps(figures.on.requestsPerSec)} req/s ` +
        `(p50 ${fmt.ms(figures.on.latencyP50)}), off ${fmt.rps(figures.off.requestsPerSec)} req/s ` +
        `(p50 ${fmt.ms(figures.off.latencyP50)}), ratio ${ratio.toFixed(3)}`,
    );
  }
  return rounds;
}

function row(title, rounds, target = TARGET_RATIO) {
  const on = {
    requestsPerSec: median(rounds.map((r) => r.on.requestsPerSec)),
    latencyP50: median(rounds.map((r) => r.on.latencyP50)),
    latencyP99: median(rounds.map((r) => r.on.latencyP99)),
  };
  const off = {
    requestsPerSec: median(rounds.map((r) => r.off.requestsPerSec)),
    latencyP50: median(rounds.map((r) => r.off.latencyP50)),
    latencyP99: median(rounds.map((r) => r.off.latencyP99)),
  };
  const ratio = median(rounds.map((r) => r.ratio));
  return {
    title: `${title}: instrumentation on ("ours") vs off ("reference"); ratio = median of ${rounds.length} paired ratios`,
    ours: on,
    reference: off,
    ratio,
    target,
    meetsTarget: ratio >= target,
    rounds,
  };
}

function formatTable(result) {
  const lines = [
    '| Route | pair | on req/s | off req/s | on ÷ off | on p50 / p99 | off p50 / p99 |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const measured of result.rows) {
    measured.rounds.forEach((round, i) => {
      lines.push(
        `| ${i === 0 ? measured.route : ''} | ${i + 1} | ${fmt.rps(round.on.requestsPerSec)} | ` +
          `${fmt.rps(round.off.requestsPerSec)} | ${round.ratio.toFixed(3)} | ` +
          `${fmt.ms(round.on.latencyP50)} / ${fmt.ms(round.on.latencyP99)} | ` +
          `${fmt.ms(round.off.latencyP50)} / ${fmt.ms(round.off.latencyP99)} |`,
      );
    });
    lines.push(
      `| ${measured.route} | **median** | ${fmt.rps(measured.ours.requestsPerSec)} | ` +
        `${fmt.rps(measured.reference.requestsPerSec)} | **${measured.ratio.toFixed(3)}** ` +
        `(cost ${((1 - measured.ratio) * 100).toFixed(1)} %, target ≤ 3 %) | | |`,
    );
  }
  return lines.join('\n');
}

async function run({ log = console.log } = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  const [onPort, offPort, opsPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const env = { ...sessionsScenario.SHARED_ENV };
  const onOptions = ourServiceOptions({
    port: onPort,
    opsPort,
    databaseUrl,
    env: { ...env, OPS_PORT: String(opsPort), OPS_HOST: '127.0.0.1' },
  });
  onOptions.name = 'service (instrumentation on)';
  const offOptions = ourServiceOptions({
    port: offPort,
    databaseUrl,
    env: { ...env, OPS_PORT: '0' },
  });
  offOptions.name = 'service (OPS_PORT=0)';

  log('Seeding 100 groups and the sessions data …');
  const { apiKey: groupsKey } = await seedGroups({ databaseUrl, groups: 100 });
  const seed = await sessionsScenario.seedSessionsData({
    databaseUrl,
    serviceEnv: onOptions.env,
    log,
  });
  const order = sessionsScenario.shuffled(seed.sessionIds, 0x696e73); // "ins"
  const requests = sessionsScenario.sessionRequests(order);

  const on = {
    name: 'on',
    baseUrl: `http://127.0.0.1:${onPort}`,
    opsUrl: `http://127.0.0.1:${opsPort}`,
  };
  const off = { name: 'off', baseUrl: `http://127.0.0.1:${offPort}`, opsUrl: null };
  let processes = [];
  let groupsRounds;
  let sessionsRounds;
  try {
    log('Starting the service twice: operations port on, and OPS_PORT=0 …');
    const started = await Promise.allSettled([startProcess(onOptions), startProcess(offOptions)]);
    processes = started.filter((s) => s.status === 'fulfilled').map((s) => s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const metrics = await httpRequest(`${on.opsUrl}/metrics`);
    if (metrics.status !== 200) throw new Error(`${on.opsUrl}/metrics answered ${metrics.status}`);
    const closed = await httpRequest(`${off.baseUrl}/livez`);
    if (closed.status !== 404) throw new Error(`/livez on the API port answered ${closed.status}`);

    for (const target of [on, off]) {
      const answer = await httpRequest(`${target.baseUrl}/groups`, {
        headers: { 'x-api-key': groupsKey },
      });
      if (answer.status !== 200) throw new Error(`${target.name}: GET /groups ${answer.status}`);
    }
    groupsRounds = await pairs({
      on,
      off,
      url: (target) => `${target.baseUrl}/groups`,
      options: { headers: { 'x-api-key': groupsKey } },
      log,
      what: 'GET /groups',
    });
    sessionsRounds = await pairs({
      on,
      off,
      url: (target) => target.baseUrl,
      options: { headers: { 'x-api-key': seed.apiKey }, requests },
      log,
      what: 'GET /sessions/{id}',
    });
  } finally {
    await Promise.all(processes.map((handle) => stopProcess(handle)));
  }

  const rows = [
    { ...row('GET /groups (100 groups)', groupsRounds), route: 'GET /groups' },
    {
      ...row('GET /sessions/{id} (100,000 sessions, level 5)', sessionsRounds),
      route: 'GET /sessions/{id}',
    },
  ];
  const result = {
    id: 'instrumentation',
    title: 'Cost of the operations instrumentation (OPS_PORT on vs 0)',
    rows,
    ratio: Math.min(...rows.map((r) => r.ratio)),
    meetsTarget: rows.every((r) => r.meetsTarget),
    notes: [
      `${PAIRS} pairs per route, each measuring both servers back to back in alternating order ` +
        `(on first in odd pairs, off first in even ones); autocannon ${DEFAULTS.connections} ` +
        `connections, ${DEFAULTS.durationSeconds} s measured after a ${DEFAULTS.warmupSeconds} s ` +
        'warm-up that is discarded. Both servers are the same build on the same database; the ' +
        'one with OPS_PORT=0 installs no instrumentation at all.',
      `The instrumented service's /metrics was scraped every ${SCRAPE_MS / 1000} s while it was ` +
        `measured (${on.scrapes} scrapes in all; a Prometheus scrapes every 15 to 60 s).`,
    ],
  };
  log('');
  log(formatTable(result));
  return result;
}

module.exports = { id: 'instrumentation', run, formatTable, pairs, row };

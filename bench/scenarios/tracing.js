'use strict';

/**
 * What OpenTelemetry tracing costs when an operator turns it on (docs/operations.md, "Traces"):
 * the built service with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP sink (a node:http
 * server in this process that counts and drops what it receives) against the same build without
 * it, both with the operations port on, for GET /groups and GET /sessions/{id}: every trace
 * sampled, and a tenth (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ARG=0.1). For information:
 * tracing is off by default and has no target; the operations instrumentation's own cost is
 * scenarios/instrumentation.js.
 */

const http = require('node:http');
const {
  freePort,
  startProcess,
  stopProcess,
  median,
  throughputFmt,
  ourServiceOptions,
} = require('../lib');
const { seedGroups } = require('../seed');
const sessionsScenario = require('./sessions');
const { pairs } = require('./instrumentation');

const PAIRS = Number(process.env.BENCH_PAIRS) > 0 ? Number(process.env.BENCH_PAIRS) : 3;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';
const fmt = throughputFmt;

/** An OTLP/HTTP receiver that answers 200 and counts requests and bytes. */
async function startSink() {
  const port = await freePort();
  const received = { requests: 0, bytes: 0 };
  const server = http.createServer((request, response) => {
    request.on('data', (chunk) => (received.bytes += chunk.length));
    request.on('end', () => {
      received.requests += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' });
      response.end();
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function run({ log = console.log } = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  const sink = await startSink();
  const ports = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  const env = { ...sessionsScenario.SHARED_ENV };
  const service = (name, port, opsPort, extra) => {
    const options = ourServiceOptions({ port, opsPort, databaseUrl, env: { ...env, ...extra } });
    options.name = name;
    return options;
  };
  const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url };
  const servers = {
    all: service('service (traced, every trace)', ports[0], ports[1], traced),
    tenth: service('service (traced, a tenth sampled)', ports[2], ports[3], {
      ...traced,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    }),
    off: service('service (not traced)', ports[4], ports[5], {}),
  };

  log('Seeding 100 groups and the sessions data …');
  const { apiKey: groupsKey } = await seedGroups({ databaseUrl, groups: 100 });
  const seed = await sessionsScenario.seedSessionsData({
    databaseUrl,
    serviceEnv: servers.off.env,
    log,
  });
  const order = sessionsScenario.shuffled(seed.sessionIds, 0x747263); // "trc"
  const requests = sessionsScenario.sessionRequests(order);
  const routes = [
    {
      route: 'GET /groups',
      url: (target) => `${target.baseUrl}/groups`,
      options: { headers: { 'x-api-key': groupsKey } },
    },
    {
      route: 'GET /sessions/{id}',
      url: (target) => target.baseUrl,
      options: { headers: { 'x-api-key': seed.apiKey }, requests },
    },
  ];

  const target = (name, options) => ({
    name,
    baseUrl: `http://127.0.0.1:${options.env.PORT}`,
    opsUrl: null,
  });
  let processes = [];
  const rows = [];
  try {
    log('Starting the service three times: traced (all), traced (a tenth), not traced …');
    const started = await Promise.allSettled(Object.values(servers).map((o) => startProcess(o)));
    processes = started.filter((s) => s.status === 'fulfilled').map((s) => s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const off = target('off', servers.off);
    for (const [sampling, options] of [
      ['every trace', servers.all],
      ['a tenth of the traces', servers.tenth],
    ]) {
      const on = target('on', options);
      for (const { route, url, options: requestOptions } of routes) {
        const rounds = await pairs({
          on,
          off,
          url,
          options: requestOptions,
          log,
          what: `${route}, ${sampling}`,
          count: PAIRS,
        });
        rows.push({ route, sampling, rounds });
      }
    }
  } finally {
    await Promise.all(processes.map((handle) => stopProcess(handle)));
    await sink.close();
  }
  if (sink.received.requests === 0) throw new Error('the OTLP sink received nothing');

  const summary = rows.map((measured) => {
    const ratio = median(measured.rounds.map((r) => r.ratio));
    return {
      ...measured,
      title: `${measured.route}, traced (${measured.sampling}) vs not traced (for information); ratio = median of ${measured.rounds.length} paired ratios`,
      ours: {
        requestsPerSec: median(measured.rounds.map((r) => r.on.requestsPerSec)),
        latencyP50: median(measured.rounds.map((r) => r.on.latencyP50)),
        latencyP99: median(measured.rounds.map((r) => r.on.latencyP99)),
      },
      reference: {
        requestsPerSec: median(measured.rounds.map((r) => r.off.requestsPerSec)),
        latencyP50: median(measured.rounds.map((r) => r.off.latencyP50)),
        latencyP99: median(measured.rounds.map((r) => r.off.latencyP99)),
      },
      ratio,
      targetLabel: '—',
      meetsTarget: true,
    };
  });
  const result = {
    id: 'tracing',
    title: 'Cost of OpenTelemetry tracing when turned on (for information)',
    rows: summary,
    ratio: Math.min(...summary.map((r) => r.ratio)),
    meetsTarget: true,
    notes: [
      `${PAIRS} pairs per route and sampling, each measuring both servers back to back in ` +
        'alternating order; both have the operations port on. The traced servers export ' +
        `OTLP/HTTP protobuf to a local sink in the bench process (${sink.received.requests} ` +
        `export requests, ${(sink.received.bytes / 1e6).toFixed(1)} MB in all).`,
    ],
  };
  log('');
  log(formatTable(result));
  return result;
}

function formatTable(result) {
  const lines = [
    '| Route | sampled | traced req/s | not traced req/s | traced ÷ not | traced p50 / p99 | not traced p50 / p99 |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of result.rows) {
    lines.push(
      `| ${row.route} | ${row.sampling} | ${fmt.rps(row.ours.requestsPerSec)} | ` +
        `${fmt.rps(row.reference.requestsPerSec)} | **${row.ratio.toFixed(2)}** ` +
        `(pairs: ${row.rounds.map((r) => r.ratio.toFixed(2)).join(', ')}) | ` +
        `${fmt.ms(row.ours.latencyP50)} / ${fmt.ms(row.ours.latencyP99)} | ` +
        `${fmt.ms(row.reference.latencyP50)} / ${fmt.ms(row.reference.latencyP99)} |`,
    );
  }
  return lines.join('\n');
}

module.exports = { id: 'tracing', run, formatTable };

'use strict';

/**
 * CPU profile of one route of the built service under the benchmark's load, and its top frames.
 *
 *   npm run build && node bench/profile.js sessions|groups|session-create [--reference] [--seconds 15] [--out dir]
 *
 * `--cpu-only` runs without the profiler and prints only the req/s and the process's CPU time per
 * request (from /proc). `--reference` profiles the route's bare reference server (bench/reference/) instead.
 * Starts `node --cpu-prof dist/main.js` with the benchmark's production settings (bench/lib.js
 * ourServiceOptions: rate limit on, operations port on) on the benchmark database, seeded as the
 * scenario seeds it, drives autocannon (50 connections, 3 s warm-up, then `--seconds`) and stops it
 * with SIGTERM, so V8 writes the profile. Prints the top frames by self time, and the same time
 * grouped by where the code lives (our src, a package, Node's internals, GC), and writes the
 * profile (`.cpuprofile`, opens in Chrome DevTools) and the summary (`.txt`) to `--out`
 * (default: $TMPDIR/checkin-profiles). docs/performance.md quotes these summaries, before and after
 * each change (its "Where the time goes" section).
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const {
  cpuSeconds,
  freePort,
  ourServiceOptions,
  startProcess,
  stopProcess,
  ROOT,
} = require('./lib');
const { seedGroups } = require('./seed');
const {
  SHARED_ENV,
  seedSessionsData,
  sessionOrder,
  sessionRequests,
} = require('./scenarios/sessions');
const { createRequests } = require('./scenarios/session-create');

/** The reference server of each route (`--reference` profiles it instead of the service). */
const REFERENCES = {
  sessions: 'sessions-server.js',
  'session-create': 'sessions-server.js',
  groups: 'groups-server.js',
};

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
}

/** autocannon's `requests` and headers for each route, from the scenario's seed. */
async function workload(route, { databaseUrl, serviceEnv }) {
  const log = () => undefined;
  if (route === 'groups') {
    const { apiKey } = await seedGroups({ databaseUrl, groups: 100 });
    return { headers: { 'x-api-key': apiKey }, requests: [{ method: 'GET', path: '/groups' }] };
  }
  const seed = await seedSessionsData({ databaseUrl, serviceEnv, log });
  if (route === 'sessions') {
    const requests = sessionRequests(sessionOrder(seed.sessionIds));
    return { headers: { 'x-api-key': seed.apiKey }, requests: requests() };
  }
  if (route === 'session-create') {
    return {
      headers: { 'x-api-key': seed.apiKey, 'content-type': 'application/json' },
      requests: createRequests(seed.members)(),
    };
  }
  throw new Error(`unknown route ${route}: sessions, groups or session-create`);
}

/** CPU time (user + system) the process has used, in µs, from /proc (Linux). */
const cpuMicros = (pid) => cpuSeconds(pid) * 1e6;

function load(url, { headers, requests }, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 50, duration: seconds, headers, requests }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** Where a frame's code lives: our src, a package (by name), Node's own, or V8's pseudo-frames. */
function place(frame) {
  const url = frame.url || '';
  if (!url) return frame.functionName ? `(${frame.functionName})` : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? `src/${url.slice(dist + 6).split('/')[0]}` : url;
}

/**
 * The frames' self time over the samples taken in [fromMs, toMs] after the profile started (the
 * measured load only: not start-up, warm-up or shutdown).
 */
function summarise(profile, { fromMs, toMs }, top = 40) {
  const self = new Map();
  const byPlace = new Map();
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const deltas = profile.timeDeltas;
  let total = 0;
  let clock = 0;
  profile.samples.forEach((id, i) => {
    const node = nodes.get(id);
    const micros = deltas[i] ?? 0;
    clock += micros;
    if (clock < fromMs * 1000 || clock > toMs * 1000) return;
    total += micros;
    const frame = node.callFrame;
    const file = frame.url ? frame.url.replace(/^.*\/(node_modules|dist)\//, '$1/') : '';
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + micros);
    const where = place(frame);
    byPlace.set(where, (byPlace.get(where) ?? 0) + micros);
  });
  const percent = (micros) => `${((100 * micros) / total).toFixed(1).padStart(5)} %`;
  const lines = [];
  const busy = total - (byPlace.get('(idle)') ?? 0);
  lines.push(
    `${(total / 1e6).toFixed(1)} s of samples under load (${fromMs}–${toMs} ms after the ` +
      `process started), busy ${percent(busy)}`,
  );
  lines.push('', 'Top frames by self time (% of all samples):');
  for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`  ${percent(micros)}  ${key}`);
  }
  lines.push('', 'Self time by where the code lives:');
  for (const [where, micros] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`  ${percent(micros)}  ${where}`);
  }
  return lines.join('\n');
}

async function main() {
  const route = process.argv[2];
  const reference = process.argv.includes('--reference');
  const withProfile = !process.argv.includes('--cpu-only');
  const seconds = Number(option('seconds', '15'));
  const out = path.resolve(option('out', path.join(os.tmpdir(), 'checkin-profiles')));
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  const [port, opsPort] = await Promise.all([freePort(), freePort()]);
  // No drain on SIGTERM: the profile is written when the process exits.
  const options = ourServiceOptions({
    port,
    opsPort,
    databaseUrl,
    env: { ...SHARED_ENV, SHUTDOWN_DRAIN_MS: '0' },
  });
  const work = await workload(route, { databaseUrl, serviceEnv: options.env });

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'checkin-cpu-prof-'));
  const profiled = withProfile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const spawnedAt = Date.now();
  const service = await startProcess(
    reference
      ? {
          name: 'reference server',
          command: process.execPath,
          args: [
            ...profiled,
            path.join(__dirname, 'reference', REFERENCES[route]),
            '--port',
            String(port),
          ],
          env: {
            ...process.env,
            ...SHARED_ENV,
            HOST: '127.0.0.1',
            DATABASE_URL: databaseUrl,
            CHECKIN_TOKEN_SECRET: options.env.CHECKIN_TOKEN_SECRET,
            DATA_ENCRYPTION_KEY: options.env.DATA_ENCRYPTION_KEY,
          },
          readyUrl: `http://127.0.0.1:${port}/health`,
          timeoutMs: 30_000,
        }
      : { ...options, args: [...profiled, path.join(ROOT, 'dist', 'main.js')] },
  );
  const url = `http://127.0.0.1:${port}`;
  let result;
  const window = {};
  try {
    await load(url, work, 3);
    window.fromMs = Date.now() - spawnedAt;
    const cpuBefore = cpuMicros(service.child.pid);
    result = await load(url, work, seconds);
    window.toMs = Date.now() - spawnedAt;
    window.cpuPerRequest = (cpuMicros(service.child.pid) - cpuBefore) / result.requests.total;
  } finally {
    await stopProcess(service, 90_000);
  }
  const exit = await service.exited;
  const headline =
    `${route}${reference ? ' (reference)' : ''}: ${Math.round(result.requests.average)} req/s` +
    `${withProfile ? ' under the profiler' : ''}, ${Math.round(window.cpuPerRequest)} µs of the ` +
    `process's CPU per request, ${result.non2xx} non-2xx, ${result.errors} errors`;
  if (!withProfile) {
    console.log(headline);
    return;
  }
  const [file] = fs.readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
  if (!file)
    throw new Error(
      `the service wrote no profile into ${profileDir} (exit ${JSON.stringify(exit)}):\n${service.output().slice(-10).join('\n')}`,
    );
  fs.mkdirSync(out, { recursive: true });
  const base = path.join(out, `${route}${reference ? '-reference' : ''}-${stamp}`);
  fs.renameSync(path.join(profileDir, file), `${base}.cpuprofile`);
  fs.rmSync(profileDir, { recursive: true, force: true });
  const profile = JSON.parse(fs.readFileSync(`${base}.cpuprofile`, 'utf8'));
  const summary = `${headline}\n${summarise(profile, window)}`;
  fs.writeFileSync(`${base}.txt`, `${summary}\n`);
  console.log(summary);
  console.log(`\nprofile: ${base}.cpuprofile`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

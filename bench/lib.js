'use strict';

/** Shared benchmark plumbing: child processes, HTTP probes, autocannon, RESULTS.md. */

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { Buffer } = require('node:buffer');
const timers = require('node:timers');
const { setTimeout: sleep } = require('node:timers/promises');
const autocannon = require('autocannon');

const ROOT = path.join(__dirname, '..');
const RESULTS_FILE = path.join(__dirname, 'RESULTS.md');

/**
 * The Node.js options the production image runs every process with (its Dockerfile's
 * `ENV NODE_OPTIONS=…`). Every server the benchmarks start, ours and the references alike, runs
 * with them: the processes inherit this process's environment, so they are set here, in front of
 * any NODE_OPTIONS given to the benchmark.
 */
const IMAGE_NODE_OPTIONS = (() => {
  const match = /^ENV NODE_OPTIONS=(\S+)$/m.exec(
    fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'),
  );
  return match ? match[1] : '';
})();
process.env.NODE_OPTIONS = [IMAGE_NODE_OPTIONS, process.env.NODE_OPTIONS].filter(Boolean).join(' ');

const DEFAULTS = {
  connections: 50,
  durationSeconds: positiveNumber(process.env.BENCH_DURATION, 10),
  warmupSeconds: 3,
};

function positiveNumber(value, fallback) {
  const number = Number(value);
  return value !== undefined && value !== '' && number > 0 ? number : fallback;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * One HTTP request (sending `body`, a string or Buffer, when given); resolves
 * { status, headers, body (Buffer) }.
 */
function httpRequest(url, { method = 'GET', headers = {}, body, timeoutMs = 5_000 } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, timeout: timeoutMs }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** Children still running, so an error or Ctrl-C never leaves a server behind. */
const children = new Set();

/**
 * Starts `command args` and resolves once `readyUrl` answers with a status below 500, after one
 * request to `pageViewUrl` when given (ourServiceOptions: a participant page). Rejects, with the
 * child's last output, when it exits first or does not answer within `timeoutMs`. The returned
 * handle keeps the child's output lines (`handle.output()`).
 */
async function startProcess({
  name,
  command,
  args = [],
  env,
  cwd = ROOT,
  readyUrl,
  timeoutMs,
  pageViewUrl,
}) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  let lineCount = 0;
  const collect = (chunk) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line === '') continue;
      lineCount += 1;
      lines.push(line);
      if (lines.length > 200) lines.shift();
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let exitInfo = null;
  exited.then((info) => {
    exitInfo = info;
    children.delete(handle);
  });

  const handle = {
    name,
    child,
    exited,
    output: () => lines.slice(),
    lineCount: () => lineCount,
    resetLineCount: () => {
      lineCount = 0;
    },
  };
  children.add(handle);

  const describe = () => {
    const tail = lines.slice(-20).join('\n  ');
    return tail ? `\n  ${tail}` : ' (no output)';
  };
  const deadline = Date.now() + (timeoutMs ?? 60_000);
  for (;;) {
    if (exitInfo) {
      const how = exitInfo.signal ? `signal ${exitInfo.signal}` : `code ${exitInfo.code}`;
      throw new Error(`${name} exited during start-up (${how}):${describe()}`);
    }
    try {
      const response = await httpRequest(readyUrl, { timeoutMs: 1_000 });
      if (response.status < 500) {
        if (pageViewUrl) await viewPage(pageViewUrl, name);
        return handle;
      }
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stopProcess(handle);
      throw new Error(
        `${name} did not answer ${readyUrl} within ${timeoutMs ?? 60_000} ms:${describe()}`,
      );
    }
    await sleep(200);
  }
}

/** One participant page request; any answer but a 5xx will do (a 404 page is a page too). */
async function viewPage(url, name) {
  const response = await httpRequest(url, { timeoutMs: 10_000 });
  if (response.status >= 500) throw new Error(`${name}: ${url} answered ${response.status}`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
async function stopProcess(handle, graceMs = 5_000) {
  if (!handle) return;
  const { child } = handle;
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = timers.setTimeout(() => child.kill('SIGKILL'), graceMs);
    timer.unref();
    await handle.exited;
    timers.clearTimeout(timer);
  }
  children.delete(handle);
}

async function stopAll() {
  await Promise.all([...children].map((handle) => stopProcess(handle)));
}

function runAutocannonOnce(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Loads `url` with autocannon: a `warmupSeconds` run that is thrown away, then the measured run.
 * Fails when any request errored, timed out or answered non-2xx (a fast 401 is no result).
 * `requests`, when given, is a function returning autocannon's `requests` array (e.g. one request
 * whose `setupRequest` picks the next id of a list); it is called once per measure(), so each
 * measurement starts the same sequence and its measured run continues where the warm-up stopped.
 */
async function measure(
  url,
  { headers = {}, connections, durationSeconds, warmupSeconds, requests } = {},
) {
  const base = {
    url,
    headers,
    connections: connections ?? DEFAULTS.connections,
    pipelining: 1,
    ...(requests ? { requests: requests() } : {}),
  };
  const warmup = warmupSeconds ?? DEFAULTS.warmupSeconds;
  if (warmup > 0) await runAutocannonOnce({ ...base, duration: warmup });
  const result = await runAutocannonOnce({
    ...base,
    duration: durationSeconds ?? DEFAULTS.durationSeconds,
  });
  const failures = result.errors + result.timeouts + result.non2xx;
  if (failures > 0) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx ` +
        `answers out of ${result.requests.total} requests`,
    );
  }
  return {
    requestsPerSec: result.requests.average,
    requestsTotal: result.requests.total,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    latencyAvg: result.latency.average,
    throughputBytesPerSec: result.throughput.average,
  };
}

/** autocannon's result → the figures measure() reports, plus the count of 2xx answers. */
function figuresOf(result) {
  return {
    requestsPerSec: result.requests.average,
    requestsTotal: result.requests.total,
    responses2xx: result['2xx'],
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    latencyAvg: result.latency.average,
    throughputBytesPerSec: result.throughput.average,
  };
}

/**
 * One autocannon run with any autocannon options (`requests` with `setupRequest`, `method`,
 * `body`, `amount` …), no warm-up: for scenarios where every request differs (a different
 * session each time). Fails, like measure(), when any request errored, timed out or answered
 * non-2xx.
 */
async function measureOnce(options) {
  const result = await runAutocannonOnce({
    connections: DEFAULTS.connections,
    pipelining: 1,
    duration: DEFAULTS.durationSeconds,
    ...options,
  });
  const failures = result.errors + result.timeouts + result.non2xx;
  if (failures > 0) {
    throw new Error(
      `${options.url}: ${result.errors} errors, ${result.timeouts} timeouts, ` +
        `${result.non2xx} non-2xx answers out of ${result.requests.total} requests`,
    );
  }
  return figuresOf(result);
}

/** The value at percentile `p` (0–100) of `values`, nearest rank; NaN when empty. */
function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/**
 * Starts a process that serves no HTTP (a queue worker). Resolves once a line of its output
 * matches `readyLine` (at once when none is given); rejects with its last output when it exits
 * first or `timeoutMs` passes. Tracked like startProcess(), so stopAll() ends it.
 */
async function startBackgroundProcess({
  name,
  command,
  args = [],
  env,
  cwd = ROOT,
  readyLine,
  timeoutMs = 60_000,
}) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  let lineCount = 0;
  let ready = !readyLine;
  const collect = (chunk) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line === '') continue;
      lineCount += 1;
      lines.push(line);
      if (lines.length > 200) lines.shift();
      if (!ready && readyLine.test(line)) ready = true;
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  let exitInfo = null;
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const handle = {
    name,
    child,
    exited,
    output: () => lines.slice(),
    lineCount: () => lineCount,
    resetLineCount: () => {
      lineCount = 0;
    },
  };
  exited.then((info) => {
    exitInfo = info;
    children.delete(handle);
  });
  children.add(handle);

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (ready) return handle;
    if (exitInfo) {
      const how = exitInfo.signal ? `signal ${exitInfo.signal}` : `code ${exitInfo.code}`;
      const tail = lines.slice(-20).join('\n  ');
      throw new Error(`${name} exited during start-up (${how}):${tail ? `\n  ${tail}` : ''}`);
    }
    if (Date.now() > deadline) {
      await stopProcess(handle);
      throw new Error(`${name} did not print ${readyLine} within ${timeoutMs} ms`);
    }
    await sleep(100);
  }
}

/** CPU seconds (user + system) a process has used so far (Linux /proc; NaN elsewhere or once it ended). */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
  } catch {
    return NaN;
  }
}

function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function machineInfo() {
  const cpus = os.cpus();
  return {
    cpu: cpus.length ? cpus[0].model.trim() : 'unknown',
    cores: cpus.length,
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg(),
    date: new Date().toISOString(),
  };
}

function formatMachine(machine = machineInfo()) {
  const loadAverage = machine.loadAverage.map((load) => load.toFixed(2)).join(' / ');
  return [
    `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB RAM`,
    `- OS: ${machine.platform}`,
    `- Node: ${machine.node}`,
    `- Load average before the run (1/5/15 min): ${loadAverage}`,
    `- Date: ${machine.date}`,
  ].join('\n');
}

/** A markdown table; `rows` are arrays of cells already formatted as strings. */
function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const RESULTS_TITLE = '# Benchmark results';

/**
 * Replaces the section `id` of RESULTS.md (between its marker comments) with `markdown`, or
 * appends it; creates the file when it does not exist.
 */
function updateResultsSection(id, markdown, file = RESULTS_FILE) {
  const start = `<!-- bench:${id}:start -->`;
  const end = `<!-- bench:${id}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `${RESULTS_TITLE}\n`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from >= 0 && to > from) {
    text = text.slice(0, from) + block + text.slice(to + end.length);
  } else {
    text = `${text.trimEnd()}\n\n${block}\n`;
  }
  fs.writeFileSync(file, text);
}

/**
 * startProcess() options for our built service (`node dist/main`) as the benchmarks run it:
 * production mode (so benchmark-only secrets), warn-level logs, no demo data.
 */
/** The service's data key in every benchmark (seeded databases are reused between runs). */
const BENCH_DATA_ENCRYPTION_KEY = 'be'.repeat(32);

function ourServiceOptions({
  port,
  opsPort,
  databaseUrl,
  env = {},
  rateLimit = process.env.BENCH_RATE_LIMIT === 'off' ? 'off' : 'on',
}) {
  if (env.OPS_PORT === undefined && !Number.isInteger(opsPort)) {
    throw new Error('ourServiceOptions needs an opsPort (or env.OPS_PORT)');
  }
  return {
    name: rateLimit === 'on' ? 'service (dist/main)' : 'service (dist/main, rate limit off)',
    command: process.execPath,
    args: [path.join(ROOT, 'dist', 'main.js')],
    // In production the API process serves the participant pages too: one page is viewed before
    // anything is measured. On Node 20 the pages' AsyncLocalStorage, once used, put promise hooks
    // on every later request of the process (docs/performance.md), a cost the benchmarks had not
    // seen while they only called the API.
    pageViewUrl: `http://127.0.0.1:${port}/checkin/`,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      // The operations port is on, as in production (docs/operations.md), on a port of its own:
      // several services run side by side here.
      OPS_PORT: env.OPS_PORT ?? String(opsPort),
      OPS_HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DEMO_BOOTSTRAP: 'false',
      // The per-key rate limit stays on (its cost, in-process counting settled with Redis in
      // batches, is part of what we measure), with a budget no run can spend.
      // `rateLimit: 'off'` (RATE_LIMIT_REQUESTS=0) measures what it costs: the read scenarios run
      // both, side by side; BENCH_RATE_LIMIT=off turns it off everywhere else.
      RATE_LIMIT_REQUESTS: rateLimit === 'off' ? '0' : '1000000000',
      // Likewise the limit per client address (every scenario, ingestion included, comes from
      // 127.0.0.1): on, so its Redis round trip on pages and ingestion is measured.
      PUBLIC_RATE_LIMIT_REQUESTS: '1000000000',
      // Benchmark-only values (seeded databases are reused between runs, so they must be stable).
      DATA_ENCRYPTION_KEY: BENCH_DATA_ENCRYPTION_KEY,
      CHECKIN_TOKEN_SECRET: 'bench-checkin-token-secret-0123456789',
      ENGINE_TOKEN: 'bench-engine-token-0123456789abcdefghij',
      // What production requires (docs/security.md); no mail is sent by the measured routes.
      PUBLIC_BASE_URL: env.PUBLIC_BASE_URL ?? 'https://checkin.bench.invalid',
      MAIL_TRANSPORT: 'file',
      MAIL_DIR: path.join(os.tmpdir(), 'checkin-bench-mail'),
      // autocannon connects directly: no proxy in front.
      TRUST_PROXY: 'none',
      OPERATOR_NAME: 'Bench operator',
      PRIVACY_NOTICE_URL: 'https://checkin.bench.invalid/privacy',
      EMAIL_FROM: 'Bench <no-reply@checkin.bench.invalid>',
      // The seeded results are dated 2025: retention (a worker sweep, not what is measured)
      // would otherwise remove most of their transcripts and features as the service starts.
      TRANSCRIPT_RETENTION_DAYS: '0',
    },
    readyUrl: `http://127.0.0.1:${port}/health`,
    timeoutMs: 60_000,
  };
}

/** Number formats of the req/s scenarios' tables and logs. */
const throughputFmt = {
  rps: (value) => Math.round(value).toLocaleString('en-US'),
  ms: (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`,
  ratio: (value) => value.toFixed(2),
};

/**
 * A req/s scenario's own table: both servers side by side (medians of the rounds, and each
 * round's req/s), then the ratio against its target.
 */
/**
 * A read scenario's table: our service with the per-key limit on (`result.ours`, the measured
 * configuration), with it off when measured (`result.oursLimitOff`), and the reference.
 */
function throughputTable(result) {
  const fmt = throughputFmt;
  const { ours, reference, oursLimitOff } = result;
  const row = (name, target) => [
    name,
    fmt.rps(target.requestsPerSec),
    fmt.ms(target.latencyP50),
    fmt.ms(target.latencyP99),
    target.rounds.map((r) => fmt.rps(r.requestsPerSec)).join(', '),
  ];
  const rows = [row(oursLimitOff ? 'ours, rate limit on' : 'ours', ours)];
  if (oursLimitOff) rows.push(row('ours, rate limit off', oursLimitOff));
  rows.push(row('reference', reference));
  rows.push([
    oursLimitOff ? 'ratio ours (limit on)/reference' : 'ratio ours/reference',
    `${fmt.ratio(result.ratio)} (target ≥ ${result.target})`,
    '',
    '',
    result.meetsTarget ? 'meets target' : 'BELOW TARGET',
  ]);
  if (oursLimitOff) {
    rows.push([
      'ratio ours (limit off)/reference',
      fmt.ratio(oursLimitOff.requestsPerSec / reference.requestsPerSec),
      '',
      '',
      'what the limit costs',
    ]);
  }
  return markdownTable(['', 'req/s (median)', 'p50', 'p99', 'rounds req/s'], rows);
}

/**
 * `items` rotated left by `by`: round r measures the servers in a different order, so that over
 * as many rounds as servers each is measured once in each position (the machine's state after the
 * previous measurement — caches, CPU frequency, PostgreSQL's background work — favours no one).
 */
const rotated = (items, by) => items.map((_, i) => items[(i + by) % items.length]);

/**
 * The summary rows of a read scenario measured with the per-key limit on (against its target) and
 * off (for information: the difference is what the limit costs).
 */
function rateLimitRows({ title, ours, oursLimitOff, reference, target }) {
  const ratio = ours.requestsPerSec / reference.requestsPerSec;
  return [
    {
      title: `${title}, per-key rate limit on`,
      ours,
      reference,
      ratio,
      target,
      meetsTarget: ratio >= target,
    },
    {
      title: `${title}, per-key rate limit off (what the limit costs)`,
      ours: oursLimitOff,
      reference,
      ratio: oursLimitOff.requestsPerSec / reference.requestsPerSec,
      targetLabel: '—',
      meetsTarget: true,
    },
  ];
}

module.exports = {
  BENCH_DATA_ENCRYPTION_KEY,
  ourServiceOptions,
  throughputFmt,
  throughputTable,
  rateLimitRows,
  rotated,
  ROOT,
  RESULTS_FILE,
  DEFAULTS,
  freePort,
  httpRequest,
  startProcess,
  stopProcess,
  stopAll,
  measure,
  measureOnce,
  median,
  cpuSeconds,
  percentile,
  startBackgroundProcess,
  machineInfo,
  formatMachine,
  markdownTable,
  updateResultsSection,
};

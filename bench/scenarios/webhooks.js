'use strict';

/**
 * Webhook deliveries (docs/webhooks.md, docs/performance.md), to a local receiver (a plain node:http server in this
 * process answering 200 at once), with the service split as in production: the API
 * (`node dist/main`, RUN_WORKERS=false) writes the events, one worker process (`node dist/worker`)
 * delivers them.
 *
 *  (a) Throughput: with the worker stopped, N `user.created` events are created through
 *      POST /session/create (new emails) as fast as the API takes them, so N deliveries wait in
 *      the outbox; then the worker starts and drains them. Ours = deliveries/s at the receiver,
 *      first receipt to last. Reference = bench/reference/webhook-post-loop.js, a bare POST loop
 *      with the worker's queue concurrency, the same body size and headers, to the same
 *      receiver. Ratio = ours ÷ reference, target ≥ 0.8; a keep-alive loop is reported beside it. Four rounds, the
 *      order alternating (references first, then ours first), medians.
 *  (b) Latency: with the worker running, events at a steady 200/s (open loop) for BENCH_DURATION
 *      seconds; for each, receipt time − the event's `created` timestamp (the envelope's, written
 *      by the transaction that committed it). p50 and p99; target p99 ≤ 50 ms.
 *
 * Loopback receivers are refused by the SSRF guard unless WEBHOOK_ALLOW_PRIVATE_URLS=true, which
 * production refuses: this scenario runs the service with NODE_ENV=development (benchmark secrets
 * still set, LOG_LEVEL=warn, no demo data). Every delivery's Standard Webhooks signature is
 * verified with the `standardwebhooks` package.
 */

const http = require('node:http');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Buffer } = require('node:buffer');
const { setTimeout: sleep } = require('node:timers/promises');
const { Client } = require('pg');
const { Webhook } = require('standardwebhooks');
const {
  DEFAULTS,
  ROOT,
  freePort,
  startProcess,
  startBackgroundProcess,
  stopProcess,
  median,
  cpuSeconds,
  percentile,
  markdownTable,
  ourServiceOptions,
} = require('../lib');
const { seedWebhooks } = require('../seed');

const EVENTS = Math.max(10, Math.floor(Number(process.env.BENCH_WEBHOOK_EVENTS) || 2_000));
/**
 * Deliveries before the measured EVENTS of each throughput drain, in the same process (the
 * worker's, the reference loop's): the warm-up the HTTP scenarios discard too. A freshly spawned
 * worker spends its first ~2,000 deliveries compiling its code (0.3 ms of CPU a delivery, against
 * about 0.17 ms after); what those first EVENTS measure is reported beside, as "cold".
 */
const WARMUP_EVENTS = Math.max(
  0,
  Math.floor(Number(process.env.BENCH_WEBHOOK_WARMUP_EVENTS ?? EVENTS)),
);
const DRAINED = WARMUP_EVENTS + EVENTS;
const RATE = 200; // events/s in the latency run
const ROUNDS = 2;
/**
 * Throughput rounds: one drain of 2,000 lasts about 0.6 s, and single rounds of one build spread
 * from 0.70 to 0.85 of the reference in one run; medians of four.
 */
const THROUGHPUT_ROUNDS = 4;
const THROUGHPUT_TARGET = 0.8; // ours deliveries/s ÷ reference, at least (docs/performance.md)
const LATENCY_TARGET_MS = 50; // commit-to-receipt p99, at most
/** Requests in flight while creating the throughput run's events. */
const CREATE_CONCURRENCY = 20;
const DRAIN_TIMEOUT_MS = 180_000;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/checkin_bench';
const SHARED_ENV = { DB_POOL_SIZE: '10', API_KEY_CACHE_TTL_MS: '5000' };
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
/** Headers of a delivery the reference loop sends too. */
const REPLAYED_HEADERS = [...SIGNATURE_HEADERS, 'content-type', 'user-agent'];

const fmt = {
  rps: (value) => (value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')),
  ms: (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`,
  ratio: (value) => value.toFixed(2),
};

/** The worker's per-process delivery concurrency, from the build (20 when not found). */
function deliveryConcurrency() {
  try {
    return require(path.join(ROOT, 'dist', 'webhooks', 'webhook-queue.js')).DELIVERY_CONCURRENCY;
  } catch {
    return 20;
  }
}

/** A side's figure `key` in each round, as a list. */
const rounds = (side, key = 'requestsPerSec') =>
  side.rounds.map((round) => fmt.rps(round[key])).join(', ');

/** Deliveries per second from first to last receipt. */
const ratePerSecond = (receipts) => {
  if (receipts.length < 2) return NaN;
  const span = receipts[receipts.length - 1].at - receipts[0].at;
  return span > 0 ? ((receipts.length - 1) * 1000) / span : NaN;
};

/**
 * The rates of one drain of DRAINED receipts: `warm`, the last EVENTS (from the warm-up's last
 * receipt to the drain's last), and `cold`, the first EVENTS (a process's first deliveries).
 */
const drainRates = (receipts) => ({
  warm: ratePerSecond(WARMUP_EVENTS > 0 ? receipts.slice(WARMUP_EVENTS - 1) : receipts),
  cold: ratePerSecond(receipts.slice(0, EVENTS)),
});

/**
 * The receiver: answers every POST 200 "ok" once its body has arrived, and keeps
 * { path, at (ms, when the body had arrived), headers, body } per request. It does the same work
 * a request whoever sends, and whether or not the bench is waiting: receipts are counted per
 * route as they arrive, and a wait is woken once, when its count is reached. (It used to wake the
 * waiting bench at every receipt, which then filtered every receipt so far and set a new timer:
 * work that fell in the worker's drains, which the bench waits on, and not in the reference
 * loop's, which it reads after the loop has ended.)
 */
async function startReceiver() {
  const receipts = [];
  const counts = new Map();
  /** The one wait in progress: { route, count, resolve }. */
  let waiter = null;
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const headers = {};
      for (const name of REPLAYED_HEADERS) headers[name] = request.headers[name];
      receipts.push({ path: request.url, at, headers, body: Buffer.concat(chunks).toString() });
      const count = (counts.get(request.url) ?? 0) + 1;
      counts.set(request.url, count);
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      response.end('ok');
      if (waiter && waiter.route === request.url && count >= waiter.count) waiter.resolve();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const base = `http://127.0.0.1:${server.address().port}`;
  const on = (route) => receipts.filter((receipt) => receipt.path === route);
  return {
    url: (route) => `${base}${route}`,
    /** Forgets every receipt so far. */
    clear: () => {
      receipts.splice(0, receipts.length);
      counts.clear();
    },
    on,
    /** Resolves with the receipts on `route` once there are `count`; rejects after `timeoutMs`. */
    async waitFor(route, count, timeoutMs, describe = () => '') {
      if ((counts.get(route) ?? 0) < count) {
        let timer;
        const reached = await new Promise((resolve) => {
          waiter = { route, count, resolve: () => resolve(true) };
          timer = setTimeout(() => resolve(false), timeoutMs);
        });
        clearTimeout(timer);
        waiter = null;
        if (!reached) {
          throw new Error(
            `${counts.get(route) ?? 0} of ${count} deliveries to ${route} arrived within ` +
              `${timeoutMs} ms${describe()}`,
          );
        }
      }
      return on(route);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A JSON call to the API; resolves { status, json, returnedAt }. */
function apiCall(agent, baseUrl, apiKey, method, route, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const request = http.request(
      `${baseUrl}${route}`,
      {
        method,
        agent,
        headers: {
          'x-api-key': apiKey,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': payload.length }
            : {}),
        },
        timeout: 30_000,
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const returnedAt = Date.now();
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = JSON.parse(text);
          } catch {
            json = { raw: text };
          }
          resolve({ status: response.statusCode, json, returnedAt });
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out after 30000 ms')));
    request.on('error', reject);
    request.end(payload);
  });
}

const randomToken = () =>
  Array.from(randomBytes(6), (byte) => BASE62[byte % BASE62.length]).join('');

/** Verifies every receipt's signature; returns how many were checked. Throws on the first bad one. */
function verifySignatures(receipts, secret) {
  const webhook = new Webhook(secret);
  for (const receipt of receipts) {
    const headers = {};
    for (const name of SIGNATURE_HEADERS) headers[name] = receipt.headers[name];
    try {
      webhook.verify(receipt.body, headers);
    } catch (error) {
      throw new Error(
        `delivery ${receipt.headers['webhook-id']}: signature does not verify (${error.message})`,
        { cause: error },
      );
    }
  }
  return receipts.length;
}

async function run({ log = console.log } = {}) {
  const databaseUrl = process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
  const concurrency = deliveryConcurrency();
  log(`Seeding the webhooks enterprise into ${databaseUrl} …`);
  const seed = await seedWebhooks({ databaseUrl });
  const { apiKey, groupId, groupKey } = seed;
  const token = randomToken();
  let emailNumber = 0;
  const newEmail = () => `wh-${token}-${(emailNumber += 1)}@bench.example.com`;

  const receiver = await startReceiver();
  const [port, opsPort] = await Promise.all([freePort(), freePort()]);
  const baseUrl = `http://127.0.0.1:${port}`;
  const apiOptions = ourServiceOptions({
    port,
    opsPort,
    databaseUrl,
    env: { ...SHARED_ENV, RUN_WORKERS: 'false', QUEUE_PREFIX: 'bench-webhooks' },
  });
  // Loopback receivers need WEBHOOK_ALLOW_PRIVATE_URLS, which production mode refuses.
  apiOptions.name = 'service (dist/main, NODE_ENV=development, RUN_WORKERS=false)';
  apiOptions.env = {
    ...apiOptions.env,
    NODE_ENV: 'development',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  };
  const workerOptions = {
    name: 'worker (dist/worker)',
    command: process.execPath,
    // BENCH_WORKER_CPU_PROF=<dir>: each worker writes a V8 CPU profile there when it stops.
    args: [
      ...(process.env.BENCH_WORKER_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROF}`]
        : []),
      path.join(ROOT, 'dist', 'worker.js'),
    ],
    env: { ...apiOptions.env, RUN_WORKERS: 'true' },
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const api = (method, route, body) => apiCall(agent, baseUrl, apiKey, method, route, body);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();

  let service;
  let worker;
  // Each worker with an operations port of its own (two run at once in the scale-out case).
  const startWorker = async () =>
    startBackgroundProcess({
      ...workerOptions,
      env: { ...workerOptions.env, OPS_PORT: String(await freePort()) },
    });
  /** Waits for deliveries; on time-out, says what the endpoint's deliveries and attempts show. */
  const waitForDeliveries = async (count, timeoutMs) => {
    try {
      return await receiver.waitFor('/hook', count, timeoutMs, workerTail);
    } catch (error) {
      error.message += `; ${await deliveryDiagnostics(db, endpoint.id)}`;
      throw error;
    }
  };
  const workerTail = () =>
    worker ? `; the worker's last output:\n  ${worker.output().slice(-10).join('\n  ')}` : '';
  const throughput = { ours: { rounds: [] }, reference: { rounds: [] }, keepAlive: { rounds: [] } };
  const latency = { rounds: [] };
  /** Whether PostgreSQL records when each transaction committed (see commitTimesOf). */
  let commitTimestamps;
  let endpoint;
  let verified = 0;
  let duplicates = 0;
  let logLines;
  let sample;

  /** One new participant per call: a `user.created` event for the endpoint. */
  const createEvent = async () => {
    const sentAt = Date.now();
    const answer = await api('POST', '/session/create', {
      groupID: groupId,
      groupKey,
      userIdentifier: newEmail(),
      returnURL: 'https://example.com/back',
    });
    if (answer.status !== 200 || !answer.json.userIdentifier) {
      throw new Error(`POST /session/create: ${answer.status} ${JSON.stringify(answer.json)}`);
    }
    return { userIdentifier: answer.json.userIdentifier, sentAt, returnedAt: answer.returnedAt };
  };

  /** Receipts of user.created events, checked: signature, one per event, every event present. */
  const checkReceipts = (receipts, created) => {
    verified += verifySignatures(receipts, endpoint.secret);
    const ids = new Set(receipts.map((receipt) => receipt.headers['webhook-id']));
    duplicates += receipts.length - ids.size;
    const byUser = new Map();
    for (const receipt of receipts) {
      const envelope = JSON.parse(receipt.body);
      if (envelope.type !== 'user.created') continue;
      const user = envelope.data.object.userIdentifier;
      if (!byUser.has(user)) byUser.set(user, { receipt, envelope });
    }
    const missing = created.filter((event) => !byUser.has(event.userIdentifier));
    if (missing.length) {
      throw new Error(`${missing.length} of ${created.length} user.created events not delivered`);
    }
    return byUser;
  };

  /** DRAINED user.created events waiting in the outbox (no worker running). */
  const createBacklog = async () => {
    const events = [];
    let remaining = DRAINED;
    await Promise.all(
      Array.from({ length: CREATE_CONCURRENCY }, async () => {
        while (remaining > 0) {
          remaining -= 1;
          events.push(await createEvent());
        }
      }),
    );
    const waiting = (
      await db.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries
          WHERE endpoint_id = $1 AND status = 'pending'`,
        [endpoint.id],
      )
    ).rows[0].n;
    if (waiting !== DRAINED) throw new Error(`${waiting} deliveries pending, expected ${DRAINED}`);
    return events;
  };

  try {
    log('Starting the API (RUN_WORKERS=false, NODE_ENV=development) …');
    service = await startProcess(apiOptions);
    const created = await api('POST', `/webhooks/${groupId}`, {
      url: receiver.url('/hook'),
      description: 'bench receiver',
    });
    if (created.status !== 200 || !created.json.secret) {
      throw new Error(
        `POST /webhooks/${groupId}: ${created.status} ${JSON.stringify(created.json)}`,
      );
    }
    endpoint = created.json;
    log(`Endpoint ${endpoint.id} → ${endpoint.url}`);

    // Warm-up: a worker delivers a test event and 100 user.created events; one of those is the
    // reference loop's body and headers.
    worker = await startWorker();
    const test = await api('POST', `/webhooks/${groupId}/${endpoint.id}/test`);
    if (test.status !== 200) throw new Error(`…/test: ${test.status} ${JSON.stringify(test.json)}`);
    const warm = [];
    for (let i = 0; i < 100; i++) warm.push(await createEvent());
    const warmReceipts = await waitForDeliveries(101, 60_000);
    checkReceipts(warmReceipts, warm);
    sample = warmReceipts.find((receipt) => JSON.parse(receipt.body).type === 'user.created');
    await stopProcess(worker);
    worker = null;
    receiver.clear();
    log(
      `Warm-up delivered (test event + 100 user.created); a delivery is ${Buffer.byteLength(sample.body)} bytes.`,
    );

    service.resetLineCount();
    // (a) Throughput, alternating reference and ours.
    const referenceRun = async (keepAlive) => {
      const route = keepAlive ? '/reference-keepalive' : '/reference';
      const loop = await startBackgroundProcess({
        name: 'reference POST loop',
        command: process.execPath,
        args: [
          path.join(ROOT, 'bench', 'reference', 'webhook-post-loop.js'),
          JSON.stringify({
            url: receiver.url(route),
            count: DRAINED,
            concurrency,
            body: sample.body,
            headers: sample.headers,
            keepAlive,
          }),
        ],
        env: process.env,
      });
      const exit = await loop.exited;
      const output = loop.output();
      const figures = JSON.parse(output[output.length - 1] ?? '{}');
      if (exit.code !== 0 || figures.ok !== DRAINED) {
        throw new Error(`reference loop: exit ${exit.code}, ${output.slice(-5).join(' ')}`);
      }
      const receipts = await receiver.waitFor(route, DRAINED, 10_000);
      receiver.clear();
      const rates = drainRates(receipts);
      return {
        requestsPerSec: rates.warm,
        coldPerSec: rates.cold,
        latencyP50: figures.latencyP50,
        latencyP99: figures.latencyP99,
      };
    };
    const referenceRound = async (round) => {
      for (const keepAlive of [false, true]) {
        const reference = await referenceRun(keepAlive);
        (keepAlive ? throughput.keepAlive : throughput.reference).rounds.push(reference);
        log(
          `  round ${round} reference loop${keepAlive ? ' (keep-alive)' : ''} ` +
            `${fmt.rps(reference.requestsPerSec)} deliveries/s (cold ${fmt.rps(reference.coldPerSec)}), ` +
            `p50 ${fmt.ms(reference.latencyP50)}, p99 ${fmt.ms(reference.latencyP99)}`,
        );
      }
    };
    const ourRound = async (round) => {
      const createStarted = Date.now();
      const events = await createBacklog();
      const createSeconds = (Date.now() - createStarted) / 1000;
      await vacuumOutbox(db);
      const dueScansBefore = await dueIndexScans(db);

      const workerStarted = Date.now();
      worker = await startWorker();
      await waitForDeliveries(1, DRAIN_TIMEOUT_MS);
      const cpuAtFirst = cpuSeconds(worker.child.pid); // start-up (Nest, TypeORM) excluded
      await waitForDeliveries(WARMUP_EVENTS, DRAIN_TIMEOUT_MS);
      const cpuAtWarm = cpuSeconds(worker.child.pid);
      const receipts = await waitForDeliveries(DRAINED, DRAIN_TIMEOUT_MS);
      const cpuAtLast = cpuSeconds(worker.child.pid);
      const drained = worker;
      await stopProcess(worker);
      worker = null;
      receiver.clear();
      checkReceipts(receipts, events);
      const attempts = await attemptFigures(db, endpoint.id, EVENTS); // the measured ones
      const undelivered = (
        await db.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries
            WHERE endpoint_id = $1 AND status <> 'delivered'`,
          [endpoint.id],
        )
      ).rows[0].n;
      if (undelivered) {
        const exit = await drained.exited;
        throw new Error(
          `${undelivered} deliveries not "delivered" after the drain; ` +
            (await deliveryDiagnostics(db, endpoint.id)) +
            `; the worker exited with ${exit.signal ?? `code ${exit.code}`}, its last output:\n  ` +
            drained.output().slice(-20).join('\n  '),
        );
      }
      await sleep(1_200); // statistics reach pg_stat_* about once a second
      const dueScans = (await dueIndexScans(db)) - dueScansBefore;
      const rates = drainRates(receipts);
      const ours = {
        requestsPerSec: rates.warm,
        coldPerSec: rates.cold,
        latencyP50: attempts.p50,
        latencyP99: attempts.p99,
        createPerSec: DRAINED / createSeconds,
        firstAfterMs: receipts[0].at - workerStarted,
        // CPU per delivery of the measured (warm) deliveries and of the warm-up's.
        workerCpuMs: ((cpuAtLast - cpuAtWarm) * 1000) / EVENTS,
        warmupCpuMs: WARMUP_EVENTS > 0 ? ((cpuAtWarm - cpuAtFirst) * 1000) / WARMUP_EVENTS : NaN,
        dueScans,
        attempts: attempts.total,
      };
      throughput.ours.rounds.push(ours);
      log(
        `  round ${round} ours (worker)  ${fmt.rps(ours.requestsPerSec)} deliveries/s ` +
          `(cold ${fmt.rps(ours.coldPerSec)}), attempt ` +
          `p50 ${fmt.ms(ours.latencyP50)}, p99 ${fmt.ms(ours.latencyP99)} (events created at ` +
          `${fmt.rps(ours.createPerSec)}/s; first delivery ${ours.firstAfterMs} ms after the ` +
          `worker was spawned; worker CPU ${ours.workerCpuMs.toFixed(2)} ms a delivery, ` +
          `${ours.warmupCpuMs.toFixed(2)} ms in the warm-up; ` +
          `${dueScans} sweeper scans)`,
      );
    };
    // The order alternates: the measurement after another one is sometimes slower on this 2-core
    // machine (PostgreSQL's background work after a drain, the receiver's JIT), and a fixed order
    // would always hand that to the same side.
    for (let round = 1; round <= THROUGHPUT_ROUNDS; round++) {
      if (round % 2 === 1) {
        await referenceRound(round);
        await ourRound(round);
      } else {
        await ourRound(round);
        await referenceRound(round);
      }
    }
    // Two worker processes drain one backlog: more workers add throughput, and none is sent
    // twice (checkReceipts counts duplicates).
    {
      const events = await createBacklog();
      await vacuumOutbox(db);
      const workers = await Promise.all([startWorker(), startWorker()]);
      const receipts = await waitForDeliveries(DRAINED, DRAIN_TIMEOUT_MS);
      await Promise.all(workers.map((one) => stopProcess(one)));
      receiver.clear();
      checkReceipts(receipts, events);
      throughput.twoWorkers = { requestsPerSec: drainRates(receipts).warm };
      log(
        `  two workers: ${fmt.rps(throughput.twoWorkers.requestsPerSec)} deliveries/s ` +
          `(${fmt.rps(throughput.twoWorkers.requestsPerSec / 2)} per worker)`,
      );
    }
    // (b) Latency at a steady RATE, with the worker running and warmed up.
    commitTimestamps = await tracksCommitTimestamps(db);
    await vacuumOutbox(db);
    worker = await startWorker();
    const ready = await api('POST', `/webhooks/${groupId}/${endpoint.id}/test`);
    if (ready.status !== 200) throw new Error(`…/test: ${ready.status}`);
    await waitForDeliveries(1, 60_000);
    receiver.clear();
    // Round 0 is a warm-up of the freshly started worker (JIT, pool connections), discarded.
    for (let round = 0; round <= ROUNDS; round++) {
      const seconds = round === 0 ? DEFAULTS.warmupSeconds : DEFAULTS.durationSeconds;
      const count = Math.round(RATE * seconds);
      const events = [];
      const pending = [];
      const started = Date.now();
      for (let sent = 0; sent < count;) {
        const due = Math.min(count, Math.floor(((Date.now() - started) * RATE) / 1000) + 1);
        for (; sent < due; sent++) {
          const call = createEvent().then((event) => events.push(event));
          call.catch(() => undefined); // awaited below, with the others
          pending.push(call);
        }
        await sleep(2);
      }
      const sendSeconds = (Date.now() - started) / 1000;
      await Promise.all(pending);
      const receipts = await waitForDeliveries(count, 60_000);
      receiver.clear();
      const byUser = checkReceipts(receipts, events);
      const committedAt = commitTimestamps
        ? await commitTimesOf(
            db,
            events.map((event) => byUser.get(event.userIdentifier).envelope.id),
          )
        : null;
      const fromCreated = [];
      const fromCommit = [];
      const fromReturn = [];
      for (const event of events) {
        const { receipt, envelope } = byUser.get(event.userIdentifier);
        fromCreated.push(receipt.at - Date.parse(envelope.created));
        fromReturn.push(receipt.at - event.returnedAt);
        if (committedAt) fromCommit.push(receipt.at - committedAt.get(envelope.id));
      }
      // Exact when the server tracks commit times; else the upper bound (the transaction's start).
      const exact = fromCommit.length > 0 ? fromCommit : fromCreated;
      const figures = {
        requestsPerSec: count / sendSeconds,
        latencyP50: percentile(exact, 50),
        latencyP99: percentile(exact, 99),
        maxMs: Math.max(...exact),
        fromCreatedP50: percentile(fromCreated, 50),
        fromCreatedP99: percentile(fromCreated, 99),
        fromReturnP50: percentile(fromReturn, 50),
        fromReturnP99: percentile(fromReturn, 99),
        apiP50: percentile(
          events.map((event) => event.returnedAt - event.sentAt),
          50,
        ),
        apiP99: percentile(
          events.map((event) => event.returnedAt - event.sentAt),
          99,
        ),
        deliveredPerSec: ratePerSecond(receipts),
      };
      if (round === 0) latency.warmup = figures;
      else latency.rounds.push(figures);
      log(
        `  latency ${round === 0 ? 'warm-up' : `round ${round}`}: ${count} events at ${fmt.rps(figures.requestsPerSec)}/s; ` +
          `commit-to-receipt${commitTimestamps ? '' : ' (from the transaction start)'} ` +
          `p50 ${fmt.ms(figures.latencyP50)}, p99 ${fmt.ms(figures.latencyP99)} ` +
          `(max ${fmt.ms(figures.maxMs)}; from the transaction start p50 ` +
          `${fmt.ms(figures.fromCreatedP50)}, p99 ${fmt.ms(figures.fromCreatedP99)}; ` +
          `from the API's answer p50 ` +
          `${fmt.ms(figures.fromReturnP50)}, p99 ${fmt.ms(figures.fromReturnP99)}; ` +
          `POST /session/create p50 ${fmt.ms(figures.apiP50)}, p99 ${fmt.ms(figures.apiP99)})`,
      );
    }
    logLines = service.lineCount() + worker.lineCount();
  } finally {
    await stopProcess(worker);
    await stopProcess(service);
    agent.destroy();
    await receiver.close();
    await db.end();
  }

  const medianOf = (rounds, key) => median(rounds.map((r) => r[key]));
  for (const side of [throughput.ours, throughput.reference, throughput.keepAlive]) {
    for (const key of ['requestsPerSec', 'coldPerSec', 'latencyP50', 'latencyP99']) {
      side[key] = medianOf(side.rounds, key);
    }
  }
  for (const key of [
    'requestsPerSec',
    'latencyP50',
    'latencyP99',
    'fromCreatedP50',
    'fromCreatedP99',
    'fromReturnP50',
    'fromReturnP99',
    'apiP50',
    'apiP99',
    'deliveredPerSec',
  ]) {
    latency[key] = medianOf(latency.rounds, key);
  }
  const throughputRatio = throughput.ours.requestsPerSec / throughput.reference.requestsPerSec;
  const coldRatio = throughput.ours.coldPerSec / throughput.reference.coldPerSec;
  const count = (n) => n.toLocaleString('en-US');
  const measured =
    WARMUP_EVENTS > 0
      ? `the last ${count(EVENTS)} of a ${count(DRAINED)}-event drain (the first ` +
        `${count(WARMUP_EVENTS)} in the same process are its warm-up)`
      : `${count(EVENTS)} user.created events`;
  const keepAliveRatio = throughput.ours.requestsPerSec / throughput.keepAlive.requestsPerSec;
  const twoWorkersRatio =
    (throughput.twoWorkers?.requestsPerSec ?? NaN) / throughput.reference.requestsPerSec;
  const latencyReference = {
    requestsPerSec: latency.deliveredPerSec,
    latencyP50: latency.fromReturnP50,
    latencyP99: latency.fromReturnP99,
  };
  const rows = [
    {
      title:
        `Webhook deliveries/s: 1 worker, ${measured}, vs a raw POST loop measured the same way ` +
        `(${concurrency} in flight; ratio = ours ÷ reference deliveries/s; latencies per POST)`,
      ours: throughput.ours,
      reference: throughput.reference,
      ratio: throughputRatio,
      target: THROUGHPUT_TARGET,
      targetLabel: `≥ ${THROUGHPUT_TARGET}`,
      meetsTarget: throughputRatio >= THROUGHPUT_TARGET,
    },
    {
      title:
        `Webhook deliveries/s: 1 worker, ${measured}, vs the raw POST loop on keep-alive ` +
        `connections (${concurrency} in flight; for information: the service opens each ` +
        'connection through its SSRF check, then keeps it)',
      ours: throughput.ours,
      reference: throughput.keepAlive,
      ratio: keepAliveRatio,
      target: null,
      targetLabel: '—',
      meetsTarget: true,
    },
    {
      title:
        `Webhook deliveries/s from a cold start: a freshly spawned worker's first ` +
        `${count(EVENTS)} deliveries vs the raw POST loop's first ${count(EVENTS)} (for ` +
        'information: what this row measured before the warm-up; the worker compiles its code ' +
        'meanwhile)',
      ours: { requestsPerSec: throughput.ours.coldPerSec },
      reference: { requestsPerSec: throughput.reference.coldPerSec },
      ratio: coldRatio,
      target: null,
      targetLabel: '—',
      meetsTarget: true,
    },
    {
      title:
        `Webhook deliveries/s: 2 worker processes, ${measured}, vs the same raw POST loop ` +
        '(ratio = both workers together ÷ ' +
        'reference; for information: the machine has 2 cores shared with the API, PostgreSQL ' +
        'and the receiver)',
      ours: { requestsPerSec: throughput.twoWorkers?.requestsPerSec ?? NaN },
      reference: throughput.reference,
      ratio: twoWorkersRatio,
      target: null,
      targetLabel: '—',
      meetsTarget: true,
    },
    {
      title:
        `Webhook commit-to-receipt at ${RATE} events/s (ratio column = p99 in ms; "ours" = from ` +
        (commitTimestamps
          ? "the commit of the event's transaction (track_commit_timestamp)"
          : "the event's created timestamp, its transaction's start (an upper bound)") +
        `, "reference" = from the API's answer (a lower bound); req/s = events/s ` +
        'created, delivered)',
      ours: latency,
      reference: latencyReference,
      ratio: latency.latencyP99,
      target: LATENCY_TARGET_MS,
      targetLabel: `≤ ${LATENCY_TARGET_MS} ms`,
      meetsTarget: latency.latencyP99 <= LATENCY_TARGET_MS,
    },
  ];
  const oursRounds = throughput.ours.rounds;
  const result = {
    id: 'webhooks',
    title: 'Webhook delivery throughput and latency',
    rows,
    meetsTarget: rows.every((row) => row.meetsTarget),
    throughput,
    latency,
    concurrency,
    events: EVENTS,
    notes: [
      'The service runs with NODE_ENV=development for this scenario: the receiver is on ' +
        '127.0.0.1, which the SSRF guard refuses unless WEBHOOK_ALLOW_PRIVATE_URLS=true, and ' +
        'production refuses that setting. The benchmark secrets are set as in production, ' +
        'LOG_LEVEL=warn, no demo data; the API runs with RUN_WORKERS=false and one worker ' +
        `process (\`node dist/worker\`, ${concurrency} deliveries in flight) delivers; queue prefix ` +
        '`bench-webhooks`.',
      `Throughput: ${count(DRAINED)} user.created events (POST /session/create with new emails, ` +
        `${CREATE_CONCURRENCY} in flight, created at ${oursRounds
          .map((r) => `${fmt.rps(r.createPerSec)}/s`)
          .join(', ')}) wait in the outbox; then the worker starts and drains them. The first ` +
        `${count(WARMUP_EVENTS)} deliveries are its warm-up, as the HTTP scenarios discard ` +
        `their first seconds; deliveries/s are counted over the last ${count(EVENTS)}, from the ` +
        "warm-up's last receipt to the drain's last, and the reference loop sends " +
        `${count(DRAINED)} and is counted the same way. Cold (the first ${count(EVENTS)} ` +
        `receipts of each): ours ${rounds(throughput.ours, 'coldPerSec')}, the loop ` +
        `${rounds(throughput.reference, 'coldPerSec')} deliveries/s. The worker started ` +
        `${oursRounds.map((r) => `${r.firstAfterMs} ms`).join(', ')} before its first delivery, ` +
        'and used ' +
        `${oursRounds.map((r) => `${r.workerCpuMs.toFixed(2)} ms`).join(', ')} of CPU a measured ` +
        `delivery (${oursRounds.map((r) => `${r.warmupCpuMs.toFixed(2)} ms`).join(', ')} a ` +
        `warm-up one); the sweeper's due-delivery index was scanned ` +
        `${oursRounds.map((r) => r.dueScans).join(', ')} times per drain. Ours p50/p99 are the ` +
        'attempt durations the service logged (delivery_attempts.duration_ms).',
      `Reference: bench/reference/webhook-post-loop.js, ${concurrency} requests in flight (the ` +
        "worker's queue concurrency), the body and headers of a real delivery " +
        `(${Buffer.byteLength(sample?.body ?? '')} bytes, webhook-id/-timestamp/-signature, ` +
        'content-type, user-agent), a new connection per request (`agent: false`); its p50/p99 ' +
        'are per request. The second reference is the same loop on keep-alive connections ' +
        `(${concurrency} sockets), as the service delivers (an agent per endpoint origin, each new ` +
        'connection through the SSRF check, src/webhooks/safe-http.ts): ' +
        `${throughput.keepAlive.rounds.map((r) => fmt.rps(r.requestsPerSec)).join(', ')} ` +
        `deliveries/s. ${THROUGHPUT_ROUNDS} rounds, medians; odd rounds run the loop, the keep-alive loop, then ours, even rounds ours first.`,
      `Latency: ${Math.round(RATE * DEFAULTS.durationSeconds)} events per round, sent on a ` +
        `fixed schedule of ${RATE}/s (open loop), ${ROUNDS} rounds, medians, after a ` +
        `${DEFAULTS.warmupSeconds} s warm-up of the freshly started worker at the same rate ` +
        `(discarded: p50 ${fmt.ms(latency.warmup?.latencyP50 ?? NaN)}, p99 ` +
        `${fmt.ms(latency.warmup?.latencyP99 ?? NaN)}). Commit-to-receipt ` +
        "= the receiver's clock when the body had arrived − " +
        (commitTimestamps
          ? "the commit of the transaction that wrote the event (PostgreSQL's " +
            '`pg_xact_commit_timestamp` of the event row; the server runs with ' +
            "`track_commit_timestamp = on`); same machine, same clock. From the envelope's " +
            "`created` (the event row's created_at, the start of that transaction, so an upper " +
            `bound): p50 ${fmt.ms(latency.fromCreatedP50)}, p99 ${fmt.ms(latency.fromCreatedP99)}. `
          : "the envelope's `created` (the event row's created_at, PostgreSQL now(): the start " +
            'of the transaction that committed it, before the commit, so an upper bound; same ' +
            'machine, same clock; a server with `track_commit_timestamp = on` gives the commit ' +
            'itself). ') +
        'From the moment POST /session/create answered (after the commit, a lower bound): p50 ' +
        `${fmt.ms(latency.fromReturnP50)}, p99 ${fmt.ms(latency.fromReturnP99)}. The API ` +
        `answered POST /session/create in p50 ${fmt.ms(latency.apiP50)}, p99 ` +
        `${fmt.ms(latency.apiP99)} meanwhile.`,
      `Every delivery (${verified.toLocaleString('en-US')}, warm-up included) was verified with ` +
        "the standardwebhooks package and the endpoint's secret, and every created event " +
        `arrived; ${duplicates} duplicate deliveries (same webhook-id) were received.`,
    ],
  };
  if (logLines > 0) {
    result.notes.push(
      `The API and the worker wrote ${logLines} output lines while being measured (LOG_LEVEL=warn).`,
    );
  }
  log('');
  log(formatTable(result));
  return result;
}

/**
 * What autovacuum does in production, done before each drain and before the latency run: this
 * machine's PostgreSQL runs without it (its CI configuration sets `autovacuum = off`), and every
 * drain leaves dead row versions behind (two a delivery: the lease and the outcome; one an event
 * whose personal data retention clears). Left alone they piled up run after run (182,000 dead
 * deliveries against 25,000 live after five runs) and every index scan of the outbox walked them.
 * pgbench vacuums before each run for the same reason. ANALYZE too, as autovacuum would after a
 * backlog of this size (a sixth of the table).
 */
async function vacuumOutbox(db) {
  await db.query('VACUUM (ANALYZE) events, webhook_deliveries, delivery_attempts');
}

/** Whether the server records commit times (`track_commit_timestamp`, set at its start). */
async function tracksCommitTimestamps(db) {
  const { rows } = await db.query(`SELECT current_setting('track_commit_timestamp') = 'on' AS on`);
  return rows[0].on;
}

/**
 * When the transaction that wrote each event committed, in ms since the epoch, by event id: the
 * commit time of the event row's version (its xmin). Read right after the round, before any
 * retention sweep could write a newer version (it clears personal data once every delivery is
 * final; the worker sweeps at its start and every 10 minutes). A row without one fails the round.
 */
async function commitTimesOf(db, eventIds) {
  const { rows } = await db.query(
    `SELECT id, (extract(epoch FROM pg_xact_commit_timestamp(xmin)) * 1000)::float8 AS at
       FROM events WHERE id = ANY ($1)`,
    [eventIds],
  );
  const times = new Map(rows.filter((row) => row.at !== null).map((row) => [row.id, row.at]));
  if (times.size !== eventIds.length) {
    throw new Error(`commit times of ${times.size} of ${eventIds.length} events`);
  }
  return times;
}

/** How often the sweeper's partial index of due deliveries has been scanned (all processes). */
async function dueIndexScans(db) {
  const { rows } = await db.query(
    `SELECT coalesce(sum(idx_scan), 0)::bigint AS scans FROM pg_stat_user_indexes
      WHERE indexrelname = 'webhook_deliveries_due_idx'`,
  );
  return Number(rows[0].scans);
}

/**
 * The endpoint's deliveries by status and its failed attempts by error, as a sentence. A delivery
 * stuck "pending" after a failed attempt usually means another process of the service, whose
 * SSRF guard refuses 127.0.0.1, swept this benchmark database meanwhile.
 */
async function deliveryDiagnostics(db, endpointId) {
  const statuses = await db.query(
    `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1
      GROUP BY status ORDER BY status`,
    [endpointId],
  );
  const failures = await db.query(
    `SELECT coalesce(a.status_code::text, a.error) AS outcome, count(*)::int AS n
       FROM delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
      WHERE d.endpoint_id = $1 AND (a.status_code IS NULL OR a.status_code NOT BETWEEN 200 AND 299)
      GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
    [endpointId],
  );
  const list = (rows, key) => rows.map((row) => `${row[key]}: ${row.n}`).join(', ') || 'none';
  return (
    `deliveries by status: ${list(statuses.rows, 'status')}; failed attempts: ` +
    `${list(failures.rows, 'outcome')}`
  );
}

/** p50/p99 of the endpoint's last `count` attempts, as the service logged them. */
async function attemptFigures(db, endpointId, count) {
  const { rows } = await db.query(
    `SELECT a.duration_ms, a.status_code FROM delivery_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id
      WHERE d.endpoint_id = $1
      ORDER BY a.started_at DESC LIMIT $2`,
    [endpointId, count],
  );
  const failed = rows.filter((row) => !(row.status_code >= 200 && row.status_code <= 299)).length;
  if (failed) {
    throw new Error(
      `${failed} delivery attempts did not get a 2xx answer; ` +
        (await deliveryDiagnostics(db, endpointId)),
    );
  }
  const durations = rows.map((row) => row.duration_ms);
  return { total: rows.length, p50: percentile(durations, 50), p99: percentile(durations, 99) };
}

function formatTable(result) {
  const { throughput, latency } = result;
  const latencyRow = result.rows[result.rows.length - 1];
  return markdownTable(
    ['', 'deliveries/s (median)', 'p50', 'p99', 'rounds'],
    [
      [
        `reference POST loop (${result.concurrency} in flight; the last ${result.events.toLocaleString('en-US')})`,
        fmt.rps(throughput.reference.requestsPerSec),
        fmt.ms(throughput.reference.latencyP50),
        fmt.ms(throughput.reference.latencyP99),
        rounds(throughput.reference),
      ],
      [
        `reference POST loop on keep-alive connections (${result.concurrency} in flight; the last ${result.events.toLocaleString('en-US')})`,
        fmt.rps(throughput.keepAlive.requestsPerSec),
        fmt.ms(throughput.keepAlive.latencyP50),
        fmt.ms(throughput.keepAlive.latencyP99),
        rounds(throughput.keepAlive),
      ],
      [
        `ours: 1 worker draining the outbox (the last ${result.events.toLocaleString('en-US')})`,
        fmt.rps(throughput.ours.requestsPerSec),
        fmt.ms(throughput.ours.latencyP50),
        fmt.ms(throughput.ours.latencyP99),
        rounds(throughput.ours),
      ],
      [
        'ratio ours ÷ reference',
        `${fmt.ratio(result.rows[0].ratio)} (target ${result.rows[0].targetLabel})`,
        '',
        '',
        result.rows[0].meetsTarget ? 'ok' : 'BELOW TARGET',
      ],
      [
        'ratio ours ÷ keep-alive reference',
        `${fmt.ratio(result.rows[1].ratio)} (for information)`,
        '',
        '',
        '',
      ],
      [
        `cold: ours ÷ reference over the first ${result.events.toLocaleString('en-US')} of each drain`,
        `${fmt.ratio(result.rows[2].ratio)} (for information)`,
        '',
        '',
        `${rounds(throughput.ours, 'coldPerSec')} ÷ ${rounds(throughput.reference, 'coldPerSec')}`,
      ],
      [
        `commit-to-receipt at ${RATE} events/s`,
        fmt.rps(latency.deliveredPerSec),
        fmt.ms(latency.latencyP50),
        fmt.ms(latency.latencyP99),
        latency.rounds.map((r) => `${fmt.ms(r.latencyP50)} / ${fmt.ms(r.latencyP99)}`).join(', '),
      ],
      [
        'p99 commit-to-receipt',
        `${fmt.ms(latency.latencyP99)} (target ${latencyRow.targetLabel})`,
        '',
        '',
        latencyRow.meetsTarget ? 'ok' : 'BELOW TARGET',
      ],
    ],
  );
}

module.exports = { id: 'webhooks', run, formatTable };

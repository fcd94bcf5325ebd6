'use strict';

/**
 * A/B drains for the webhook worker: two (or more) builds take turns draining the same backlog,
 * to compare what a change to the delivery path buys without the rest of the webhooks scenario
 * (no API, no event creation between drains).
 *
 *   node bench/drain-ab.js <deliveries> <rounds> <dist directory> [<dist directory> …]
 *
 * Needs the webhooks scenario's data (run `node bench/run.js webhooks` once). Each drain marks the
 * newest <deliveries> deliveries of the benchmark endpoint due again, points the endpoint at a
 * local receiver answering 200, starts `node <dist>/worker.js` (RUN_WORKERS=true, the benchmark's
 * settings) and measures deliveries/s at the receiver from the first receipt to the last, the
 * worker's CPU per delivery and PostgreSQL's (every `postgres` process, from /proc), then stops
 * the worker. The builds' order alternates round by round; medians at the end. PROF=<dir> writes
 * each worker's V8 CPU profile there.
 */

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { setTimeout: sleep } = require('node:timers/promises');
const { Client } = require('pg');
const { cpuSeconds, freePort, median, ourServiceOptions } = require('./lib');

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/checkin_bench';
const TIMEOUT_MS = 60_000;

/** A process's CPU seconds in the kernel (stime) so far. */
function systemCpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[12]) / 100;
  } catch {
    return NaN;
  }
}

/** CPU seconds of every PostgreSQL process (its server and backends) so far. */
function postgresCpuSeconds() {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let command;
    try {
      command = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      continue; // ended meanwhile
    }
    if (command === 'postgres') total += cpuSeconds(pid) || 0;
  }
  return total;
}

async function main() {
  const [count, rounds] = process.argv.slice(2, 4).map(Number);
  const dists = process.argv.slice(4).map((dist) => path.resolve(dist));
  if (!(count > 1) || !(rounds > 0) || dists.length === 0) {
    throw new Error('usage: node bench/drain-ab.js <deliveries> <rounds> <dist> [<dist> …]');
  }
  const receipts = [];
  const receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      receipts.push(Date.now());
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      response.end('ok');
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  const { rows } = await db.query(
    'SELECT endpoint_id FROM webhook_deliveries GROUP BY 1 ORDER BY count(*) DESC LIMIT 1',
  );
  if (rows.length === 0) throw new Error('no deliveries: run `node bench/run.js webhooks` first');
  const endpointId = rows[0].endpoint_id;
  await db.query(
    `UPDATE webhook_endpoints SET url = $2, status = 'enabled', failing_since = NULL WHERE id = $1`,
    [endpointId, `http://127.0.0.1:${receiver.address().port}/hook`],
  );
  const rates = new Map(dists.map((dist) => [dist, []]));
  for (let round = 0; round < rounds; round++) {
    for (const dist of round % 2 ? [...dists].reverse() : dists) {
      await db.query(
        `UPDATE webhook_deliveries
            SET status = 'pending', next_attempt_at = now() - interval '1 minute',
                locked_until = NULL, delivered_at = NULL, queued_at = NULL, queue_job_id = NULL
          WHERE id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = $1
                        ORDER BY created_at DESC LIMIT $2)`,
        [endpointId, count],
      );
      await db.query('VACUUM (ANALYZE) events, webhook_deliveries, delivery_attempts');
      receipts.length = 0;
      const options = ourServiceOptions({
        port: await freePort(),
        opsPort: await freePort(),
        databaseUrl: DATABASE_URL,
        env: { DB_POOL_SIZE: '10', RUN_WORKERS: 'true', QUEUE_PREFIX: 'bench-drain-ab' },
      });
      // Loopback receivers need WEBHOOK_ALLOW_PRIVATE_URLS, which production refuses.
      const env = { ...options.env, NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
      const profile = process.env.PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF}`] : [];
      const worker = spawn(process.execPath, [...profile, path.join(dist, 'worker.js')], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let errors = '';
      worker.stderr.on('data', (chunk) => (errors += chunk));
      const started = Date.now();
      let workerAtFirst = NaN;
      let workerSystemAtFirst = NaN;
      let postgresAtFirst = NaN;
      let receiverAtFirst = null;
      while (receipts.length < count && Date.now() - started < TIMEOUT_MS) {
        if (receipts.length > 0 && Number.isNaN(workerAtFirst)) {
          workerAtFirst = cpuSeconds(worker.pid);
          workerSystemAtFirst = systemCpuSeconds(worker.pid);
          postgresAtFirst = postgresCpuSeconds();
          receiverAtFirst = process.cpuUsage();
        }
        await sleep(5);
      }
      const workerCpu = cpuSeconds(worker.pid) - workerAtFirst;
      const workerSystemCpu = systemCpuSeconds(worker.pid) - workerSystemAtFirst;
      const postgresCpu = postgresCpuSeconds() - postgresAtFirst;
      const receiverUsage = process.cpuUsage(receiverAtFirst);
      const receiverCpu = (receiverUsage.user + receiverUsage.system) / 1e6;
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.on('exit', resolve));
      if (receipts.length < count) {
        throw new Error(`${receipts.length} of ${count} delivered: ${errors.slice(-500)}`);
      }
      // Every outcome written before the worker stopped: none of the drained deliveries pending.
      const { rows: left } = await db.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries
          WHERE endpoint_id = $1 AND status = 'pending'`,
        [endpointId],
      );
      if (left[0].n > 0) {
        throw new Error(
          `${left[0].n} deliveries still pending after the drain: ${errors.slice(-2000)}`,
        );
      }
      const rate = ((count - 1) * 1000) / (receipts[count - 1] - receipts[0]);
      rates.get(dist).push(rate);
      const perDelivery = (seconds) => `${Math.round((seconds * 1e6) / count)} µs`;
      console.log(
        `round ${round + 1} ${dist}: ${Math.round(rate)} deliveries/s; CPU per delivery: ` +
          `worker ${perDelivery(workerCpu)} (in the kernel ${perDelivery(workerSystemCpu)}), ` +
          `PostgreSQL ${perDelivery(postgresCpu)}, this process (the receiver) ${perDelivery(receiverCpu)}`,
      );
    }
  }
  for (const [dist, values] of rates) {
    console.log(
      `${dist}: median ${Math.round(median(values))} deliveries/s (${values.map(Math.round).join(', ')})`,
    );
  }
  await db.end();
  receiver.close();
}

main().catch((error) => {
  console.error(error.stack ?? error.message);
  process.exitCode = 1;
});

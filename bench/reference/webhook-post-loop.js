'use strict';

/**
 * Reference for webhook delivery throughput: a bare HTTP POST loop, `concurrency` requests in
 * flight, each with the given body and headers, to a receiver — what delivering costs with
 * nothing else (no database, no queue, no signing). Like the service's deliveries
 * (src/webhooks/safe-http.ts, `agent: false`) every request opens its own connection, unless
 * `keepAlive` is set.
 *
 *   node bench/reference/webhook-post-loop.js '{"url":…,"count":2000,"concurrency":20,
 *     "body":"…","headers":{…},"keepAlive":false}'
 *
 * Prints one JSON line: { sent, ok, failed, seconds, latencyP50, latencyP99 } (latencies in ms,
 * per request, from sending to the end of the response).
 */

const http = require('node:http');
const { Buffer } = require('node:buffer');

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

function postOnce(url, body, headers, agent) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const done = (ok) => resolve({ ok, ms: Number(process.hrtime.bigint() - started) / 1e6 });
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': body.length },
        agent,
        timeout: 15_000,
      },
      (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode >= 200 && response.statusCode < 300));
        response.on('error', () => done(false));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => done(false));
    request.end(body);
  });
}

async function main() {
  const config = JSON.parse(process.argv[2]);
  const body = Buffer.from(config.body);
  const agent = config.keepAlive
    ? new http.Agent({ keepAlive: true, maxSockets: config.concurrency })
    : false;
  const latencies = [];
  let next = 0;
  let failed = 0;
  const started = process.hrtime.bigint();
  const loop = async () => {
    while (next < config.count) {
      next += 1;
      const outcome = await postOnce(config.url, body, config.headers, agent);
      latencies.push(outcome.ms);
      if (!outcome.ok) failed += 1;
    }
  };
  await Promise.all(Array.from({ length: config.concurrency }, loop));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (agent) agent.destroy();
  latencies.sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({
      sent: latencies.length,
      ok: latencies.length - failed,
      failed,
      seconds,
      latencyP50: percentile(latencies, 50),
      latencyP99: percentile(latencies, 99),
    })}\n`,
  );
}

main().catch((error) => {
  console.error(error.stack ?? error.message);
  process.exitCode = 1;
});

/**
 * A first integration, end to end, against a running service with a sandbox enterprise's key:
 * create a group, subscribe a webhook, start a check-in, complete it (sandbox), read the session
 * and the group's metrics, and receive and verify the webhooks.
 *
 *   CHECKIN_API_KEY=ck_… npm run quickstart          # from the repository root
 *
 * Environment: CHECKIN_API_KEY (required: a sandbox enterprise's key — `npm start` prints one on
 * an empty database, or `npm run cli:dev -- enterprises:create --name Me --sandbox`),
 * CHECKIN_BASE_URL (default http://localhost:3000). The webhook receiver listens on 127.0.0.1,
 * which the service accepts in development (WEBHOOK_ALLOW_PRIVATE_URLS, on by default there).
 * Every call goes through the typed client: no hand-written request code. Any failure is one line
 * on stderr and exit code 1: the step, and the API's answer, or the address that did not answer.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createCheckinClient } from '../src';

const EXPECTED_EVENTS = ['user.created', 'user.session.result'] as const;
const WEBHOOK_TIMEOUT_MS = 30_000;
const DEFAULT_BASE_URL = 'http://localhost:3000';
const baseUrl = process.env.CHECKIN_BASE_URL || DEFAULT_BASE_URL;

interface ApiResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Why nothing answered at `baseUrl` (fetch's own message is only `fetch failed`): the address
 * tried, where it came from, and the cause (`ECONNREFUSED`, an unknown host, …).
 */
function unreachable(step: string, failure: TypeError): Error {
  const cause = failure.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const message =
    typeof cause?.message === 'string' && cause.message !== '' ? cause.message : failure.message;
  // `localhost` tries every address it resolves to: then the cause is only a code.
  const why = code === '' || message.includes(code) ? message : `${code} (${message})`;
  const origin = process.env.CHECKIN_BASE_URL
    ? 'CHECKIN_BASE_URL'
    : `CHECKIN_BASE_URL is not set; ${DEFAULT_BASE_URL} is its default`;
  return new Error(
    `${step}: could not reach the service at ${baseUrl} (${origin}): ${why}. Is it running ` +
      'there? Start it with `npm start`, or set CHECKIN_BASE_URL to where it runs.',
  );
}

/**
 * The answer's data, or a clear failure naming the step: the status and the API's error, or the
 * address that did not answer.
 */
async function must<T>(step: string, call: Promise<ApiResult<T>>): Promise<NonNullable<T>> {
  let result: ApiResult<T>;
  try {
    result = await call;
  } catch (failure) {
    // fetch rejects with a TypeError when no answer came (refused, unknown host, …).
    throw failure instanceof TypeError ? unreachable(step, failure) : failure;
  }
  const { data, error, response } = result;
  if (data === undefined || data === null || error !== undefined) {
    throw new Error(`${step}: HTTP ${response.status} ${JSON.stringify(error ?? null)}`);
  }
  return data;
}

interface VerifiedEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

/**
 * A local webhook receiver: verifies each delivery's Standard Webhooks signature with the
 * endpoint's secret (once it is known) and answers 204; a bad signature is answered 400.
 */
async function startReceiver() {
  let verifier: Webhook | undefined;
  const events: VerifiedEvent[] = [];
  let notify = () => {};
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        if (!verifier) throw new Error('secret not known yet');
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
        );
        events.push(
          verifier.verify(Buffer.concat(chunks).toString('utf8'), headers) as VerifiedEvent,
        );
        response.writeHead(204).end();
        notify();
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/checkin-webhooks`,
    useSecret(secret: string) {
      verifier = new Webhook(secret);
    },
    /** Resolves once an event of every type in `types` has arrived (rejects after the timeout). */
    async waitFor(types: readonly string[]): Promise<VerifiedEvent[]> {
      const deadline = Date.now() + WEBHOOK_TIMEOUT_MS;
      while (!types.every((type) => events.some((event) => event.type === type))) {
        const left = deadline - Date.now();
        if (left <= 0) {
          const seen = events.map((event) => event.type).join(', ') || 'none';
          throw new Error(`webhooks: waited ${WEBHOOK_TIMEOUT_MS} ms; received ${seen}`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 500));
          notify = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      return types.map((type) => events.find((event) => event.type === type)!);
    },
    // The service keeps its delivery connections alive: close them rather than wait them out.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function main(): Promise<void> {
  const apiKey = process.env.CHECKIN_API_KEY;
  if (!apiKey) {
    throw new Error(
      "Set CHECKIN_API_KEY to a sandbox enterprise's API key (`npm start` prints one on an " +
        'empty database; or `npm run cli:dev -- enterprises:create --name Me --sandbox`).',
    );
  }
  if (!/^https?:\/\/[^/]/i.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw new Error(
      `CHECKIN_BASE_URL must be the service's http:// or https:// address, such as ` +
        `${DEFAULT_BASE_URL} (it is "${baseUrl}").`,
    );
  }
  const checkin = createCheckinClient({ baseUrl, apiKey });
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const receiver = await startReceiver();
  try {
    // 1. A group: participants belong to groups; its key is needed to start check-ins.
    const group = await must(
      'create a group',
      checkin.POST('/groups', {
        body: { groupName: `Quickstart ${new Date().toISOString()}` },
      }),
    );
    say(`1. Group ${group.groupID} "${group.groupName}" created.`);

    // 2. A webhook endpoint for the group; its secret verifies every delivery.
    const webhook = await must(
      'subscribe a webhook',
      checkin.POST('/webhooks/{groupID}', {
        params: { path: { groupID: group.groupID } },
        body: { url: receiver.url, description: 'quickstart receiver' },
      }),
    );
    receiver.useSecret(webhook.secret);
    say(`2. Webhook ${webhook.id} → ${webhook.url} (events: ${webhook.enabledEvents.join(', ')}).`);

    // 3. A check-in for a new participant (an email the first time; their ok_ id afterwards).
    const email = `quickstart-${Date.now()}@example.com`;
    const session = await must(
      'start a check-in',
      checkin.POST('/session/create', {
        body: {
          groupID: group.groupID,
          groupKey: group.key,
          userIdentifier: email,
          returnURL: 'https://example.com/checkin-done',
        },
      }),
    );
    say(
      `3. Session ${session.sessionID} for ${session.userIdentifier}; the participant would open:`,
    );
    say(`   ${session.redirectUrl}`);

    // 4. Sandbox only: complete it as if the participant had checked in (the real ingestion path).
    await must(
      'complete the session (sandbox)',
      checkin.POST('/sandbox/sessions/{sessionID}/complete', {
        params: { path: { sessionID: session.sessionID } },
      }),
    );
    say('4. Session completed through the sandbox (a synthetic result).');

    // 5. The result, as far as the participant's privacy level lets the enterprise see it.
    const result = await must(
      'read the session',
      checkin.GET('/sessions/{sessionID}', {
        params: { path: { sessionID: session.sessionID } },
      }),
    );
    // A new participant shares nothing beyond level 0 until they choose more on their pages.
    const shown = Object.keys(result).join(', ');
    say(
      `5. GET /sessions/${session.sessionID} shows what the participant's level allows: ${shown}`,
    );

    // 6. Aggregates: the count is always answered; mhci stays null under the privacy floor.
    const count = await must(
      'read the count',
      checkin.GET('/metrics/groups/{groupID}/count', {
        params: { path: { groupID: group.groupID } },
      }),
    );
    const mhci = await must(
      'read the MHCI statistics',
      checkin.GET('/metrics/groups/{groupID}/mhci', {
        params: { path: { groupID: group.groupID } },
      }),
    );
    say(
      `6. Metrics: count ${JSON.stringify(count)}, mhci ${JSON.stringify(mhci)}` +
        (mhci.all === null
          ? ' (no sealed cohort cell yet: group scores come once a cell seals)'
          : ''),
    );

    // 7. The webhooks, signature verified.
    const events = await receiver.waitFor(EXPECTED_EVENTS);
    for (const event of events) {
      say(`7. Webhook ${event.type} ${event.id} verified: ${JSON.stringify(event.data.object)}`);
    }
    say('Done: the whole flow works. Next: the Swagger UI at ' + `${baseUrl}/docs`);
  } finally {
    await receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error(`Quickstart failed: ${(error as Error).message}`);
  process.exit(1);
});

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
 *
 * It leaves nothing that keeps working after it exits: the webhook endpoint would go on sending
 * the group's events to a receiver that is gone (and retrying them), so it is deleted before the
 * receiver closes — after every step, after a failed one, and on Ctrl-C or SIGTERM (the run stops
 * before its next call, and exits at the latest STOP_GRACE_MS after the signal). The group, the
 * participant and the session stay, as data to look at; the last lines name what is left and the
 * calls that delete it.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { createCheckinClient, type CheckinClient, type Schemas } from '../src';

const EXPECTED_EVENTS = ['user.created', 'user.session.result'] as const;
const WEBHOOK_TIMEOUT_MS = 30_000;
/** How long to wait for the service to record the outcome of the deliveries received. */
const RECORDING_TIMEOUT_MS = 5_000;
/** After a signal: how long the call under way, that wait and the deletion may take in all. */
const STOP_GRACE_MS = 10_000;
const DEFAULT_BASE_URL = 'http://localhost:3000';
const baseUrl = process.env.CHECKIN_BASE_URL || DEFAULT_BASE_URL;
const say = (line: string) => process.stdout.write(`${line}\n`);

interface ApiResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** What this run made in the enterprise, noted as each call answers: what to delete, what is left. */
const made: {
  group?: { groupID: number; groupName: string };
  webhook?: { id: string; deleted: boolean; failure?: string };
  participant?: string;
  session?: string;
} = {};

/** The run was stopped by a signal (Ctrl-C is SIGINT). */
class Interrupted extends Error {
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(`interrupted by ${signal}`);
  }
}

/** The first signal received: no call starts after it. */
let interruption: Interrupted | undefined;

function stopIfInterrupted(): void {
  if (interruption) throw interruption;
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
async function answer<T>(step: string, call: Promise<ApiResult<T>>): Promise<NonNullable<T>> {
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

/**
 * A step of the flow: `call` is made only if no signal came (so whatever a call creates is
 * noted before the run stops), and answers as {@link answer}.
 */
function must<T>(step: string, call: () => Promise<ApiResult<T>>): Promise<NonNullable<T>> {
  stopIfInterrupted();
  return answer(step, call());
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
  /** How many times each event (its `webhook-id`) was answered, whatever the answer. */
  const answered = new Map<string, number>();
  let notify = () => {};
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const eventId = request.headers['webhook-id'];
      if (typeof eventId === 'string') answered.set(eventId, (answered.get(eventId) ?? 0) + 1);
      try {
        if (!verifier) throw new Error('secret not known yet');
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
        );
        events.push(
          verifier.verify(Buffer.concat(chunks).toString('utf8'), headers) as VerifiedEvent,
        );
        response.writeHead(204).end();
      } catch {
        response.writeHead(400).end();
      }
      notify();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/checkin-webhooks`,
    answered,
    useSecret(secret: string) {
      verifier = new Webhook(secret);
    },
    /** Ends a wait at once (a signal came). */
    wake: () => notify(),
    /**
     * Resolves once an event of every type in `types` has arrived (rejects after the timeout, or
     * when a signal came).
     */
    async waitFor(types: readonly string[]): Promise<VerifiedEvent[]> {
      const deadline = Date.now() + WEBHOOK_TIMEOUT_MS;
      while (!types.every((type) => events.some((event) => event.type === type))) {
        stopIfInterrupted();
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

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * The endpoint's deliveries, once the service has recorded the outcome of each one the receiver
 * answered (or after RECORDING_TIMEOUT_MS). It records them moments after the answer; deleting
 * the endpoint before then would make that recording fail.
 */
async function recordedDeliveries(
  checkin: CheckinClient,
  groupID: number,
  webhookID: string,
  receiver: Receiver,
): Promise<Schemas['DeliveryDto'][]> {
  const deadline = Date.now() + RECORDING_TIMEOUT_MS;
  for (;;) {
    const deliveries = await answer(
      'list the deliveries',
      checkin.GET('/webhooks/{groupID}/{webhookID}/deliveries', {
        params: { path: { groupID, webhookID } },
      }),
    );
    const recorded = [...receiver.answered].every(([eventId, answers]) =>
      deliveries.some((delivery) => delivery.eventId === eventId && delivery.attempts >= answers),
    );
    if (recorded || Date.now() >= deadline) return deliveries;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Deletes the webhook endpoint this run made, if any, once the deliveries it received are
 * recorded. Never throws: a failure is noted in `made.webhook` (and named with what is left).
 */
async function deleteWebhook(checkin: CheckinClient, receiver: Receiver): Promise<void> {
  const { group, webhook } = made;
  if (!group || !webhook || webhook.deleted) return;
  try {
    await recordedDeliveries(checkin, group.groupID, webhook.id, receiver);
  } catch {
    // Delete it all the same: the deletion says what went wrong, if anything.
  }
  try {
    await answer(
      'delete the webhook',
      checkin.DELETE('/webhooks/{groupID}/{webhookID}', {
        params: { path: { groupID: group.groupID, webhookID: webhook.id } },
      }),
    );
    webhook.deleted = true;
    say(
      `Webhook ${webhook.id} deleted (DELETE /webhooks/${group.groupID}/${webhook.id}): ` +
        'nothing is sent to this receiver after it exits.',
    );
  } catch (error) {
    webhook.failure = (error as Error).message;
  }
}

/** Says what the run made and left in the enterprise, and the calls that delete it. */
function tellWhatIsLeft(): void {
  const { group, webhook, participant, session } = made;
  if (!group) return;
  const left: string[] = [];
  const calls: string[] = [];
  const call = (path: string, what: string) =>
    calls.push(`  curl -X DELETE -H "x-api-key: $CHECKIN_API_KEY" ${baseUrl}${path}    # ${what}`);
  if (webhook && !webhook.deleted) {
    const why = webhook.failure
      ? `deleting it failed: ${webhook.failure}`
      : `the service did not answer within ${STOP_GRACE_MS} ms of the signal`;
    left.push(
      `webhook ${webhook.id}, still enabled: it sends the group's events to a receiver that is ` +
        `gone (${why})`,
    );
    call(`/webhooks/${group.groupID}/${webhook.id}`, 'the webhook');
  }
  left.push(`group ${group.groupID} "${group.groupName}"`);
  call(`/groups/${group.groupID}`, 'the group, with its sessions, events and webhooks');
  if (participant) {
    left.push(`participant ${participant}` + (session ? ` and their session ${session}` : ''));
    call(`/participants/${participant}`, 'the participant (erased)');
  }
  say(`Left in your enterprise: ${left.join('; ')}. To delete (your key in CHECKIN_API_KEY):`);
  for (const line of calls) say(line);
}

/**
 * Ctrl-C (SIGINT) and SIGTERM stop the run before its next call: it deletes the webhook and exits,
 * within STOP_GRACE_MS whatever the service does. Later signals change nothing: `npm run` passes
 * the terminal's Ctrl-C on to the script, which then gets it twice.
 */
function stopOnSignals(receiver: Receiver): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interruption) return;
      const stop = new Interrupted(signal);
      interruption = stop;
      say(`${signal}: stopping after the call under way.`);
      receiver.wake();
      setTimeout(() => exit(stop), STOP_GRACE_MS).unref();
    });
  }
}

/** The steps, each noting in `made` what it created. */
async function run(checkin: CheckinClient, receiver: Receiver): Promise<void> {
  // 1. A group: participants belong to groups; its key is needed to start check-ins.
  const group = await must('create a group', () =>
    checkin.POST('/groups', {
      body: { groupName: `Quickstart ${new Date().toISOString()}` },
    }),
  );
  made.group = { groupID: group.groupID, groupName: group.groupName };
  say(`1. Group ${group.groupID} "${group.groupName}" created.`);

  // 2. A webhook endpoint for the group; its secret verifies every delivery.
  const webhook = await must('subscribe a webhook', () =>
    checkin.POST('/webhooks/{groupID}', {
      params: { path: { groupID: group.groupID } },
      body: { url: receiver.url, description: 'quickstart receiver' },
    }),
  );
  made.webhook = { id: webhook.id, deleted: false };
  receiver.useSecret(webhook.secret);
  say(`2. Webhook ${webhook.id} → ${webhook.url} (events: ${webhook.enabledEvents.join(', ')}).`);

  // 3. A check-in for a new participant (an email the first time; their ok_ id afterwards).
  const email = `quickstart-${Date.now()}@example.com`;
  const session = await must('start a check-in', () =>
    checkin.POST('/session/create', {
      body: {
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: email,
        returnURL: 'https://example.com/checkin-done',
      },
    }),
  );
  made.participant = session.userIdentifier;
  made.session = session.sessionID;
  say(`3. Session ${session.sessionID} for ${session.userIdentifier}; the participant would open:`);
  say(`   ${session.redirectUrl}`);

  // 4. Sandbox only: complete it as if the participant had checked in (the real ingestion path).
  await must('complete the session (sandbox)', () =>
    checkin.POST('/sandbox/sessions/{sessionID}/complete', {
      params: { path: { sessionID: session.sessionID } },
    }),
  );
  say('4. Session completed through the sandbox (a synthetic result).');

  // 5. The result, as far as the participant's privacy level lets the enterprise see it.
  const result = await must('read the session', () =>
    checkin.GET('/sessions/{sessionID}', {
      params: { path: { sessionID: session.sessionID } },
    }),
  );
  // A new participant shares nothing beyond level 0 until they choose more on their pages.
  const shown = Object.keys(result).join(', ');
  say(`5. GET /sessions/${session.sessionID} shows what the participant's level allows: ${shown}`);

  // 6. Aggregates: the count is always answered; mhci stays null until the check-in's month
  // (its release window) is released, 48 h after it ends (docs/metrics.md).
  const count = await must('read the count', () =>
    checkin.GET('/metrics/groups/{groupID}/count', {
      params: { path: { groupID: group.groupID } },
    }),
  );
  const mhci = await must('read the MHCI statistics', () =>
    checkin.GET('/metrics/groups/{groupID}/mhci', {
      params: { path: { groupID: group.groupID } },
    }),
  );
  say(
    `6. Metrics: count ${JSON.stringify(count)}, mhci ${JSON.stringify(mhci)}` +
      (mhci.all === null
        ? ' (not released yet: group scores come once this month is released, with enough participants)'
        : ''),
  );

  // 7. The webhooks, signature verified.
  const events = await receiver.waitFor(EXPECTED_EVENTS);
  for (const event of events) {
    say(`7. Webhook ${event.type} ${event.id} verified: ${JSON.stringify(event.data.object)}`);
  }

  // 8. What the service recorded of those deliveries (where to look when one goes wrong).
  stopIfInterrupted();
  const deliveries = await recordedDeliveries(checkin, group.groupID, webhook.id, receiver);
  const outcomes = deliveries
    .toReversed() // the list comes newest first
    .map((delivery) => `${delivery.eventType} ${delivery.status}`)
    .join(', ');
  say(`8. GET /webhooks/${group.groupID}/${webhook.id}/deliveries: ${outcomes}.`);
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
  const receiver = await startReceiver();
  stopOnSignals(receiver);
  try {
    await run(checkin, receiver);
  } finally {
    // Whatever happened above: the endpoint goes before the receiver does.
    await deleteWebhook(checkin, receiver);
    await receiver.close();
  }
  if (made.webhook?.failure) throw new Error(made.webhook.failure);
  say(`Done: the whole flow works. Next: the Swagger UI at ${baseUrl}/docs`);
}

/**
 * Ends the run: the failure (one line on stderr, exit code 1) or the interruption (exit code 128 +
 * the signal's number, as a shell reports it), then what is left.
 */
function exit(error?: unknown): void {
  if (error instanceof Interrupted) {
    console.error(`Quickstart stopped: ${error.message}.`);
  } else if (error !== undefined) {
    console.error(`Quickstart failed: ${(error as Error).message}`);
  }
  tellWhatIsLeft();
  if (error instanceof Interrupted) process.exit(128 + constants.signals[error.signal]);
  if (error !== undefined) process.exit(1);
}

main().then(
  () => exit(),
  (error: unknown) => exit(error),
);

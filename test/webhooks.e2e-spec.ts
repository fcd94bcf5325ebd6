import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { GroupErrors } from '../src/groups/groups.errors';
import { isPublicAddress } from '../src/webhooks/safe-http';
import { WebhookErrors } from '../src/webhooks/webhooks.errors';
import { ENGINE_TOKEN, engineResult, postResult } from './support/engine';
import { match } from './support/matchers';
import { strandJob } from './support/queues';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';
import { RetentionSweeper } from '../src/data-at-rest/retention.sweeper';
import { finalDeliveries } from './support/deliveries';
import { eventually, Reply, WebhookReceiver } from './support/webhook-receiver';

interface Endpoint {
  id: string;
  description: string;
  object: string;
  status: string;
  url: string;
  enabledEvents: string[];
  secret: string;
}

const result = engineResult();

describe('Webhooks', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let n = 0;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN, WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' });
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await t.close();
  });

  const addEndpoint = async (group: TestGroup, url: string, enterprise = acme) => {
    const response = await t.request('POST', `/webhooks/${group.groupID}`, {
      apiKey: enterprise.apiKey,
      body: { url, description: 'Receiver' },
    });
    expect(response.status).toBe(200);
    return response.body as Endpoint;
  };
  const firstSession = async (group: TestGroup) => {
    const response = await t.createSession(acme, group, `wh${++n}@example.com`);
    expect(response.status).toBe(200);
    return response.body as SessionCreated;
  };
  /** A new group with an endpoint at a new local receiver (at `path`), which answers `replies` first. */
  const groupWithReceiver = async (groupName: string, replies: Reply[] = [], path = '') => {
    const group = await t.newGroup(acme, groupName);
    const inbox = await new WebhookReceiver().start();
    receivers.push(inbox);
    inbox.replies.push(...replies);
    const endpoint = await addEndpoint(group, `${inbox.url}${path}`);
    return { group, inbox, endpoint };
  };
  const listEndpoints = async (group: TestGroup) =>
    (await t.request('GET', `/webhooks/${group.groupID}`, { apiKey: acme.apiKey }))
      .body as Endpoint[];
  const eventuallyDisabled = (group: TestGroup, endpoint: Endpoint) =>
    eventually(async () => {
      expect((await listEndpoints(group))[0]).toMatchObject({
        id: endpoint.id,
        status: 'disabled',
      });
    });

  describe('endpoint management', () => {
    it('creates an enabled endpoint for both events, with a whsec_ secret', async () => {
      const group = await t.newGroup(acme, 'CRUD');
      const response = await t.request('POST', `/webhooks/${group.groupID}`, {
        apiKey: acme.apiKey,
        body: { url: 'https://hooks.example.com/in', description: 'Production' },
      });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body as object)).toEqual([
        'id',
        'description',
        'object',
        'status',
        'url',
        'enabledEvents',
        'secret',
      ]);
      const endpoint = response.body as Endpoint;
      expect(endpoint).toEqual({
        id: match.stringMatching(/^we_[0-9A-Za-z]{24}$/),
        description: 'Production',
        object: 'webhook_endpoint',
        status: 'enabled',
        url: 'https://hooks.example.com/in',
        enabledEvents: ['user.created', 'user.session.result'],
        secret: match.stringMatching(/^whsec_/),
      });
      const listed = await t.request('GET', `/webhooks/${group.groupID}`, { apiKey: acme.apiKey });
      const { secret: _secret, ...withoutSecret } = endpoint;
      expect(listed.body).toEqual([withoutSecret]);
      const stored = await t.db.query<{ secret_ciphertext: string }>(
        'SELECT secret_ciphertext FROM webhook_endpoints WHERE id = $1',
        [endpoint.id],
      );
      expect(stored.rows[0].secret_ciphertext).not.toContain(endpoint.secret.slice(6));
    });

    it('updates url, description and status; deletes', async () => {
      const group = await t.newGroup(acme, 'Update');
      const endpoint = await addEndpoint(group, 'https://hooks.example.com/a');
      const path = `/webhooks/${group.groupID}/${endpoint.id}`;
      const updated = await t.request('PUT', path, {
        apiKey: acme.apiKey,
        body: { url: 'https://hooks.example.com/b', description: 'B', status: 'disabled' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        url: 'https://hooks.example.com/b',
        description: 'B',
        status: 'disabled',
      });
      expect((updated.body as Endpoint).secret).toBeUndefined();
      const enabled = await t.request('PUT', path, {
        apiKey: acme.apiKey,
        body: { status: 'enabled' },
      });
      expect(enabled.body).toMatchObject({ status: 'enabled', description: 'B' });
      const deleted = await t.request('DELETE', path, { apiKey: acme.apiKey });
      expect(deleted.body).toEqual({ message: 'success' });
      const again = await t.request('DELETE', path, { apiKey: acme.apiKey });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: WebhookErrors.NotFound });
    });

    it('answers every spec error string', async () => {
      const group = await t.newGroup(acme, 'Errors');
      const endpoint = await addEndpoint(group, 'https://hooks.example.com/e');
      const cases: [string, string, unknown, string][] = [
        [
          'POST',
          '/webhooks/',
          { url: 'https://x.example.com', description: 'd' },
          GroupErrors.GroupIdMissing,
        ],
        ['POST', '/webhooks/abc', {}, GroupErrors.GroupIdNotNumber],
        ['POST', `/webhooks/${group.groupID}`, { description: 'd' }, WebhookErrors.UrlMissing],
        [
          'POST',
          `/webhooks/${group.groupID}`,
          { url: 5, description: 'd' },
          WebhookErrors.UrlNotString,
        ],
        [
          'POST',
          `/webhooks/${group.groupID}`,
          { url: 'not a url', description: 'd' },
          WebhookErrors.InvalidUrl,
        ],
        [
          'POST',
          `/webhooks/${group.groupID}`,
          { url: 'ftp://x.example.com', description: 'd' },
          WebhookErrors.InvalidUrl,
        ],
        [
          'POST',
          `/webhooks/${group.groupID}`,
          { url: 'https://x.example.com' },
          WebhookErrors.DescriptionMissing,
        ],
        [
          'POST',
          `/webhooks/${group.groupID}`,
          { url: 'https://x.example.com', description: 1 },
          WebhookErrors.DescriptionNotString,
        ],
        [
          'POST',
          '/webhooks/999999',
          { url: 'https://x.example.com', description: 'd' },
          GroupErrors.NotFound,
        ],
        ['GET', '/webhooks/999999', undefined, GroupErrors.NotFound],
        ['PUT', `/webhooks/${group.groupID}/`, {}, WebhookErrors.WebhookIdMissing],
        ['DELETE', `/webhooks/${group.groupID}/`, undefined, WebhookErrors.WebhookIdMissing],
        ['PUT', `/webhooks//${endpoint.id}`, {}, GroupErrors.GroupIdMissing],
        ['DELETE', `/webhooks//${endpoint.id}`, undefined, GroupErrors.GroupIdMissing],
        ['PUT', `/webhooks/${group.groupID}/we_nothere`, {}, WebhookErrors.NotFound],
        [
          'DELETE',
          `/webhooks/${group.groupID}/we_${'A'.repeat(24)}`,
          undefined,
          WebhookErrors.NotFound,
        ],
        [
          'PUT',
          `/webhooks/${group.groupID}/${endpoint.id}`,
          { url: 7 },
          WebhookErrors.UrlNotString,
        ],
        [
          'PUT',
          `/webhooks/${group.groupID}/${endpoint.id}`,
          { url: 'nope' },
          WebhookErrors.InvalidUrl,
        ],
        [
          'PUT',
          `/webhooks/${group.groupID}/${endpoint.id}`,
          { description: false },
          WebhookErrors.DescriptionNotString,
        ],
        [
          'PUT',
          `/webhooks/${group.groupID}/${endpoint.id}`,
          { status: 'paused' },
          WebhookErrors.StatusInvalid,
        ],
      ];
      for (const [method, path, body, message] of cases) {
        const response = await t.request(method, path, { apiKey: acme.apiKey, body });
        expect({ method, path, status: response.status, body: response.body }).toEqual({
          method,
          path,
          status: 400,
          body: { error: message },
        });
      }
      expect(WebhookErrors.WebhookIdMissing).toBe('You are missing the path parameter webhookID');
      expect(WebhookErrors.UrlMissing).toBe('You are missing the body parameter url');
      expect(WebhookErrors.DescriptionMissing).toBe(
        'You are missing the body parameter description',
      );
    });

    it('another enterprise can neither list, change nor delete an endpoint', async () => {
      const group = await t.newGroup(acme, 'Tenancy');
      const endpoint = await addEndpoint(group, 'https://hooks.example.com/t');
      const path = `/webhooks/${group.groupID}/${endpoint.id}`;
      for (const [method, target, body] of [
        ['GET', `/webhooks/${group.groupID}`, undefined],
        [
          'POST',
          `/webhooks/${group.groupID}`,
          { url: 'https://evil.example.com', description: 'x' },
        ],
        ['PUT', path, { url: 'https://evil.example.com' }],
        ['DELETE', path, undefined],
        ['POST', `${path}/rotate-secret`, undefined],
        ['GET', `${path}/deliveries`, undefined],
      ] as const) {
        const response = await t.request(method, target, { apiKey: globex.apiKey, body });
        expect({ method, target, body: response.body }).toEqual({
          method,
          target,
          body: { error: GroupErrors.NotFound },
        });
      }
      const theirGroup = await t.newGroup(globex, 'Theirs');
      const wrongGroup = await t.request('PUT', `/webhooks/${theirGroup.groupID}/${endpoint.id}`, {
        apiKey: globex.apiKey,
        body: { url: 'https://evil.example.com' },
      });
      expect(wrongGroup.body).toEqual({ error: WebhookErrors.NotFound });
      const stored = await t.db.query<{ url: string }>(
        'SELECT url FROM webhook_endpoints WHERE id = $1',
        [endpoint.id],
      );
      expect(stored.rows[0].url).toBe('https://hooks.example.com/t');
    });
  });

  describe('delivery', () => {
    it('delivers user.created and user.session.result, signed so that standardwebhooks verifies', async () => {
      const { group, inbox, endpoint } = await groupWithReceiver('Deliver', [], '/hook');
      const session = await firstSession(group);
      await inbox.waitFor(1);
      const created = WebhookReceiver.verify(inbox.received[0], endpoint.secret);
      expect(created).toEqual({
        id: match.stringMatching(/^evt_[0-9a-f]{48}$/),
        object: 'event',
        type: 'user.created',
        created: match.stringMatching(/Z$/),
        data: {
          object: {
            groupID: group.groupID,
            userIdentifier: session.userIdentifier,
            email: `wh${n}@example.com`,
          },
        },
      });
      expect(inbox.received[0].headers['webhook-id']).toBe(created.id);
      expect(inbox.received[0].path).toBe('/hook');

      const ingest = await postResult(t, session.sessionID, result);
      expect(ingest.status).toBe(200);
      await inbox.waitFor(2);
      expect(WebhookReceiver.verify(inbox.received[1], endpoint.secret)).toMatchObject({
        type: 'user.session.result',
        data: {
          object: {
            groupID: group.groupID,
            sessionID: session.sessionID,
            externalUserID: session.userIdentifier,
            timestamp: match.stringMatching(/Z$/),
          },
        },
      });
    });

    it('retries a failure with the same webhook-id, re-signed', async () => {
      const { group, inbox, endpoint } = await groupWithReceiver('Retry', [{ status: 500 }]);
      await firstSession(group);
      const [first, second] = await inbox.waitFor(2);
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(second.at - first.at).toBeGreaterThanOrEqual(800);
      WebhookReceiver.verify(second, endpoint.secret);
      // The receiver has answered; the worker records the outcome just after.
      type Delivery = { status: string; attempts: number; attemptLog: { statusCode: number }[] };
      let delivery: Delivery | undefined;
      await eventually(async () => {
        const deliveries = await t.request(
          'GET',
          `/webhooks/${group.groupID}/${endpoint.id}/deliveries`,
          { apiKey: acme.apiKey },
        );
        expect(deliveries.status).toBe(200);
        delivery = (deliveries.body as Delivery[])[0];
        expect(delivery?.status).toBe('delivered');
      });
      expect(delivery).toMatchObject({
        status: 'delivered',
        attempts: 2,
        eventType: 'user.created',
      });
      expect(delivery!.attemptLog.map((attempt) => attempt.statusCode)).toEqual([500, 200]);
    });

    it('re-queues a delivery whose Bull job is stranded (held by Bull but in no list)', async () => {
      const { group, inbox } = await groupWithReceiver('Stranded');
      await firstSession(group);
      const [first] = await inbox.waitFor(1);
      // Outcomes are recorded in batches just after the send: wait for this one's.
      await eventually(async () => {
        const { rows } = await t.db.query<{ status: string }>(
          'SELECT status FROM webhook_deliveries WHERE event_id = $1',
          [String(first.headers['webhook-id'])],
        );
        expect(rows[0]?.status).toBe('delivered');
      });
      // As after a Redis crash: the delivery is pending again and its recorded job is stranded.
      const strandedJob = `stranded-${n}`;
      await strandJob(t, 'webhooks', 'deliver', strandedJob);
      await t.db.query(
        `UPDATE webhook_deliveries
            SET status = 'pending', next_attempt_at = now() - interval '1 minute',
                locked_until = NULL, queued_at = now() - interval '1 minute', queue_job_id = $2
          WHERE event_id = $1`,
        [String(first.headers['webhook-id']), strandedJob],
      );
      const [, again] = await inbox.waitFor(2, 15_000);
      expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    });

    it('a 410 disables the endpoint', async () => {
      const { group, inbox, endpoint } = await groupWithReceiver('Gone', [{ status: 410 }]);
      await firstSession(group);
      await inbox.waitFor(1);
      await eventuallyDisabled(group, endpoint);
      await firstSession(group);
      // Nothing more can come: the endpoint's one delivery is final (a 410 is not retried), and
      // the disabled endpoint got none for the new event.
      expect(await finalDeliveries(t.db, [endpoint.id])).toEqual([
        {
          endpointId: endpoint.id,
          eventId: inbox.received[0].headers['webhook-id'],
          status: 'failed',
          attempts: 1,
        },
      ]);
      expect(inbox.received).toHaveLength(1);
    });

    it('does not follow redirects', async () => {
      const { group, inbox } = await groupWithReceiver('Redirect', [], '/hook');
      inbox.replies.push({ status: 302, headers: { location: `${inbox.url}/elsewhere` } });
      await firstSession(group);
      await inbox.waitFor(2);
      expect(inbox.received.map((request) => request.path)).toEqual(['/hook', '/hook']);
    });

    it("never sends one group's events to another group's endpoint", async () => {
      const { group: groupA, inbox: inboxA, endpoint: endpointA } = await groupWithReceiver('A');
      const groupB = await t.newGroup(acme, 'B');
      await firstSession(groupB);
      await firstSession(groupA);
      await inboxA.waitFor(1);
      // The endpoint's only delivery is of group A's event, and it is final: group B's event has
      // none that could still be sent to it.
      expect(await finalDeliveries(t.db, [endpointA.id])).toEqual([
        {
          endpointId: endpointA.id,
          eventId: inboxA.received[0].headers['webhook-id'],
          status: 'delivered',
          attempts: 1,
        },
      ]);
      expect(inboxA.received).toHaveLength(1);
      expect(WebhookReceiver.verify(inboxA.received[0], endpointA.secret)).toMatchObject({
        data: { object: { groupID: groupA.groupID } },
      });
    });

    it('rotating the secret signs with both for a while; the old one still verifies', async () => {
      const { group, inbox, endpoint } = await groupWithReceiver('Rotate');
      const rotated = await t.request(
        'POST',
        `/webhooks/${group.groupID}/${endpoint.id}/rotate-secret`,
        {
          apiKey: acme.apiKey,
        },
      );
      expect(rotated.status).toBe(200);
      const newSecret = (rotated.body as Endpoint).secret;
      expect(newSecret).not.toBe(endpoint.secret);
      await firstSession(group);
      const [delivery] = await inbox.waitFor(1);
      expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
      WebhookReceiver.verify(delivery, newSecret);
      WebhookReceiver.verify(delivery, endpoint.secret);
    });

    it('sends a webhook.test event and redelivers on request', async () => {
      const { group, inbox, endpoint } = await groupWithReceiver('Test event');
      const sent = await t.request('POST', `/webhooks/${group.groupID}/${endpoint.id}/test`, {
        apiKey: acme.apiKey,
      });
      expect(sent.status).toBe(200);
      await inbox.waitFor(1);
      expect(WebhookReceiver.verify(inbox.received[0], endpoint.secret)).toMatchObject({
        id: (sent.body as { eventId: string }).eventId,
        type: 'webhook.test',
      });
      const [delivery] = (
        await t.request('GET', `/webhooks/${group.groupID}/${endpoint.id}/deliveries`, {
          apiKey: acme.apiKey,
        })
      ).body as { id: string }[];
      const again = await t.request(
        'POST',
        `/webhooks/${group.groupID}/${endpoint.id}/deliveries/${delivery.id}/redeliver`,
        { apiKey: acme.apiKey },
      );
      expect(again.body).toEqual({ message: 'success' });
      await inbox.waitFor(2);
      expect(inbox.received[1].headers['webhook-id']).toBe(inbox.received[0].headers['webhook-id']);
      const unknown = await t.request(
        'POST',
        `/webhooks/${group.groupID}/${endpoint.id}/deliveries/00000000-0000-0000-0000-000000000000/redeliver`,
        { apiKey: acme.apiKey },
      );
      expect(unknown.body).toEqual({ error: WebhookErrors.DeliveryNotFound });
    });

    it("clears an event's email once delivered (retention); a redelivered user.created then carries email: null", async () => {
      const { group, inbox, endpoint } = await groupWithReceiver('Retention');
      const session = await firstSession(group);
      await inbox.waitFor(1);
      expect(WebhookReceiver.verify(inbox.received[0], endpoint.secret)).toMatchObject({
        data: { object: { email: `wh${n}@example.com` } },
      });
      const deliveries = async () =>
        (
          await t.request('GET', `/webhooks/${group.groupID}/${endpoint.id}/deliveries`, {
            apiKey: acme.apiKey,
          })
        ).body as { id: string; status: string }[];
      await eventually(async () => expect((await deliveries())[0].status).toBe('delivered'));
      const pii = () =>
        t.db.query<{ held: boolean }>(
          `SELECT encrypted_pii IS NOT NULL AS held FROM events
            WHERE group_id = $1 AND type = 'user.created'`,
          [group.groupID],
        );
      expect((await pii()).rows).toEqual([{ held: true }]);

      await t.app.get(RetentionSweeper).sweep();
      expect((await pii()).rows).toEqual([{ held: false }]);

      const again = await t.request(
        'POST',
        `/webhooks/${group.groupID}/${endpoint.id}/deliveries/${(await deliveries())[0].id}/redeliver`,
        { apiKey: acme.apiKey },
      );
      expect(again.body).toEqual({ message: 'success' });
      await inbox.waitFor(2);
      const redelivered = WebhookReceiver.verify(inbox.received[1], endpoint.secret);
      expect(redelivered).toMatchObject({ id: inbox.received[0].headers['webhook-id'] });
      expect(redelivered.data).toEqual({
        object: { groupID: group.groupID, userIdentifier: session.userIdentifier, email: null },
      });
    });

    it('deleting an endpoint stops its pending deliveries; deleting the group removes endpoints', async () => {
      const { group, inbox, endpoint } = await groupWithReceiver('Delete', [{ status: 500 }]);
      await firstSession(group);
      await inbox.waitFor(1);
      // The 500 is recorded: the delivery waits, unleased, for its retry (1 s later).
      await eventually(async () => {
        const { rows } = await t.db.query(
          `SELECT status, attempts, locked_until IS NULL AS unleased, next_attempt_at > now() AS later
             FROM webhook_deliveries WHERE endpoint_id = $1`,
          [endpoint.id],
        );
        expect(rows).toEqual([{ status: 'pending', attempts: 1, unleased: true, later: true }]);
      });
      await t.request('DELETE', `/webhooks/${group.groupID}/${endpoint.id}`, {
        apiKey: acme.apiKey,
      });
      // Its deliveries went with it: there is nothing left to send.
      const left = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1',
        [endpoint.id],
      );
      expect(left.rows[0].n).toBe(0);
      expect(inbox.received).toHaveLength(1);
      const other = await addEndpoint(group, inbox.url);
      await t.request('DELETE', `/groups/${group.groupID}`, { apiKey: acme.apiKey });
      const stored = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_endpoints WHERE id = $1',
        [other.id],
      );
      expect(stored.rows[0].n).toBe(0);
    });
  });
});

describe('Webhooks: SSRF guard on', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let group: TestGroup;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_RETRY_SCHEDULE: '1s' });
    acme = await t.newEnterprise('Acme');
    group = await t.newGroup(acme, 'Guarded');
  });
  afterAll(() => t.close());

  it.each([
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://172.16.0.1/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://2130706433/hook',
    'https://0177.0.0.1/hook',
    'https://localhost/hook',
    'http://hooks.example.com/plain-http',
  ])('refuses to register %s', async (url) => {
    const response = await t.request('POST', `/webhooks/${group.groupID}`, {
      apiKey: acme.apiKey,
      body: { url, description: 'x' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: WebhookErrors.InvalidUrl });
  });

  it('refuses at send time a name that resolves to a private address', async () => {
    // This machine's own name resolves to a loopback address (/etc/hosts): a name, not a literal,
    // so it passes registration and must be caught when the delivery resolves it.
    const host = hostname();
    const { address } = await lookup(host);
    expect(isPublicAddress(address)).toBe(false);
    const created = await t.request('POST', `/webhooks/${group.groupID}`, {
      apiKey: acme.apiKey,
      body: { url: `https://${host}/hook`, description: 'resolves privately' },
    });
    expect(created.status).toBe(200);
    const endpoint = created.body as Endpoint;
    await t.createSession(acme, group, 'ssrf@example.com');
    let attempts: { error: string | null }[] = [];
    await eventually(async () => {
      const deliveries = (
        await t.request('GET', `/webhooks/${group.groupID}/${endpoint.id}/deliveries`, {
          apiKey: acme.apiKey,
        })
      ).body as { attemptLog: { error: string | null }[] }[];
      attempts = deliveries[0]?.attemptLog ?? [];
      expect(attempts.length).toBeGreaterThan(0);
    }, 10_000);
    // The deliveries API does not say which address the name resolved to (the log does).
    expect(attempts[0].error).toBe('address not allowed');
  });
});

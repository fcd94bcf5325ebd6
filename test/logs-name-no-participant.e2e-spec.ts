/**
 * Logs name no participant (docs/security.md, "Logs"): the built API (with its workers), logging
 * at info as in production, is driven through a participant's whole life — check-ins, results,
 * reads by ID, a mistyped email in a path, a webhook delivery, the erasure and the reads after
 * it. Its output is then searched as an operator's `grep` would search the log store: the
 * external ID, the session IDs and the email appear nowhere, before or after the erasure; the
 * access lines carry route templates.
 */
import { createTestDatabase, dropDatabase } from './support/databases';
import { ENGINE_TOKEN, engineHeaders, engineResult } from './support/engine';
import { request } from './support/http';
import {
  createEnterpriseWithCli,
  freePort,
  RunningProcess,
  serviceEnv,
  startService,
} from './support/processes';
import { WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(60_000);

const EMAIL = 'ana.logged@example.com';

describe('Logs name no participant', () => {
  let databaseName: string;
  let api: RunningProcess;
  let receiver: WebhookReceiver;
  let port: number;

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    receiver = await new WebhookReceiver().start();
    port = await freePort();
    const env = serviceEnv(databaseName, {
      RUN_WORKERS: 'true',
      ENGINE_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_SWEEP_INTERVAL_MS: '200',
      LOG_LEVEL: 'info',
      OPS_PORT: '0',
    });
    api = await startService(env, port);
  });
  afterAll(async () => {
    await api?.stop();
    await receiver?.stop();
    await dropDatabase(databaseName);
  });

  it('after a participant’s check-ins, reads by their IDs and their erasure, the log holds no external ID, session ID or email', async () => {
    const env = serviceEnv(databaseName);
    const { apiKey } = await createEnterpriseWithCli(env, 'Acme');
    const call = (method: string, path: string, body?: unknown) =>
      request(`http://127.0.0.1:${port}`, method, path, { apiKey, body });
    const postResult = (sessionId: string) =>
      request(`http://127.0.0.1:${port}`, 'POST', `/internal/sessions/${sessionId}/result`, {
        headers: engineHeaders(),
        body: engineResult(),
      });
    // Status and body together, so a failure says what the API answered.
    const groupAnswer = await call('POST', '/groups', { groupName: 'Team' });
    expect({ status: groupAnswer.status, body: groupAnswer.body }).toMatchObject({ status: 200 });
    const group = groupAnswer.body as { groupID: number; key: string };
    const hook = await call('POST', `/webhooks/${group.groupID}`, {
      url: receiver.url,
      description: 'receiver',
    });
    expect({ status: hook.status, body: hook.body }).toMatchObject({ status: 200 });
    const sessions: string[] = [];
    let externalId = EMAIL;
    for (let i = 0; i < 2; i++) {
      const created = (
        await call('POST', '/session/create', {
          groupID: group.groupID,
          groupKey: group.key,
          userIdentifier: externalId,
          returnURL: 'https://example.com/back',
        })
      ).body as { sessionID: string; userIdentifier: string };
      externalId = created.userIdentifier;
      sessions.push(created.sessionID);
      const posted = await postResult(created.sessionID);
      expect({ status: posted.status, body: posted.body }).toEqual({
        status: 200,
        body: { message: 'success' },
      });
    }
    expect((await call('GET', `/participants/${externalId}/consents`)).status).toBe(200);
    expect((await call('GET', `/sessions/${sessions[0]}`)).status).toBe(200);
    // A caller who types an email where the external ID goes.
    expect((await call('GET', `/participants/${EMAIL}`)).status).toBe(400);
    expect((await call('GET', `/no/such/route/${sessions[1]}`)).status).toBe(404);

    // user.created and two user.session.result (the endpoint's default events) delivered before
    // the erasure: it deletes the events that name the participant, with their pending deliveries
    // (erasure.service.ts), so on a slow machine a delivery still waiting would never come.
    await receiver.waitFor(3, 15_000);

    expect((await call('DELETE', `/participants/${externalId}`)).status).toBe(200);
    expect((await call('GET', `/participants/${externalId}`)).status).toBe(400);
    expect((await call('GET', `/sessions/${sessions[1]}`)).status).toBe(400);
    expect((await postResult(sessions[1])).status).toBe(400);

    const output = api.output();
    for (const needle of [externalId, EMAIL, ...sessions]) {
      const lines = output.split('\n').filter((line) => line.includes(needle));
      expect({ needle, lines }).toEqual({ needle, lines: [] });
    }
    const paths = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { route?: string })
      .flatMap((line) => (line.route ? [line.route] : []));
    expect(paths).toEqual(
      expect.arrayContaining([
        '/participants/:externalID/consents',
        '/participants/:externalID',
        '/sessions/:sessionID',
        '/internal/sessions/:sessionID/result',
        'unmatched',
      ]),
    );
  });
});

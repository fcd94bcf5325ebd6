import { CommonErrors } from '../src/common/errors/common.errors';
import { GroupErrors } from '../src/groups/groups.errors';
import { connect } from 'node:net';
import { startTestApp, TestApp, TestEnterprise } from './support/test-app';

/** One request written as raw bytes (a method fetch would refuse to send); its status and body. */
function rawRequest(
  baseUrl: string,
  head: string,
): Promise<{ status: number; contentType: string | null; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [headers, ...rest] = received.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]);
      const contentType = /\r\ncontent-type: ([^\r]*)/i.exec(headers)?.[1] ?? null;
      resolve({ status, contentType, body: rest.join('\r\n\r\n') });
    });
  });
}

describe('Error contract', () => {
  let t: TestApp;
  let acme: TestEnterprise;

  beforeAll(async () => {
    t = await startTestApp();
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  it('answers 404 {"error":"Not found"} for unknown routes, with or without a key', async () => {
    for (const apiKey of [undefined, acme.apiKey]) {
      for (const path of ['/nope', '/groups/1/nope', '/GROUPS', '/']) {
        const response = await t.request('GET', path, { apiKey });
        expect({ path, status: response.status, text: response.text }).toEqual({
          path,
          status: 404,
          text: JSON.stringify({ error: CommonErrors.NotFound }),
        });
      }
    }
  });

  it('answers 404 {"error":"Not found"} for URLs the router cannot match (bad %-escape, overlong parameter)', async () => {
    for (const apiKey of [undefined, acme.apiKey]) {
      for (const path of ['/groups/%zz', '/sessions/%E0%A4%A', `/sessions/${'s'.repeat(3000)}`]) {
        const response = await t.request('GET', path, { apiKey });
        expect({ path, status: response.status, text: response.text }).toEqual({
          path,
          status: 404,
          text: JSON.stringify({ error: CommonErrors.NotFound }),
        });
        expect(response.headers.get('x-request-id')).toMatch(/\S/);
      }
    }
  });

  it('answers 404 Not found for a wrong method on a known path', async () => {
    for (const [method, path] of [
      ['PATCH', '/groups'],
      ['DELETE', '/groups/1/participants'],
      ['POST', '/groups/1'],
    ]) {
      const response = await t.request(method, path, { apiKey: acme.apiKey });
      expect({ method, path, status: response.status, body: response.body }).toEqual({
        method,
        path,
        status: 404,
        body: { error: CommonErrors.NotFound },
      });
    }
  });

  it('answers 413 Payload too large for a body over 1 MiB, and creates nothing', async () => {
    const rawBody = JSON.stringify({ groupName: 'x'.repeat(1024 * 1024) });
    const response = await t.request('POST', '/groups', { apiKey: acme.apiKey, rawBody });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: CommonErrors.PayloadTooLarge });
    const groups = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM groups');
    expect(groups.rows[0].n).toBe(0);
  });

  it('accepts a body just under 1 MiB (then validates it)', async () => {
    const rawBody = JSON.stringify({ groupName: 'x'.repeat(1024 * 1024 - 100) });
    const response = await t.request('POST', '/groups', { apiKey: acme.apiKey, rawBody });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: GroupErrors.GroupNameTooLong });
  });

  // The participant pages read form bodies; the API routes still refuse them.
  it.each(['text/plain', 'application/x-www-form-urlencoded'])(
    'answers 415 for a body of type %s, after authentication',
    async (contentType) => {
      const response = await t.request('POST', '/groups', {
        apiKey: acme.apiKey,
        rawBody: 'groupName=x',
        contentType,
      });
      expect(response.status).toBe(415);
      expect(response.body).toEqual({ error: CommonErrors.UnsupportedMediaType });
      const anonymous = await t.request('POST', '/groups', { rawBody: 'groupName=x', contentType });
      expect(anonymous.status).toBe(401);
    },
  );

  it('answers a method no route has, even one HTTP does not define, 404 {"error":"Not found"}, with or without a key', async () => {
    for (const method of ['QUERY', 'FOO', 'PROPFIND', 'BREW']) {
      for (const apiKey of [undefined, acme.apiKey]) {
        const answer = await rawRequest(
          t.baseUrl,
          `${method} /groups HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            (apiKey ? `x-api-key: ${apiKey}\r\n` : '') +
            'Connection: close\r\n\r\n',
        );
        expect({ method, apiKey: Boolean(apiKey), ...answer }).toEqual({
          method,
          apiKey: Boolean(apiKey),
          status: 404,
          contentType: 'application/json; charset=utf-8',
          body: JSON.stringify({ error: CommonErrors.NotFound }),
        });
      }
    }
  });

  it.each([
    ['PUT', '/groups/{groupID}'],
    ['PUT', '/webhooks/{groupID}/{webhookID}'],
    ['POST', '/groups'],
    ['POST', '/session/create'],
  ])(
    '%s %s with JSON that is not an object answers Invalid JSON body and changes nothing',
    async (method, template) => {
      const group = await t.newGroup(acme, `Not an object ${method} ${template}`);
      const webhook = await t.request('POST', `/webhooks/${group.groupID}`, {
        apiKey: acme.apiKey,
        body: { url: 'https://hooks.example.com/in' },
      });
      const webhookID = (webhook.body as { webhookID: string }).webhookID;
      const path = template
        .replace('{groupID}', String(group.groupID))
        .replace('{webhookID}', webhookID);
      const read = async () => ({
        group: (await t.request('GET', `/groups/${group.groupID}`, { apiKey: acme.apiKey })).body,
        webhooks: (await t.request('GET', `/webhooks/${group.groupID}`, { apiKey: acme.apiKey }))
          .body,
      });
      const before = await read();
      for (const rawBody of ['[]', '"str"', '42', 'null', 'false', '[{"groupName":"x"}]']) {
        const answer = await t.request(method, path, { apiKey: acme.apiKey, rawBody });
        expect({ rawBody, status: answer.status, body: answer.body }).toEqual({
          rawBody,
          status: 400,
          body: { error: CommonErrors.InvalidJsonBody },
        });
      }
      expect(await read()).toEqual(before);
    },
  );

  it('treats an empty JSON body as an absent one', async () => {
    const response = await t.request('POST', '/groups', { apiKey: acme.apiKey, rawBody: '' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: GroupErrors.GroupNameMissing });
  });

  it('gives every response a request id, echoing a well-formed caller id', async () => {
    const generated = await t.request('GET', '/groups', { apiKey: acme.apiKey });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.request('GET', '/nope', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const refused = await t.request('GET', '/nope', {
      headers: { 'x-request-id': 'bad id\u00e9' },
    });
    expect(refused.headers.get('x-request-id')).not.toContain('bad');
  });

  it('serves the health check without a key', async () => {
    const response = await t.request('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  describe('unexpected failures', () => {
    it('answers 500 {"error":"Internal server error"} with a request id, and no details', async () => {
      // Break the schema under the running app: the query fails in a way no client input can cause.
      await t.db.query('ALTER TABLE groups RENAME COLUMN credits TO credits_gone');
      try {
        const response = await t.request('GET', '/groups', {
          apiKey: acme.apiKey,
          headers: { 'x-request-id': 'trace-500' },
        });
        expect(response.status).toBe(500);
        expect(response.text).toBe(JSON.stringify({ error: CommonErrors.InternalServerError }));
        expect(response.headers.get('x-request-id')).toBe('trace-500');
      } finally {
        await t.db.query('ALTER TABLE groups RENAME COLUMN credits_gone TO credits');
      }
      expect((await t.request('GET', '/groups', { apiKey: acme.apiKey })).status).toBe(200);
    });
  });
});

import { CommonErrors } from '../src/common/errors/common.errors';
import { presentedAdminToken } from '../src/queues/queue-dashboard';
import { startTestApp, TestApp } from './support/test-app';

const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';

describe('Queue dashboard (Bull Board)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
  });
  afterAll(() => t.close());

  it('refuses requests without the admin token, or with an API key', async () => {
    const acme = await t.newEnterprise('Acme');
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { 'x-api-key': acme.apiKey },
    ];
    for (const headers of attempts) {
      const response = await t.request('GET', '/admin/queues', { headers });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: CommonErrors.Unauthorized });
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="queues"');
    }
  });

  it('serves the dashboard and its API to the token, as bearer or basic auth', async () => {
    const page = await t.request('GET', '/admin/queues', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
    const basic = Buffer.from(`ops:${ADMIN_TOKEN}`).toString('base64');
    const queues = await t.request('GET', '/admin/queues/api/queues', {
      headers: { authorization: `Basic ${basic}` },
    });
    expect(queues.status).toBe(200);
    expect(JSON.stringify(queues.body)).toContain('webhooks');
  });

  it('reads the token from either scheme', () => {
    expect(presentedAdminToken('Bearer abc')).toBe('abc');
    expect(presentedAdminToken(`Basic ${Buffer.from('u:p:q').toString('base64')}`)).toBe('p:q');
    expect(presentedAdminToken('Basic !!!')).toBeNull();
    expect(presentedAdminToken(undefined)).toBeNull();
  });
});

describe('Queue dashboard without ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is off', async () => {
    const response = await t.request('GET', '/admin/queues');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: CommonErrors.NotFound });
  });
});

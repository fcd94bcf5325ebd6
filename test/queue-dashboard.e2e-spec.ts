import { getQueueToken } from '@nestjs/bull';
import type { Job, JobOptions, JobStatus, Queue } from 'bull';
import { CommonErrors } from '../src/common/errors/common.errors';
import { presentedAdminToken, QueueDashboardErrors } from '../src/queues/queue-dashboard';
import { startTestApp, TestApp } from './support/test-app';

const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };

/**
 * Jobs in every state a write action acts on, in the `webhooks` queue (nothing consumes it: the
 * tests start the API without workers). Their names are no job type of the service.
 */
interface Seeded {
  waiting: Job;
  delayed: Job;
  failed: Job;
  /** Delayed and created a minute ago: past the 5 s grace of Bull Board's "clean all". */
  oldDelayed: Job;
}

async function seed(queue: Queue): Promise<Seeded> {
  const failing = await queue.add('dashboard-probe', { n: 1 });
  // Taken as a worker would (wait → active, locked), then failed.
  const taken = await queue.getNextJob();
  if (!taken) throw new Error('seed: no job to take');
  expect(taken.id).toBe(failing.id);
  await taken.moveToFailed({ message: 'probe failed' });
  const waiting = await queue.add('dashboard-probe', { n: 2 });
  const delayed = await queue.add('dashboard-probe', { n: 3 }, { delay: 3_600_000 });
  // Bull 4 takes a job's creation time from `timestamp` (lib/job.js); its types leave it out.
  const backdated: JobOptions & { timestamp: number } = {
    delay: 3_600_000,
    timestamp: Date.now() - 60_000,
  };
  const oldDelayed = await queue.add('dashboard-probe', { n: 4 }, backdated);
  return { waiting, delayed, failed: taken, oldDelayed };
}

/** What a write action would change: paused, the counts, each seeded job's state. */
async function stateOf(queue: Queue, seeded: Seeded) {
  const states: Record<string, JobStatus | 'stuck' | 'gone'> = {};
  for (const name of Object.keys(seeded) as (keyof Seeded)[]) {
    const current = await queue.getJob(seeded[name].id);
    states[name] = current ? await current.getState() : 'gone';
  }
  return { paused: await queue.isPaused(), counts: await queue.getJobCounts(), states };
}

/** Every write route of Bull Board (its routes.ts, @bull-board/api 9), on the seeded jobs. */
const writeRoutes = (seeded: Seeded): [string, string, unknown?][] => [
  ['PUT', '/api/queues/pause'],
  ['PUT', '/api/queues/resume'],
  ['PUT', '/api/queues/webhooks/pause'],
  ['PUT', '/api/queues/webhooks/resume'],
  ['PUT', '/api/queues/webhooks/clean/delayed'],
  ['PUT', '/api/queues/webhooks/clean/failed'],
  ['PUT', '/api/queues/webhooks/retry/failed'],
  ['PUT', '/api/queues/webhooks/promote'],
  ['PUT', '/api/queues/webhooks/empty'],
  ['PUT', '/api/queues/webhooks/obliterate', { force: true }],
  ['POST', '/api/queues/webhooks/add', { name: 'dashboard-probe', data: {} }],
  ['PUT', `/api/queues/webhooks/${seeded.failed.id}/retry`],
  ['PUT', `/api/queues/webhooks/${seeded.waiting.id}/clean`],
  ['PUT', `/api/queues/webhooks/${seeded.delayed.id}/promote`],
  ['PATCH', `/api/queues/webhooks/${seeded.waiting.id}/update-data`, { data: { n: 9 } }],
  ['PATCH', `/api/queues/webhooks/${seeded.delayed.id}/delay`, { delay: 1 }],
  ['PUT', '/api/queues/webhooks/concurrency', { concurrency: 1 }],
];

/** Redis's INFO fields Bull Board's redis/stats would answer. */
const REDIS_INFO = /redis_version|used_memory|tcp_port|"version"|"os"|"uptime"/;

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

describe('Queue dashboard, read-only (the default)', () => {
  let t: TestApp;
  let queue: Queue;
  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN, RUN_WORKERS: 'false' });
    queue = t.app.get<Queue>(getQueueToken('webhooks'), { strict: false });
  });
  afterAll(() => t.close());

  it('refuses every write action, and nothing changes in Redis', async () => {
    const seeded = await seed(queue);
    const before = await stateOf(queue, seeded);
    expect(before).toEqual({
      paused: false,
      counts: { waiting: 1, active: 0, completed: 0, failed: 1, delayed: 2, paused: 0 },
      states: { waiting: 'waiting', delayed: 'delayed', failed: 'failed', oldDelayed: 'delayed' },
    });
    for (const [method, path, body] of writeRoutes(seeded)) {
      const response = await t.request(method, `/admin/queues${path}`, { headers: ADMIN, body });
      expect({ method, path, status: response.status, body: response.body }).toEqual({
        method,
        path,
        status: 403,
        body: { error: QueueDashboardErrors.ReadOnly },
      });
    }
    expect(await stateOf(queue, seeded)).toEqual(before);
  });

  it('tells the board it is read-only (no buttons), and still shows the queues', async () => {
    const response = await t.request('GET', '/admin/queues/api/queues', { headers: ADMIN });
    expect(response.status).toBe(200);
    const { queues } = response.body as { queues: { name: string; readOnlyMode: boolean }[] };
    expect(queues.map((entry) => [entry.name, entry.readOnlyMode])).toEqual([
      ['webhooks', true],
      ['emails', true],
    ]);
  });

  it('does not expose Redis INFO, nor the workers’ addresses', async () => {
    for (const path of ['/api/redis/stats', '/api/queues/webhooks/workers']) {
      const response = await t.request('GET', `/admin/queues${path}`, { headers: ADMIN });
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 404,
        body: { error: CommonErrors.NotFound },
      });
      expect(response.text).not.toMatch(REDIS_INFO);
    }
  });
});

describe('Queue dashboard with ADMIN_DASHBOARD_WRITE=true', () => {
  let t: TestApp;
  let queue: Queue;
  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN, ADMIN_DASHBOARD_WRITE: 'true', RUN_WORKERS: 'false' });
    queue = t.app.get<Queue>(getQueueToken('webhooks'), { strict: false });
  });
  afterAll(() => t.close());

  /** A write action Bull Board carries out (its answers are 200 or 204). */
  const put = async (path: string) => {
    const response = await t.request('PUT', `/admin/queues${path}`, { headers: ADMIN });
    expect({ path, succeeded: response.status >= 200 && response.status < 300 }).toEqual({
      path,
      succeeded: true,
    });
  };

  it('pauses and resumes a queue, retries, promotes and removes a job, cleans a state', async () => {
    const seeded = await seed(queue);
    await put('/api/queues/webhooks/pause');
    expect(await queue.isPaused()).toBe(true);
    await put('/api/queues/webhooks/resume');
    expect(await queue.isPaused()).toBe(false);
    await put(`/api/queues/webhooks/${seeded.failed.id}/retry`);
    await put(`/api/queues/webhooks/${seeded.delayed.id}/promote`);
    await put(`/api/queues/webhooks/${seeded.waiting.id}/clean`);
    await put('/api/queues/webhooks/clean/delayed');
    expect((await stateOf(queue, seeded)).states).toEqual({
      failed: 'waiting',
      delayed: 'waiting',
      waiting: 'gone',
      oldDelayed: 'gone',
    });
  });

  it('still does not expose Redis INFO, nor the workers’ addresses', async () => {
    for (const path of ['/api/redis/stats', '/api/queues/webhooks/workers']) {
      const response = await t.request('GET', `/admin/queues${path}`, { headers: ADMIN });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.text).not.toMatch(REDIS_INFO);
    }
  });

  it('still wants the token for a write', async () => {
    const response = await t.request('PUT', '/admin/queues/api/queues/webhooks/pause');
    expect(response.status).toBe(401);
    expect(await queue.isPaused()).toBe(false);
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

/**
 * `http_server_request_duration_seconds` (installRequestDuration):
 * - every answer is counted by route template (never the URL, so no identifier reaches a label),
 *   method and status code; an answer no route matched is `route="unmatched"`;
 * - Fastify's elapsed time in milliseconds is observed in seconds, in OpenTelemetry's buckets;
 * - one series per label combination, reused by every later answer.
 * Routes are served by a real Fastify instance through `inject()` (no socket); the bucket arithmetic
 * with a fake instance whose answers take a chosen time.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Measurements } from '../common/measurements/measurements';
import { installRequestDuration, UNMATCHED_ROUTE } from './request-duration';

const NAME = 'http_server_request_duration_seconds';

/** The histogram's samples as `name{labels} value` lines. */
async function samples(measurements: Measurements, suffix: '_count' | '_sum' | '_bucket') {
  const text = await measurements.registry.metrics();
  return text.split('\n').filter((line) => line.startsWith(`${NAME}${suffix}{`));
}

describe('installRequestDuration', () => {
  let app: FastifyInstance;
  let measurements: Measurements;

  beforeEach(async () => {
    app = Fastify();
    measurements = new Measurements();
    installRequestDuration(app, measurements);
    app.get('/sessions/:sessionID', () => ({ ok: true }));
    app.post('/groups', (_request, reply) => reply.code(200).send({ groupID: 1 }));
    app.get('/fails', (_request, reply) => reply.code(503).send({ error: 'x' }));
    await app.ready();
  });
  afterEach(() => app.close());

  it('counts answers by route template, method and status code; never by URL', async () => {
    await app.inject({ method: 'GET', url: '/sessions/ses_Secret0000000000000000001' });
    await app.inject({ method: 'GET', url: '/sessions/ses_Secret0000000000000000002?x=1' });
    await app.inject({ method: 'POST', url: '/groups', payload: { groupName: 'n' } });
    await app.inject({ method: 'GET', url: '/fails' });
    await app.inject({ method: 'GET', url: '/ok_0123456789abcdef/unknown' });

    expect(await samples(measurements, '_count')).toEqual([
      `${NAME}_count{route="/sessions/:sessionID",method="GET",status_code="200"} 2`,
      `${NAME}_count{route="/groups",method="POST",status_code="200"} 1`,
      `${NAME}_count{route="/fails",method="GET",status_code="503"} 1`,
      `${NAME}_count{route="${UNMATCHED_ROUTE}",method="GET",status_code="404"} 1`,
    ]);
    const text = await measurements.registry.metrics();
    expect(text).not.toContain('ses_Secret');
    expect(text).not.toContain('ok_0123456789abcdef');
    expect(UNMATCHED_ROUTE).toBe('unmatched');
  });

  it('counts a method no route serves as unmatched', async () => {
    await app.inject({ method: 'GET', url: '/sessions/a' });
    await app.inject({ method: 'DELETE', url: '/sessions/a' });
    expect(await samples(measurements, '_count')).toEqual([
      `${NAME}_count{route="/sessions/:sessionID",method="GET",status_code="200"} 1`,
      `${NAME}_count{route="${UNMATCHED_ROUTE}",method="DELETE",status_code="404"} 1`,
    ]);
  });
});

describe('installRequestDuration: seconds and buckets', () => {
  type Hook = (
    request: { method: string; routeOptions: { url?: string } },
    reply: { statusCode: number; elapsedTime: number },
    done: () => void,
  ) => void;

  function fakeInstance() {
    const hooks: { name: string; hook: Hook }[] = [];
    const fastify = {
      addHook: (name: string, hook: Hook) => hooks.push({ name, hook }),
    } as unknown as FastifyInstance;
    const measurements = new Measurements();
    installRequestDuration(fastify, measurements);
    expect(hooks.map((entry) => entry.name)).toEqual(['onResponse']);
    const answer = (
      elapsedMs: number,
      status = 200,
      routeOptions: { url?: string } = { url: '/groups' },
    ) => {
      const done = jest.fn();
      hooks[0].hook(
        { method: 'GET', routeOptions },
        { statusCode: status, elapsedTime: elapsedMs },
        done,
      );
      expect(done).toHaveBeenCalledTimes(1);
    };
    return { answer, measurements };
  }

  it("observes Fastify's milliseconds as seconds, in OpenTelemetry's buckets", async () => {
    const { answer, measurements } = fakeInstance();
    answer(30); // 0.03 s: in le=0.05 and above
    answer(5); // 0.005 s: exactly on the first bound, counted in it
    answer(12_000); // beyond 10 s: only in +Inf

    const labels = 'route="/groups",method="GET",status_code="200"';
    expect(await samples(measurements, '_bucket')).toEqual([
      `${NAME}_bucket{le="0.005",${labels}} 1`,
      `${NAME}_bucket{le="0.01",${labels}} 1`,
      `${NAME}_bucket{le="0.025",${labels}} 1`,
      `${NAME}_bucket{le="0.05",${labels}} 2`,
      `${NAME}_bucket{le="0.075",${labels}} 2`,
      `${NAME}_bucket{le="0.1",${labels}} 2`,
      `${NAME}_bucket{le="0.25",${labels}} 2`,
      `${NAME}_bucket{le="0.5",${labels}} 2`,
      `${NAME}_bucket{le="0.75",${labels}} 2`,
      `${NAME}_bucket{le="1",${labels}} 2`,
      `${NAME}_bucket{le="2.5",${labels}} 2`,
      `${NAME}_bucket{le="5",${labels}} 2`,
      `${NAME}_bucket{le="7.5",${labels}} 2`,
      `${NAME}_bucket{le="10",${labels}} 2`,
      `${NAME}_bucket{le="+Inf",${labels}} 3`,
    ]);
    expect(await samples(measurements, '_sum')).toEqual([`${NAME}_sum{${labels}} 12.035`]);
  });

  it('keeps one series per route, method and status, whatever the order of answers', async () => {
    const { answer, measurements } = fakeInstance();
    answer(1, 200);
    answer(1, 400);
    answer(1, 200, {});
    answer(1, 200);
    answer(1, 400);
    expect(await samples(measurements, '_count')).toEqual([
      `${NAME}_count{route="/groups",method="GET",status_code="200"} 2`,
      `${NAME}_count{route="/groups",method="GET",status_code="400"} 2`,
      `${NAME}_count{route="unmatched",method="GET",status_code="200"} 1`,
    ]);
  });
});

/**
 * The global API-key guard (ApiKeyGuard), below HTTP, with the real ApiKeysService over a faked
 * repository and the real AuthFailureLimiter over a counting storage:
 * - deny by default: a route is open without a key only when it, or its controller, says
 *   `@Public()`;
 * - a missing, empty, repeated (array), malformed, unknown or revoked `x-api-key` is answered
 *   401 `{"error":"Unauthorized"}`, and counted against the client address (an IPv6 address as
 *   its /64); past AUTH_FAILURE_LIMIT the failures are 429 with Retry-After;
 * - a valid key is always served, also from a blocked address, and the request then carries its
 *   enterprise, key id and sandbox flag — the only source of the tenant for everything after.
 */
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { AuthenticatedCaller } from '../common/auth/enterprise.decorator';
import { Public } from '../common/auth/public.decorator';
import { CommonErrors } from '../common/errors/common.errors';
import { toErrorResponse } from '../common/http/error-response';
import { Measurements } from '../common/measurements/measurements';
import { AuthFailureLimiter } from '../common/rate-limit/auth-failure-limiter';
import { RateLimitRefusals } from '../common/rate-limit/rate-limit-refusals';
import { loadConfig } from '../config/config';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import type { ActiveApiKey, ApiKeyRecord, EnterprisesRepository } from './enterprises.repository';

const ACME = '00000000-0000-4000-8000-00000000000a';
const SANDBOX = '00000000-0000-4000-8000-00000000000b';

class GuardedController {
  list(): void {}
  @Public()
  health(): void {}
}

@Public()
class PublicController {
  page(): void {}
}

type Request = {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  caller?: AuthenticatedCaller;
};

/** The context of a request routed to `controller`'s method `handler`. */
const contextOf = (
  request: Request,
  controller: abstract new () => object,
  handler: string,
): ExecutionContext =>
  ({
    getHandler: () => (controller.prototype as Record<string, unknown>)[handler],
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => request }),
  }) as unknown as ExecutionContext;

/** A request to the guarded route `GuardedController.list`. */
const toList = (request: Request) => contextOf(request, GuardedController, 'list');

/** Keys by hash, revoked or not, as the repository's lookup answers them. */
function fakeRepository() {
  const active = new Map<string, ActiveApiKey>();
  let issued = 0;
  const repository = {
    lookups: 0,
    findActiveKeyByHash(keyHash: string) {
      repository.lookups++;
      return Promise.resolve(active.get(keyHash) ?? null);
    },
    insertApiKey(values: { enterpriseId: string; keyHash: string; prefix: string }) {
      const id = `key-${++issued}`;
      active.set(values.keyHash, {
        apiKeyId: id,
        enterpriseId: values.enterpriseId,
        sandbox: values.enterpriseId === SANDBOX,
      });
      return Promise.resolve({ id, prefix: values.prefix } as ApiKeyRecord);
    },
    revokeAll() {
      active.clear();
    },
    touchLastUsed: () => Promise.resolve(),
  };
  return repository;
}

/** A storage answering like the Redis one: blocked for the window once hits exceed the limit. */
function countingStorage() {
  const hits = new Map<string, number>();
  const keys: string[] = [];
  const storage: ThrottlerStorage = {
    increment: (key, ttl, limit) => {
      keys.push(key);
      const total = (hits.get(key) ?? 0) + 1;
      hits.set(key, total);
      const isBlocked = total > limit;
      return Promise.resolve({
        totalHits: total,
        timeToExpire: ttl / 1000,
        isBlocked,
        timeToBlockExpire: isBlocked ? ttl / 1000 : 0,
      });
    },
  };
  return { storage, keys };
}

function setUp(authFailureLimit = '10') {
  const config = loadConfig({
    NODE_ENV: 'test',
    AUTH_FAILURE_LIMIT: authFailureLimit,
    API_KEY_CACHE_TTL_MS: '0',
  });
  const repository = fakeRepository();
  const apiKeys = new ApiKeysService(repository as unknown as EnterprisesRepository, config);
  const { storage, keys: counted } = countingStorage();
  const limiter = new AuthFailureLimiter(
    config,
    storage,
    new RateLimitRefusals(new Measurements()),
  );
  const guard = new ApiKeyGuard(new Reflector(), apiKeys, limiter);
  return { guard, apiKeys, repository, counted };
}

/** What the client is answered when the guard refuses: status, body and headers. */
async function refusalOf(attempt: Promise<boolean>) {
  let thrown: unknown = 'nothing thrown';
  try {
    await attempt;
  } catch (error) {
    thrown = error;
  }
  const { status, body, headers } = toErrorResponse(thrown);
  return { status, body, headers };
}

const UNAUTHORIZED = { status: 401, body: { error: CommonErrors.Unauthorized }, headers: {} };

describe('ApiKeyGuard', () => {
  const guarded = (headers: Request['headers'], ip = '203.0.113.7'): Request => ({ ip, headers });

  it('lets a valid key through and attaches its enterprise, key id and sandbox flag', async () => {
    const { guard, apiKeys } = setUp();
    const acme = await apiKeys.issue(ACME);
    const sandbox = await apiKeys.issue(SANDBOX);

    const request = guarded({ 'x-api-key': acme.apiKey });
    expect(await guard.canActivate(toList(request))).toBe(true);
    expect(request.caller).toEqual({
      enterpriseId: ACME,
      apiKeyId: acme.record.id,
      sandbox: false,
    });

    const sandboxRequest = guarded({ 'x-api-key': sandbox.apiKey });
    await guard.canActivate(toList(sandboxRequest));
    expect(sandboxRequest.caller).toEqual({
      enterpriseId: SANDBOX,
      apiKeyId: sandbox.record.id,
      sandbox: true,
    });
  });

  it('opens only routes marked @Public(), on the handler or its controller, without a lookup', async () => {
    const { guard, repository, counted } = setUp();
    const health = guarded({});
    const page = guarded({ 'x-api-key': 'anything' });
    expect(await guard.canActivate(contextOf(health, GuardedController, 'health'))).toBe(true);
    expect(await guard.canActivate(contextOf(page, PublicController, 'page'))).toBe(true);
    expect([health.caller, page.caller, repository.lookups, counted]).toEqual([
      undefined,
      undefined,
      0,
      [],
    ]);

    // The unmarked handler of the same controller is guarded.
    expect(await refusalOf(guard.canActivate(toList(guarded({}))))).toEqual(UNAUTHORIZED);
  });

  it.each([
    ['no x-api-key header', {}],
    ['an empty key', { 'x-api-key': '' }],
    ['a malformed key', { 'x-api-key': 'ck_short' }],
    ['a well-formed key nobody issued', { 'x-api-key': `ck_${'A'.repeat(40)}` }],
  ])('answers %s with 401 Unauthorized and attaches nothing', async (_, headers) => {
    const { guard } = setUp();
    const request = guarded(headers);
    expect(await refusalOf(guard.canActivate(toList(request)))).toEqual(UNAUTHORIZED);
    expect(request.caller).toBeUndefined();
  });

  it('refuses a key sent twice (an array header), even a valid one', async () => {
    const { guard, apiKeys, repository } = setUp();
    const { apiKey } = await apiKeys.issue(ACME);
    const request = guarded({ 'x-api-key': [apiKey, apiKey] });
    expect(await refusalOf(guard.canActivate(toList(request)))).toEqual(UNAUTHORIZED);
    expect([request.caller, repository.lookups]).toEqual([undefined, 0]);
  });

  it('reads the key from x-api-key only: a valid key as a bearer token is refused', async () => {
    const { guard, apiKeys } = setUp();
    const { apiKey } = await apiKeys.issue(ACME);
    const request = guarded({ authorization: `Bearer ${apiKey}`, 'x-api-key': undefined });
    expect(await refusalOf(guard.canActivate(toList(request)))).toEqual(UNAUTHORIZED);
  });

  it('refuses a revoked key', async () => {
    const { guard, apiKeys, repository } = setUp();
    const { apiKey } = await apiKeys.issue(ACME);
    repository.revokeAll();
    expect(await refusalOf(guard.canActivate(toList(guarded({ 'x-api-key': apiKey }))))).toEqual(
      UNAUTHORIZED,
    );
  });

  it('counts failures per client address (IPv6 by /64): past the limit 429, a valid key still served', async () => {
    const { guard, apiKeys, counted } = setUp('2');
    const { apiKey } = await apiKeys.issue(ACME);
    const attempt = (ip: string, headers: Request['headers'] = {}) =>
      guard.canActivate(toList(guarded(headers, ip)));

    expect(await refusalOf(attempt('2001:db8:1:2::a'))).toEqual(UNAUTHORIZED);
    expect(await refusalOf(attempt('2001:db8:1:2::b'))).toEqual(UNAUTHORIZED);
    expect(await refusalOf(attempt('2001:db8:1:2:ffff::1'))).toEqual({
      status: 429,
      body: { error: CommonErrors.TooManyRequests },
      headers: { 'retry-after': '60' },
    });
    // Another address is not blocked; a valid key is served from the blocked one.
    expect(await refusalOf(attempt('203.0.113.9'))).toEqual(UNAUTHORIZED);
    expect(await attempt('2001:db8:1:2::a', { 'x-api-key': apiKey })).toBe(true);

    expect(counted).toEqual([
      'auth-failures:2001:db8:1:2::/64',
      'auth-failures:2001:db8:1:2::/64',
      'auth-failures:2001:db8:1:2::/64',
      'auth-failures:203.0.113.9',
    ]);
  });
});

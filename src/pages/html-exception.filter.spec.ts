import { NotFoundException } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { tooManyRequests } from '../common/rate-limit/too-many-requests';
import { pageFailureFor } from './html-exception.filter';
import { PageError } from './page-error';

describe('pageFailureFor', () => {
  it('answers page errors with their status, page and link back', () => {
    expect(pageFailureFor(new PageError(400, 'invalid-privacy-level', '/checkin/t'))).toEqual({
      status: 400,
      kind: 'invalid-privacy-level',
      backHref: '/checkin/t',
      headers: {},
      unexpected: false,
    });
    expect(pageFailureFor(PageError.notFound())).toMatchObject({ status: 404, kind: 'not-found' });
  });

  it('maps what the API layer raises to a page with the same status', () => {
    expect(pageFailureFor(new ApiError(415, 'Unsupported media type'))).toMatchObject({
      status: 415,
      kind: 'unreadable-form',
      unexpected: false,
    });
    expect(pageFailureFor(new ApiError(400, 'Invalid JSON body'))).toMatchObject({
      status: 400,
      kind: 'unreadable-form',
    });
    expect(pageFailureFor(new NotFoundException())).toMatchObject({
      status: 404,
      kind: 'not-found',
    });
  });

  it('answers a rate limit with the too-many-requests page, keeping its Retry-After', () => {
    expect(pageFailureFor(tooManyRequests(42))).toEqual({
      status: 429,
      kind: 'too-many-requests',
      backHref: null,
      headers: { 'retry-after': '42' },
      unexpected: false,
    });
  });

  it('answers our own failures 500 (logged), and an unreachable database 503', () => {
    expect(pageFailureFor(new TypeError('boom'))).toEqual({
      status: 500,
      kind: 'unexpected',
      backHref: null,
      headers: {},
      unexpected: true,
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(pageFailureFor(refused)).toMatchObject({
      status: 503,
      kind: 'unavailable',
      headers: { 'retry-after': '5' },
      unexpected: true,
    });
  });
});

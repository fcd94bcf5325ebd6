import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { toErrorResponse } from './error-response';

describe('toErrorResponse', () => {
  it('passes an ApiError through with its status, message and headers', () => {
    expect(toErrorResponse(new ApiError(429, 'Too many requests', { 'retry-after': '3' }))).toEqual(
      {
        status: 429,
        body: { error: 'Too many requests' },
        headers: { 'retry-after': '3' },
        unexpected: false,
      },
    );
  });

  it("replaces framework messages with the contract's canonical ones", () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x')).body).toEqual({
      error: 'Not found',
    });
    expect(toErrorResponse(new BadRequestException(['a', 'b'])).body).toEqual({
      error: 'Bad request',
    });
  });

  it('maps Fastify errors by their status code', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {
      statusCode: 413,
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
    });
    expect(toErrorResponse(tooLarge)).toMatchObject({
      status: 413,
      body: { error: 'Payload too large' },
    });
  });

  it('hides anything unexpected behind a generic 500 and flags it for logging', () => {
    const response = toErrorResponse(
      new TypeError("Cannot read properties of undefined (reading 'x')"),
    );
    expect(response).toEqual({
      status: 500,
      body: { error: 'Internal server error' },
      headers: {},
      unexpected: true,
    });
    expect(toErrorResponse('a string').status).toBe(500);
    expect(toErrorResponse(null).status).toBe(500);
  });

  it('answers 503 Service unavailable when PostgreSQL cannot be reached', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(toErrorResponse(refused)).toMatchObject({
      status: 503,
      body: { error: 'Service unavailable' },
      unexpected: true,
    });
    expect(toErrorResponse(new Error('timeout exceeded when trying to connect')).status).toBe(503);
  });

  it('does not trust a 5xx statusCode on foreign errors', () => {
    const odd = Object.assign(new Error('x'), { statusCode: 502 });
    expect(toErrorResponse(odd).body).toEqual({ error: 'Internal server error' });
  });
});

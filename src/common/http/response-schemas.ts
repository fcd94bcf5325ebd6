/**
 * Response schemas for Fastify's serializer (fast-json-stringify) where it pays
 * (docs/performance.md, "Where the time goes"): a compiled serializer writes a list of known
 * objects faster than JSON.stringify (`GET /groups`, 100 groups: 47 µs instead of 70 µs). A
 * session (one object, mostly free text) it writes no faster, so that answer keeps JSON.stringify.
 * A schema describes the answer exactly as openapi.json does, in the same property order, with no
 * `required` (an absent optional field is left out, as JSON.stringify leaves out
 * `undefined`): the bytes are the same. test/integration/response-schemas.spec.ts holds each one
 * to openapi.json and compares the bytes with JSON.stringify's on generated answers.
 */
import type { FastifySchema } from 'fastify';

/** A JSON Schema a serializer is compiled from (the subset these answers use). */
export type SerializerSchema =
  | { type: 'string' | 'number' | 'boolean' }
  | { type: 'array'; items: SerializerSchema }
  | { type: 'object'; properties: Record<string, SerializerSchema> };

const string = { type: 'string' } as const;
const number = { type: 'number' } as const;

/** GroupDto (spec "Group"). */
export const GROUP_SCHEMA: SerializerSchema = {
  type: 'object',
  properties: {
    groupID: number,
    groupName: string,
    requestedPrivacyLevel: { type: 'array', items: string },
    inviteCode: string,
    key: string,
    consentRequired: string,
    credits: number,
  },
};

/** The route schema (`@RouteSchema`) whose 200 answer is written with `schema`. */
export const okAnswer = (schema: SerializerSchema): FastifySchema => ({
  response: { 200: schema },
});

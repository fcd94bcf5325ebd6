/**
 * Response schemas for Fastify's serializer (fast-json-stringify) on the hottest answers
 * (docs/performance.md, "Where the time goes"): a compiled serializer writes a known shape faster
 * than JSON.stringify. They describe the answers exactly as openapi.json does, in the same property
 * order, with no `required` (an absent optional field is left out, as JSON.stringify leaves out
 * `undefined`): the bytes are the same. test/integration/response-schemas.spec.ts holds each one
 * to openapi.json and compares the bytes with JSON.stringify's on generated answers.
 */
import type { FastifySchema } from 'fastify';

/** A JSON Schema a serializer is compiled from (the subset these answers use). */
export type SerializerSchema =
  | { type: 'string' | 'number' | 'boolean' }
  | { type: 'array'; items: SerializerSchema }
  | { type: 'object'; properties: Record<string, SerializerSchema> }
  | { type: 'object'; additionalProperties: SerializerSchema };

const string = { type: 'string' } as const;
const number = { type: 'number' } as const;
/** A map of names to numbers (percentiles, features), in the answer's own key order. */
const numbersByName = { type: 'object', additionalProperties: number } as const;

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

/** SessionDto (spec "Session"): every field a level can show, in answer order. */
export const SESSION_SCHEMA: SerializerSchema = {
  type: 'object',
  properties: {
    externalID: string,
    sessionID: string,
    timestamp: string,
    groupID: number,
    version: string,
    mhci: number,
    subscores: {
      type: 'object',
      properties: { vision: number, audio: number, transcript: number, assessment: number },
    },
    groupPercentiles: numbersByName,
    userPercentiles: numbersByName,
    transcript: {
      type: 'array',
      items: { type: 'object', properties: { role: string, content: string } },
    },
    features: numbersByName,
  },
};

/** The route schema (`@RouteSchema`) whose 200 answer is written with `schema`. */
export const okAnswer = (schema: SerializerSchema): FastifySchema => ({
  response: { 200: schema },
});

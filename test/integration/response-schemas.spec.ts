/**
 * The response schemas answers are serialized with (src/common/http/response-schemas.ts,
 * docs/performance.md) describe exactly what openapi.json documents, in the same property order,
 * and Fastify's compiled serializer writes the same bytes JSON.stringify would, on generated
 * answers full of what could tell them apart: escapes, control characters, lone surrogates, long
 * strings, unusual numbers.
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { GROUP_SCHEMA, SerializerSchema } from '../../src/common/http/response-schemas';

type DocSchema = {
  type?: string;
  $ref?: string;
  allOf?: DocSchema[];
  properties?: Record<string, DocSchema>;
  items?: DocSchema;
  additionalProperties?: DocSchema;
};
const document = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8')) as {
  components: { schemas: Record<string, DocSchema> };
};

/** The documented schema reduced to what a serializer needs: types and structure, in order. */
function serializerView(schema: DocSchema): unknown {
  if (schema.$ref) {
    return serializerView(document.components.schemas[schema.$ref.split('/').pop() as string]);
  }
  if (schema.allOf?.length === 1) return serializerView(schema.allOf[0]);
  if (schema.type === 'array') return { type: 'array', items: serializerView(schema.items ?? {}) };
  if (schema.type === 'object' && schema.properties) {
    return {
      type: 'object',
      properties: Object.fromEntries(
        Object.entries(schema.properties).map(([name, property]) => [
          name,
          serializerView(property),
        ]),
      ),
    };
  }
  if (schema.type === 'object' && schema.additionalProperties) {
    return { type: 'object', additionalProperties: serializerView(schema.additionalProperties) };
  }
  return { type: schema.type };
}

describe('response schemas follow openapi.json', () => {
  it('GroupDto: the same properties, types and order', () => {
    // JSON text, not toEqual: the order of properties is the order of the answer's bytes.
    expect(JSON.stringify(GROUP_SCHEMA)).toBe(
      JSON.stringify(serializerView(document.components.schemas.GroupDto)),
    );
  });
});

const pick = <T>(values: readonly T[]): T => values[randomInt(values.length)];
/** Strings that escape differently if anything does: quotes, backslashes, controls, surrogates. */
const STRING_PARTS = [
  'plain',
  'with "quotes"',
  'back\\slash',
  'new\nline',
  'tab\t',
  '\u0000\u001f\u007f',
  'é ü 日本',
  '\ud83d\ude00',
  '\ud800',
  '\udfff',
  '</script>',
  '\u2028\u2029',
  'x'.repeat(60),
  '',
];
const text = (): string =>
  Array.from({ length: randomInt(1, 4) }, () => pick(STRING_PARTS)).join('');
const NUMBERS = [0, -0, 1, 71.5, 0.1 + 0.2, 1e21, 1e-7, -3.25, 2 ** 53, 99.99999999999999];

function group(): Record<string, unknown> {
  return {
    groupID: randomInt(1, 2 ** 31),
    groupName: text(),
    requestedPrivacyLevel: Array.from({ length: randomInt(0, 4) }, text),
    inviteCode: text(),
    key: text(),
    consentRequired: pick(['true', 'false']),
    credits: pick([...NUMBERS, -5]),
  };
}

describe("Fastify's serializer writes JSON.stringify's bytes", () => {
  const app = Fastify();
  const answers: unknown[] = [];
  const route = (url: string, schema: SerializerSchema): void => {
    app.get(url, { schema: { response: { 200: schema } } }, () => Promise.resolve(answers.shift()));
  };
  route('/groups', { type: 'array', items: GROUP_SCHEMA });
  afterAll(() => app.close());

  it('GET /groups, on 500 generated answers', async () => {
    for (let i = 0; i < 500; i++) {
      const answer = Array.from({ length: randomInt(0, 8) }, group);
      answers.push(answer);
      const reply = await app.inject({ method: 'GET', url: '/groups' });
      expect(reply.statusCode).toBe(200);
      expect(reply.body).toBe(JSON.stringify(answer));
    }
  });
});

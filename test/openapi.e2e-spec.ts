import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { CommonErrors } from '../src/common/errors/common.errors';
import { describeParticipantMetric, describeSealedCells } from '../src/common/privacy-model';
import { GroupErrors } from '../src/groups/groups.errors';
import { WebhookErrors } from '../src/webhooks/webhooks.errors';
import { MetricsErrors } from '../src/metrics/metrics.errors';
import { COMMITTED_SERVER_URL } from '../src/openapi-export';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestApp, TestApp } from './support/test-app';

type Operation = OpenAPIV3.OperationObject;
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

describe('OpenAPI document', () => {
  let t: TestApp;
  let document: OpenAPIV3.Document;

  beforeAll(async () => {
    t = await startTestApp();
    const response = await t.request('GET', '/docs-json');
    expect(response.status).toBe(200);
    document = response.body as OpenAPIV3.Document;
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item?.[method]).map((method) => ({
        path,
        method,
        operation: item![method] as Operation,
      })),
    );

  const badRequestMessages = (operation: Operation): string[] => {
    const response = operation.responses['400'] as OpenAPIV3.ResponseObject | undefined;
    const schema = response?.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
    const error = schema?.properties?.error as OpenAPIV3.SchemaObject | undefined;
    return (error?.enum as string[]) ?? [];
  };

  it('is a valid OpenAPI document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('declares the x-api-key security scheme', () => {
    expect(document.components?.securitySchemes?.['x-api-key']).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    );
  });

  it('requires the key and documents 401 and 429 on every enterprise operation', () => {
    const unguarded = operations()
      .filter(({ path }) => path !== '/health' && !path.startsWith('/internal/'))
      .filter(
        ({ operation }) =>
          !operation.security?.some((requirement) => 'x-api-key' in requirement) ||
          !operation.responses['401'] ||
          !operation.responses['429'],
      )
      .map(({ method, path }) => `${method} ${path}`);
    expect(unguarded).toEqual([]);
  });

  it('documents the ingestion endpoint with the engine bearer token instead', () => {
    const ingestion = operations().find(
      (op) => op.path === '/internal/sessions/{sessionID}/result',
    );
    expect(ingestion?.operation.security).toEqual([{ 'engine-token': [] }]);
  });

  it('documents the limits per client address on the ingestion endpoint: 429 with Retry-After', () => {
    const ingestion = operations().find(
      (op) => op.path === '/internal/sessions/{sessionID}/result',
    );
    const tooMany = ingestion?.operation.responses['429'] as OpenAPIV3.ResponseObject | undefined;
    expect(tooMany?.description).toContain('PUBLIC_RATE_LIMIT_REQUESTS');
    expect(tooMany?.headers?.['Retry-After']).toBeDefined();
    const schema = tooMany?.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
    expect((schema.properties?.error as OpenAPIV3.SchemaObject).enum).toEqual([
      CommonErrors.TooManyRequests,
    ]);
  });

  it("documents the groups endpoints with the spec's exact 400 messages", () => {
    const find = (method: string, path: string) =>
      operations().find((op) => op.method === method && op.path === path)!.operation;
    expect(badRequestMessages(find('post', '/groups'))).toEqual(
      expect.arrayContaining([GroupErrors.GroupNameMissing, GroupErrors.GroupNameNotString]),
    );
    for (const [method, path] of [
      ['put', '/groups/{groupID}'],
      ['delete', '/groups/{groupID}'],
      ['get', '/groups/{groupID}/participants'],
    ]) {
      expect(badRequestMessages(find(method, path))).toEqual(
        expect.arrayContaining([
          GroupErrors.GroupIdMissing,
          GroupErrors.GroupIdNotNumber,
          GroupErrors.NotFound,
        ]),
      );
    }
  });

  it('documents enabledEvents on POST and PUT /webhooks and the replay operation (webhooks v2)', () => {
    const find = (method: string, path: string) =>
      operations().find((op) => op.method === method && op.path === path)!.operation;
    const events = ['user.created', 'user.session.result', 'user.privacy.updated', 'user.deleted'];
    for (const [method, path, dto] of [
      ['post', '/webhooks/{groupID}', 'CreateWebhookDto'],
      ['put', '/webhooks/{groupID}/{webhookID}', 'UpdateWebhookDto'],
    ]) {
      expect(badRequestMessages(find(method, path))).toContain(WebhookErrors.EnabledEventsInvalid);
      const schema = document.components?.schemas?.[dto] as OpenAPIV3.SchemaObject;
      const field = schema.properties?.enabledEvents as OpenAPIV3.ArraySchemaObject;
      expect(field).toMatchObject({ type: 'array', minItems: 1 });
      expect((field.items as OpenAPIV3.SchemaObject).enum).toEqual(events);
      expect(schema.required ?? []).not.toContain('enabledEvents');
    }

    const replay = find('post', '/webhooks/{groupID}/{webhookID}/replay');
    const body = (replay.requestBody as OpenAPIV3.RequestBodyObject).content['application/json']
      .schema as OpenAPIV3.ReferenceObject;
    const request = document.components?.schemas?.[
      body.$ref.split('/').pop()!
    ] as OpenAPIV3.SchemaObject;
    expect(Object.keys(request.properties ?? {})).toEqual(['since', 'until']);
    expect(request.required).toEqual(['since']);
    const ok = (replay.responses['200'] as OpenAPIV3.ResponseObject).content!['application/json']
      .schema as OpenAPIV3.ReferenceObject;
    const answer = document.components?.schemas?.[
      ok.$ref.split('/').pop()!
    ] as OpenAPIV3.SchemaObject;
    expect(Object.keys(answer.properties ?? {})).toEqual(['replayed']);
    expect(badRequestMessages(replay)).toEqual(
      expect.arrayContaining([
        WebhookErrors.SinceMissing,
        WebhookErrors.SinceInvalid,
        WebhookErrors.UntilNotAfterSince,
        WebhookErrors.ReplayTooLarge,
        WebhookErrors.NotFound,
        GroupErrors.NotFound,
      ]),
    );
    expect(replay.responses['409']).toBeDefined();
    expect(replay.security).toEqual([{ 'x-api-key': [] }]);
  });

  it('describes the Group schema with the spec fields and an example', () => {
    const group = document.components?.schemas?.GroupDto as OpenAPIV3.SchemaObject;
    expect(Object.keys(group.properties ?? {})).toEqual([
      'groupID',
      'groupName',
      'requestedPrivacyLevel',
      'inviteCode',
      'key',
      'consentRequired',
      'credits',
    ]);
    expect((group.properties?.consentRequired as OpenAPIV3.SchemaObject).enum).toEqual([
      'true',
      'false',
    ]);
  });

  it('serves the Swagger UI at /docs', async () => {
    const response = await t.request('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.text).toContain('swagger-ui');
  });

  const schemaNamed = (name: string) =>
    document.components!.schemas![name] as OpenAPIV3.SchemaObject;
  const okSchema = (operation: Operation) =>
    (operation.responses['200'] as OpenAPIV3.ResponseObject).content!['application/json'].schema!;
  const queryNames = (operation: Operation) =>
    (operation.parameters as OpenAPIV3.ParameterObject[])
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameter.name);

  it('documents the metrics as six operations, each with its own answer schema and query', () => {
    expect(Object.keys(document.paths).filter((path) => path.includes('{metric}'))).toEqual([]);
    const expected = {
      '/metrics/groups/{groupID}/count': 'CountAnswer',
      '/metrics/groups/{groupID}/mhci': 'GroupMhciAnswer',
      '/metrics/groups/{groupID}/wordcloud': 'GroupWordcloudAnswer',
      '/metrics/participants/{externalID}/count': 'CountAnswer',
      '/metrics/participants/{externalID}/mhci': 'ParticipantMhciAnswer',
      '/metrics/participants/{externalID}/wordcloud': 'ParticipantWordcloudAnswer',
    };
    for (const [path, schema] of Object.entries(expected)) {
      const operation = document.paths[path]!.get!;
      expect({ path, ref: okSchema(operation) }).toEqual({
        path,
        ref: { $ref: `#/components/schemas/${schema}` },
      });
      expect(queryNames(operation)).toEqual(
        path.endsWith('wordcloud') ? ['from', 'to', 'groupBy', 'top'] : ['from', 'to', 'groupBy'],
      );
      expect(badRequestMessages(operation).includes(MetricsErrors.TopInvalid)).toBe(
        path.endsWith('wordcloud'),
      );
    }
    // count answers integers; mhci statistics objects; wordcloud word → share maps.
    expect(schemaNamed('CountAnswer').additionalProperties).toEqual({
      type: 'integer',
      minimum: 0,
    });
    expect(schemaNamed('GroupMhciAnswer').additionalProperties).toEqual({
      nullable: true,
      allOf: [{ $ref: '#/components/schemas/MhciStatsDto' }],
    });
    expect(Object.keys(schemaNamed('MhciStatsDto').properties!)).toEqual([
      'minMhci',
      'maxMhci',
      'avgMhci',
      'percentile25Mhci',
      'percentile50Mhci',
      'percentile75Mhci',
    ]);
    // The privacy floor makes a group's mhci and wordcloud nullable; a participant's cloud is not.
    expect((schemaNamed('GroupWordcloudAnswer').additionalProperties as never)['nullable']).toBe(
      true,
    );
    expect(
      (schemaNamed('ParticipantWordcloudAnswer').additionalProperties as never)['nullable'],
    ).toBeUndefined();
  });

  it('says on each metric operation what it reads: sealed cells with their guarantee, residual risk and delay, or live sessions', () => {
    const get = (path: string) => document.paths[path]!.get!;
    for (const metric of ['mhci', 'wordcloud'] as const) {
      const description = get(`/metrics/groups/{groupID}/${metric}`).description;
      expect(description).toBe(describeSealedCells(metric));
      expect(description).toContain('no subtraction isolates');
      expect(description).toContain('Residual risk');
      expect(description).toContain('the day after at the earliest');
    }
    expect(get('/metrics/groups/{groupID}/count').description).toContain('Exact and live');
    for (const metric of ['count', 'mhci', 'wordcloud'] as const) {
      expect(get(`/metrics/participants/{externalID}/${metric}`).description).toBe(
        describeParticipantMetric(metric),
      );
    }
    const top = get('/metrics/groups/{groupID}/wordcloud').parameters!.find(
      (parameter) => (parameter as OpenAPIV3.ParameterObject).name === 'top',
    ) as OpenAPIV3.ParameterObject;
    expect(top.description).toContain('1–200');
  });

  it('types every answer: each success has a JSON schema, and no schema is left untyped', () => {
    const untyped: string[] = [];
    const visit = (schema: unknown, where: string): void => {
      const node = schema as (OpenAPIV3.SchemaObject & OpenAPIV3.ReferenceObject) | undefined;
      if (!node || typeof node !== 'object') {
        untyped.push(where);
      } else if (node.$ref) {
        // A named schema: visited below with the others.
      } else if (node.allOf ?? node.oneOf ?? node.anyOf) {
        (node.allOf ?? node.oneOf ?? node.anyOf)!.forEach((part, i) =>
          visit(part, `${where}/${i}`),
        );
      } else if (!node.type && !node.enum) {
        untyped.push(where);
      } else if (node.type === 'array') {
        visit(node.items, `${where}[]`);
      } else if (node.type === 'object') {
        if (!node.properties && !node.additionalProperties) untyped.push(`${where} (open object)`);
        for (const [name, property] of Object.entries(node.properties ?? {})) {
          visit(property, `${where}.${name}`);
        }
        if (typeof node.additionalProperties === 'object') {
          visit(node.additionalProperties, `${where}{}`);
        }
      }
    };
    for (const { method, path, operation } of operations()) {
      const successes = Object.entries(operation.responses).filter(([status]) =>
        status.startsWith('2'),
      );
      if (successes.length === 0) untyped.push(`${method} ${path}: no success answer`);
      for (const [status, response] of successes) {
        const content = (response as OpenAPIV3.ResponseObject).content;
        visit(content?.['application/json']?.schema, `${method} ${path} ${status}`);
      }
    }
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      visit(schema, `#/components/schemas/${name}`);
    }
    expect(untyped).toEqual([]);
  });

  it('is exactly the committed openapi.json (npm run openapi), but for the server', async () => {
    const committed = JSON.parse(
      await readFile(join(__dirname, '..', 'openapi.json'), 'utf8'),
    ) as OpenAPIV3.Document;
    expect(committed.servers).toEqual([{ url: COMMITTED_SERVER_URL }]);
    expect(document.servers).toEqual([{ url: t.config.publicBaseUrl }]);
    expect({ ...document, servers: committed.servers }).toEqual(committed);
  });

  it('has the typed client generated from exactly this document (npm run openapi --check)', () => {
    const check = spawnSync(
      process.execPath,
      [join(__dirname, '..', 'scripts', 'openapi.js'), '--check'],
      {
        encoding: 'utf8',
      },
    );
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
    expect(check.stdout).toBe(
      'openapi.json and clients/typescript/src/schema.ts are up to date.\n',
    );
  });

  it('hides the "absent path parameter" routes from the document', () => {
    expect(Object.keys(document.paths)).not.toContain('/groups//participants');
  });
});

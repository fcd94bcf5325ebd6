import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { CommonErrors } from '../src/common/errors/common.errors';
import { describePrivacyFloor } from '../src/common/privacy-model';
import { GroupErrors } from '../src/groups/groups.errors';
import { WebhookErrors } from '../src/webhooks/webhooks.errors';
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

  it('says on the group metrics what the privacy floor withholds, and types those answers nullable', () => {
    const group = document.paths['/metrics/groups/{groupID}/{metric}']!.get!;
    expect(group.description).toContain(describePrivacyFloor('mhci'));
    expect(group.description).toContain(describePrivacyFloor('wordcloud'));
    expect(group.description).toContain('count is never withheld');
    const participant = document.paths['/metrics/participants/{externalID}/{metric}']!.get!;
    expect(participant.description).not.toContain('Privacy floor');
    const answer = (group.responses['200'] as OpenAPIV3.ResponseObject).content!['application/json']
      .schema as OpenAPIV3.SchemaObject;
    const [count, mhci, wordcloud] = answer.oneOf as OpenAPIV3.SchemaObject[];
    const values = (shape: OpenAPIV3.SchemaObject) =>
      shape.additionalProperties as OpenAPIV3.SchemaObject;
    expect([count, mhci, wordcloud].map((shape) => values(shape).nullable)).toEqual([
      undefined,
      true,
      true,
    ]);
    const top = group.parameters!.find(
      (parameter) => (parameter as OpenAPIV3.ParameterObject).name === 'top',
    ) as OpenAPIV3.ParameterObject;
    expect(top.description).toContain('1–200');
  });

  it('hides the "absent path parameter" routes from the document', () => {
    expect(Object.keys(document.paths)).not.toContain('/groups//participants');
  });
});

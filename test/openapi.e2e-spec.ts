import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3 } from 'openapi-types';
import { CommonErrors } from '../src/common/errors/common.errors';
import {
  describeGroupCount,
  describeParticipantMetric,
  describeSealedCells,
  GROUP_METRICS_GUARANTEE,
} from '../src/common/privacy-model';
import { GroupErrors } from '../src/groups/groups.errors';
import { WebhookErrors } from '../src/webhooks/webhooks.errors';
import { MetricsErrors } from '../src/metrics/metrics.errors';
import { COMMITTED_SERVER_URL } from '../src/openapi-export';
import { ID_FORMATS, idPattern } from '../src/common/ids';
import { KEY_ID_PATTERN } from '../src/config/config';
import { SessionErrorPatterns, SessionErrors } from '../src/sessions/sessions.errors';
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

  /** The `error` schema of an operation's answer with `status`. */
  const errorSchema = (operation: Operation, status: string) => {
    const response = operation.responses[status] as OpenAPIV3.ResponseObject | undefined;
    const schema = response?.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
    return schema?.properties?.error as OpenAPIV3.SchemaObject | undefined;
  };
  /** The exact messages of a status: its enum, or the enum among its alternatives. */
  const exactMessages = (operation: Operation, status: string): string[] => {
    const error = errorSchema(operation, status);
    const alternatives = (error?.anyOf ?? [error]) as (OpenAPIV3.SchemaObject | undefined)[];
    return alternatives.flatMap((alternative) => (alternative?.enum as string[]) ?? []);
  };
  /** The patterns of a status's messages that name a value. */
  const messagePatterns = (operation: Operation, status: string): OpenAPIV3.SchemaObject[] =>
    ((errorSchema(operation, status)?.anyOf ?? []) as OpenAPIV3.SchemaObject[]).filter(
      (alternative) => alternative.pattern !== undefined,
    );
  /** Whether the document says `message` can be the answer with `status`. */
  const documents = (operation: Operation, status: string, message: string): boolean =>
    exactMessages(operation, status).includes(message) ||
    messagePatterns(operation, status).some(({ pattern }) =>
      new RegExp(pattern!, 'u').test(message),
    );
  const badRequestMessages = (operation: Operation): string[] => exactMessages(operation, '400');

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

  it('documents, on every operation that takes a body, Invalid JSON body first, the control-character messages, 413 and 415', () => {
    const messagesOf = (response: OpenAPIV3.ResponseObject) => {
      const schema = response.content?.['application/json']?.schema as OpenAPIV3.SchemaObject;
      const error = schema.properties?.error as OpenAPIV3.SchemaObject;
      return (error.enum ?? (error.anyOf?.[0] as OpenAPIV3.SchemaObject).enum) as string[];
    };
    let operations = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of ['post', 'put'] as const) {
        const operation = item?.[method];
        if (!operation?.requestBody) continue;
        operations += 1;
        const responses = operation.responses as Record<string, OpenAPIV3.ResponseObject>;
        expect({ path, method, first: messagesOf(responses['400'])[0] }).toEqual({
          path,
          method,
          first: CommonErrors.InvalidJsonBody,
        });
        expect(messagesOf(responses['413'])).toEqual([CommonErrors.PayloadTooLarge]);
        expect(messagesOf(responses['415'])).toEqual([CommonErrors.UnsupportedMediaType]);
      }
    }
    expect(operations).toBeGreaterThanOrEqual(12);
    const putGroup = document.paths['/groups/{groupID}']!.put!;
    expect(messagesOf(putGroup.responses['400'] as OpenAPIV3.ResponseObject)).toContain(
      'groupName must not contain control characters',
    );
  });

  it('gives parameters the exact schema the service accepts, and the engine token no JWT format', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item ?? {}) as OpenAPIV3.OperationObject[]) {
        for (const parameter of (operation.parameters ?? []) as OpenAPIV3.ParameterObject[]) {
          if (parameter.name === 'groupID') {
            expect({ path, schema: parameter.schema }).toEqual({
              path,
              schema: { type: 'integer', minimum: 0, example: 42 },
            });
          }
          if (path.startsWith('/metrics/') && ['from', 'to'].includes(parameter.name)) {
            expect(parameter.schema).toMatchObject({ type: 'string', format: 'date' });
          }
          if (parameter.name === 'top') {
            expect(parameter.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200 });
          }
        }
      }
    }
    const engine = document.components?.securitySchemes?.[
      'engine-token'
    ] as OpenAPIV3.HttpSecurityScheme;
    expect(engine).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(engine.bearerFormat).toBeUndefined();
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
    const ref = (schema: string) => ({ $ref: `#/components/schemas/${schema}` });
    // Group mhci and wordcloud answer the specification's shape, or with accuracy=true each
    // period as {value, accuracy}.
    const expected = {
      '/metrics/groups/{groupID}/count': ref('CountAnswer'),
      '/metrics/groups/{groupID}/mhci': {
        anyOf: [ref('GroupMhciAnswer'), ref('GroupMhciAnswerWithAccuracy')],
      },
      '/metrics/groups/{groupID}/wordcloud': {
        anyOf: [ref('GroupWordcloudAnswer'), ref('GroupWordcloudAnswerWithAccuracy')],
      },
      '/metrics/participants/{externalID}/count': ref('CountAnswer'),
      '/metrics/participants/{externalID}/mhci': ref('ParticipantMhciAnswer'),
      '/metrics/participants/{externalID}/wordcloud': ref('ParticipantWordcloudAnswer'),
    };
    for (const [path, schema] of Object.entries(expected)) {
      const operation = document.paths[path]!.get!;
      expect({ path, schema: okSchema(operation) }).toEqual({ path, schema });
      const accuracy = path.startsWith('/metrics/groups/') && !path.endsWith('count');
      expect({ path, query: queryNames(operation) }).toEqual({
        path,
        query: [
          'from',
          'to',
          'groupBy',
          ...(path.endsWith('wordcloud') ? ['top'] : []),
          ...(accuracy ? ['accuracy'] : []),
        ],
      });
      expect(badRequestMessages(operation).includes(MetricsErrors.TopInvalid)).toBe(
        path.endsWith('wordcloud'),
      );
      expect(badRequestMessages(operation).includes(MetricsErrors.AccuracyInvalid)).toBe(accuracy);
    }
    // Each period with accuracy: the value (nullable as without it) and why a null is null.
    for (const name of ['GroupMhciAccuracy', 'GroupWordcloudAccuracy']) {
      const reason = schemaNamed(name).properties!.reason as OpenAPIV3.SchemaObject;
      expect(reason.enum).toEqual([
        'finer-than-window',
        'not-released-yet',
        'too-few-participants',
        'margin-above-bound',
        'too-small-for-words',
        null,
      ]);
      expect(schemaNamed(name).required).toEqual(Object.keys(schemaNamed(name).properties!));
    }
    expect(Object.keys(schemaNamed('GroupMhciAccuracy').properties!)).toEqual(
      expect.arrayContaining(['margin', 'maxMargin', 'intervals', 'budgetShare', 'lateResults']),
    );
    expect(Object.keys(schemaNamed('GroupWordcloudAccuracy').properties!)).toEqual(
      expect.arrayContaining(['speakersNeeded', 'intervals']),
    );
    // count answers integers; mhci statistics objects; wordcloud word → share maps.
    expect(schemaNamed('CountAnswer').additionalProperties).toEqual({
      type: 'integer',
      minimum: 0,
    });
    // null as strict OpenAPI 3.0 reads it: one of the statistics or a schema of null alone.
    expect(schemaNamed('GroupMhciAnswer').additionalProperties).toEqual({
      oneOf: [
        { $ref: '#/components/schemas/MhciStatsDto' },
        { type: 'object', nullable: true, enum: [null] },
      ],
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

  it('says on each of the six metric operations what it reads, and states the guarantee of group metrics in plain words (a yearly budget per participant over all groups; what it does not protect; the release and the rule for min and max)', () => {
    const get = (path: string) => document.paths[path]!.get!;
    for (const metric of ['mhci', 'wordcloud'] as const) {
      const description = get(`/metrics/groups/{groupID}/${metric}`).description;
      expect(description).toBe(describeSealedCells(metric));
      expect(description).toContain('METRICS_RELEASE_GRACE_HOURS (default 48)');
      expect(description).toContain('a result arriving later joins no release');
      expect(description).toContain('accuracy=true');
    }
    const mhci = get('/metrics/groups/{groupID}/mhci').description!;
    expect(mhci).toContain('a noisy sum and a noisy histogram over 20 bins');
    expect(mhci).toContain('minMhci and maxMhci as its 5th and 95th percentiles');
    expect(mhci).toContain('maxMargin');
    expect(get('/metrics/groups/{groupID}/wordcloud').description).toContain(
      'accuracy.speakersNeeded',
    );
    expect(get('/metrics/groups/{groupID}/count').description).toBe(describeGroupCount());
    for (const metric of ['count', 'mhci', 'wordcloud'] as const) {
      expect(get(`/metrics/participants/{externalID}/${metric}`).description).toBe(
        describeParticipantMetric(metric),
      );
    }
    for (const path of Object.keys(document.paths).filter((p) => p.startsWith('/metrics/'))) {
      const description = get(path).description!;
      expect(description).toContain(GROUP_METRICS_GUARANTEE);
    }
    expect(GROUP_METRICS_GUARANTEE).toContain(
      'in all groups of the enterprise over any 365 days is protected by (ε_year, 10⁻⁶)-differential privacy together',
    );
    expect(GROUP_METRICS_GUARANTEE).toContain('ε_year = 24 by default');
    expect(GROUP_METRICS_GUARANTEE).toContain('her values enter one group per window');
    expect(GROUP_METRICS_GUARANTEE).toContain('It does not protect who took part');
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
      } else if (node.enum) {
        // A closed set of values (`enum: [null]` is the null of a nullable answer).
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

  it('gives every answer of every operation a JSON schema, each error the {"error": string} envelope', () => {
    const problems: string[] = [];
    for (const { method, path, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const where = `${method} ${path} ${status}`;
        const content = (response as OpenAPIV3.ResponseObject).content;
        const schema = content?.['application/json']?.schema as OpenAPIV3.SchemaObject | undefined;
        if (!schema) {
          problems.push(`${where}: no JSON schema`);
          continue;
        }
        if (Number(status) < 400) continue;
        const error = schema.properties?.error as OpenAPIV3.SchemaObject | undefined;
        if (
          schema.type !== 'object' ||
          JSON.stringify(schema.required) !== '["error"]' ||
          Object.keys(schema.properties ?? {}).join() !== 'error' ||
          error?.type !== 'string'
        ) {
          problems.push(`${where}: not {"error": string}`);
        }
        const example = (schema.example as { error?: unknown } | undefined)?.error;
        if (typeof example !== 'string' || !documents(operation, status, example)) {
          problems.push(
            `${where}: its example ${JSON.stringify(example)} is not one of its messages`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('documents the messages that name a value as patterns the real answers match, never as literals', async () => {
    const create = document.paths['/session/create']!.post!;
    expect(messagePatterns(create, '400')).toEqual([
      {
        type: 'string',
        pattern: SessionErrorPatterns.NotInGroup.pattern,
        description: 'User <externalID> is not part of group <groupID>',
        example: SessionErrorPatterns.NotInGroup.example,
      },
      {
        type: 'string',
        pattern: SessionErrorPatterns.AlreadyExists.pattern,
        description:
          'This user already exists for the email and groupID provided, their externalID is <externalID>',
        example: SessionErrorPatterns.AlreadyExists.example,
      },
    ]);
    // No exact message of any operation is a template no answer can equal.
    const templates = Object.values(SessionErrorPatterns).map(({ template }) => template);
    const literals = operations().flatMap(({ operation }) =>
      Object.keys(operation.responses).flatMap((status) => exactMessages(operation, status)),
    );
    expect(literals.filter((message) => templates.includes(message))).toEqual([]);

    // The real answers, byte for byte the spec's wording, are what the document describes.
    const enterprise = await t.newEnterprise('Patterns');
    const [first, second] = [await t.newGroup(enterprise), await t.newGroup(enterprise)];
    const created = await t.createSession(enterprise, first, 'pat@example.com');
    const externalId = (created.body as { userIdentifier: string }).userIdentifier;
    const notInGroup = await t.createSession(enterprise, second, externalId);
    const again = await t.createSession(enterprise, first, 'pat@example.com');
    const answers = [notInGroup, again].map(({ status, body }) => ({ status, body }));
    expect(answers).toEqual([
      { status: 400, body: { error: SessionErrors.NotInGroup(externalId, second.groupID) } },
      { status: 400, body: { error: SessionErrors.AlreadyExists(externalId) } },
    ]);
    for (const { body } of answers) {
      expect(documents(create, '400', (body as { error: string }).error)).toBe(true);
    }
  });

  it("says the service's version, package.json's", async () => {
    const manifest = JSON.parse(await readFile(join(__dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(document.info.version).toBe(manifest.version);
  });

  it('shows examples a real answer could carry: identifiers in their formats, a signed check-in link', async () => {
    // Every example string that looks like one of our identifiers is one, in its exact format,
    // and none is elided.
    const formats: [string, RegExp][] = [
      ...Object.values(ID_FORMATS)
        .filter((format) => format.prefix !== '')
        .map((format): [string, RegExp] => [format.prefix, idPattern(format)]),
      ['whsec_', /^whsec_[A-Za-z0-9+/]{43}=$/], // base64 of 32 random bytes
    ];
    const wrong: string[] = [];
    const visit = (value: unknown, where: string, inExample: boolean): void => {
      if (typeof value === 'string') {
        const format = formats.find(([prefix]) => value.startsWith(prefix));
        // An elided value (`ok_…`, `https://…`) is no answer either.
        const elided = value.includes('…');
        if (inExample && ((format && !format[1].test(value)) || elided)) {
          wrong.push(`${where}: ${value}`);
        }
      } else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          visit(inner, `${where}/${key}`, inExample || key === 'example');
        }
      }
    };
    visit(document, '#', false);
    expect(wrong).toEqual([]);

    // The redirectUrl example has the form of a real one: `<base>/checkin/<key id>.<claims>.<mac>`.
    const created = schemaNamed('SessionCreatedDto').properties!;
    const example = (created.redirectUrl as OpenAPIV3.SchemaObject).example as string;
    const enterprise = await t.newEnterprise('Examples');
    const answer = await t.createSession(
      enterprise,
      await t.newGroup(enterprise),
      'ex@example.com',
    );
    const real = (answer.body as { redirectUrl: string }).redirectUrl;
    const shape = (url: string, base: string) => {
      expect(url.startsWith(`${base}/checkin/`)).toBe(true);
      const [keyId, claims, mac, ...rest] = url.slice(`${base}/checkin/`.length).split('.');
      const decoded = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
        p: string;
        id: string;
        exp: number;
      };
      return {
        keyId: KEY_ID_PATTERN.test(keyId),
        claims: Object.keys(decoded),
        purpose: decoded.p,
        session: idPattern(ID_FORMATS.sessionId).test(decoded.id),
        expires: Number.isSafeInteger(decoded.exp),
        mac: /^[A-Za-z0-9_-]{43}$/.test(mac),
        rest,
      };
    };
    expect(shape(example, 'https://checkin.example.com')).toEqual(
      shape(real, t.config.publicBaseUrl),
    );
    expect(shape(real, t.config.publicBaseUrl)).toEqual({
      keyId: true,
      claims: ['p', 'id', 'exp'],
      purpose: 'c',
      session: true,
      expires: true,
      mac: true,
      rest: [],
    });
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
      'openapi.json and clients/typescript/src/schema.ts and clients/typescript/package.json are up to date.\n',
    );
  });

  it('hides the "absent path parameter" routes from the document', () => {
    expect(Object.keys(document.paths)).not.toContain('/groups//participants');
  });
});

/**
 * openapi.json is the whole truth (docs/api.md): every answer a test receives from the API is
 * checked against the operation the document gives for its method and path — the status is one
 * the operation lists, and the JSON body validates against that status's schema (for an error,
 * `{"error": …}` with the message one of the listed strings or matching a listed pattern).
 *
 * `TestApp.request` records every answer; `TestApp.close` fails the file with each undocumented
 * answer (operation, status, body). Not checked: answers to paths or methods the document has no
 * operation for (they must be the documented 404 `Not found`, which is checked), and non-JSON
 * answers (the participant pages, the Swagger UI).
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommonErrors } from '../../src/common/errors/common.errors';

type Json = Record<string, unknown>;

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Path parameters in the template: fewer is more specific. */
  parameters: number;
  /** The template with a path parameter empty or left out (answered by the absent-parameter routes). */
  withoutParameter: RegExp;
  responses: Record<string, Json>;
}

export interface RecordedAnswer {
  method: string;
  /** The request path, query included. */
  path: string;
  status: number;
  contentType: string | null;
  text: string;
}

const NOT_FOUND = JSON.stringify({ error: CommonErrors.NotFound });
const UNAUTHORIZED = JSON.stringify({ error: CommonErrors.Unauthorized });

/** OpenAPI 3.0 schema → JSON Schema: `nullable` as a null type, references into `openapi`. */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === 'example' || key === 'nullable') continue;
    out[key] =
      key === '$ref' && typeof value === 'string'
        ? value.replace(/^#\/components\/schemas\//, 'openapi#/definitions/')
        : toJsonSchema(value);
  }
  const source = schema as Json;
  if (source.nullable === true) {
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

export class OpenApiConformance {
  private readonly operations: Operation[] = [];
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: Json) {
    const components = ((document.components as Json | undefined)?.schemas ?? {}) as Json;
    this.ajv.addSchema({ $id: 'openapi', definitions: toJsonSchema(components) });
    for (const [template, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
        this.operations.push({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source.replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`),
          parameters: (template.match(/\{/g) ?? []).length,
          withoutParameter: new RegExp(`^${source.replace(/\/\{[^}]+\}/g, '(?:/[^/]*)?')}/?$`),
          responses: (operation as Json).responses as Record<string, Json>,
        });
      }
    }
  }

  static fromRepository(): OpenApiConformance {
    const file = join(__dirname, '..', '..', 'openapi.json');
    return new OpenApiConformance(JSON.parse(readFileSync(file, 'utf8')) as Json);
  }

  /** What is wrong with this answer, or null when the document says it. */
  problem(answer: RecordedAnswer): string | null {
    // As fetch sent it: dot segments resolved.
    const path = new URL(answer.path, 'http://service').pathname;
    const candidates = this.operations
      .filter((operation) => operation.pattern.test(path))
      .sort((a, b) => a.parameters - b.parameters);
    const operation =
      candidates.find((candidate) => candidate.method === answer.method) ??
      // `/participants` or `/participants//sessions`: the operation's own "You are missing the
      // path parameter …" answers it.
      this.operations.find(
        (candidate) => candidate.method === answer.method && candidate.withoutParameter.test(path),
      );
    const isJson = answer.contentType?.startsWith('application/json') ?? false;
    // Not the API: the OpenAPI document itself and the operators' queue dashboard.
    if (/^\/(docs|admin)(\/|-|$)/.test(path)) return null;
    if (!operation) {
      // No such operation: the documented answer is 404 Not found (HEAD: no body).
      // …or 401 before anything else when a route of the service (one the document does not
      // name, like an unknown metric) is asked without a valid key (the document's description).
      if (!isJson || (answer.status === 404 && answer.text === NOT_FOUND)) return null;
      if (answer.status === 401 && answer.text === UNAUTHORIZED) return null;
      return `${answer.method} ${path} (no operation): ${answer.status} ${answer.text.slice(0, 200)}`;
    }
    const name = `${operation.method} ${operation.template} (${answer.path.slice(0, 120)})`;
    const response = operation.responses[String(answer.status)];
    if (!response) {
      return `${name}: status ${answer.status} is not documented: ${answer.text.slice(0, 200)}`;
    }
    if (!isJson) return null;
    const schema = ((response.content as Json | undefined)?.['application/json'] as Json)?.schema;
    if (!schema) return null;
    const key = `${name} ${answer.status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema) as Json);
      this.validators.set(key, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return `${name}: ${answer.status} is not JSON: ${answer.text.slice(0, 200)}`;
    }
    if (validate(body)) return null;
    const errors = this.ajv.errorsText(validate.errors);
    return `${name}: ${answer.status} ${answer.text.slice(0, 300)} does not match the document (${errors})`;
  }
}

/** The answers recorded per service (base URL), in this test process. */
const recorded = new Map<string, RecordedAnswer[]>();

export function recordAnswer(baseUrl: string, answer: RecordedAnswer): void {
  const list = recorded.get(baseUrl) ?? [];
  list.push(answer);
  recorded.set(baseUrl, list);
}

let conformance: OpenApiConformance | undefined;

/** Throws, listing each answer received from `baseUrl` that openapi.json does not document. */
export function assertDocumentedAnswers(baseUrl: string): void {
  const answers = recorded.get(baseUrl) ?? [];
  recorded.delete(baseUrl);
  conformance ??= OpenApiConformance.fromRepository();
  const problems = [...new Set(answers.map((answer) => conformance!.problem(answer)))].filter(
    (problem): problem is string => problem !== null,
  );
  if (problems.length > 0) {
    throw new Error(
      `${problems.length} answer(s) openapi.json does not document:\n- ${problems.join('\n- ')}`,
    );
  }
}

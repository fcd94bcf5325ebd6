/**
 * Boots the real application (createApp, the same factory as main.ts) on a fresh database and a
 * real port, and speaks HTTP to it.
 */
import { handedOff } from './levels';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { createApp, CreateAppOptions } from '../../src/app.factory';
import { AppConfig, loadConfig } from '../../src/config/config';
import { withLocalSecrets } from '../../src/config/local-secrets';
import { EnterprisesService } from '../../src/enterprises/enterprises.service';
import { createTestDatabase, databaseUrl, dropDatabase } from './databases';
import { EngineResult, engineResult, postResult } from './engine';
import { HttpResult, request, RequestOptions } from './http';
import { assertDocumentedAnswers, recordAnswer } from './openapi-conformance';
import { deleteRedisKeys, runEnvironment } from './run-environment';

export type { HttpResult, RequestOptions } from './http';

export interface TestEnterprise {
  enterpriseId: string;
  name: string;
  apiKey: string;
}

export interface TestGroup {
  groupID: number;
  groupName: string;
  key: string;
  inviteCode: string;
}

export interface SessionCreated {
  success: boolean;
  message: string;
  userIdentifier: string;
  redirectUrl: string;
  sessionID: string;
}

export class TestApp {
  constructor(
    readonly app: NestFastifyApplication,
    readonly config: AppConfig,
    readonly baseUrl: string,
    readonly databaseName: string,
    /** Direct access for assertions on what was stored. */
    readonly db: Pool,
  ) {}

  /** One request; its answer is checked against openapi.json when the app closes. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
    const answer = await request(this.baseUrl, method, path, options);
    recordAnswer(this.baseUrl, {
      method,
      path,
      status: answer.status,
      contentType: answer.headers.get('content-type'),
      text: answer.text,
    });
    return answer;
  }

  /**
   * A new tenant with one API key, created through the same service the CLI uses; a sandbox
   * (docs/integrating.md) with `{ sandbox: true }`.
   */
  newEnterprise(
    name = 'Test Enterprise',
    options: { sandbox?: boolean } = {},
  ): Promise<TestEnterprise> {
    return this.app.get(EnterprisesService).create(name, options);
  }

  /**
   * The enterprise's privacy settings of group metrics (docs/metrics.md), through the service the
   * operator's CLI uses (enterprises:set-privacy-floor); what is not given stays as it is.
   */
  async setPrivacyFloor(
    enterprise: TestEnterprise,
    scores: number,
    words: number,
    options: {
      speakers?: number;
      budget?: number;
      window?: 'month' | 'week';
      maxMargin?: number;
    } = {},
  ): Promise<void> {
    const text = (value: number | string | undefined) =>
      value === undefined ? undefined : String(value);
    await this.app.get(EnterprisesService).setPrivacyFloor(enterprise.enterpriseId, {
      scores: String(scores),
      words: String(words),
      speakers: text(options.speakers),
      budget: text(options.budget),
      window: options.window,
      maxMargin: text(options.maxMargin),
    });
  }

  /** A group of this enterprise, created over HTTP. */
  async newGroup(enterprise: TestEnterprise, groupName = 'Test group'): Promise<TestGroup> {
    const response = await this.request('POST', '/groups', {
      apiKey: enterprise.apiKey,
      body: { groupName },
    });
    if (response.status !== 200) throw new Error(`newGroup: ${response.status} ${response.text}`);
    return response.body as TestGroup;
  }

  /** POST /session/create; `identifier` is an email (first session) or an ok_ id. */
  createSession(
    enterprise: TestEnterprise,
    group: TestGroup,
    identifier: string,
    options: { returnURL?: string; headers?: Record<string, string> } = {},
  ): Promise<HttpResult> {
    return this.request('POST', '/session/create', {
      apiKey: enterprise.apiKey,
      headers: options.headers,
      body: {
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: identifier,
        returnURL: options.returnURL ?? 'https://app.example.com/done',
      },
    });
  }

  /**
   * A participant's session in `group`, completed by the analysis engine (through the real
   * ingestion endpoint: start the app with `{ ENGINE_TOKEN }`). `identifier` is an email (a new
   * participant, the default) or an ok_ id; `result` defaults to {@link engineResult}().
   */
  async completedSession(
    enterprise: TestEnterprise,
    group: TestGroup,
    options: {
      identifier?: string;
      result?: EngineResult;
      returnURL?: string;
      headers?: Record<string, string>;
      /**
       * Handed off from its page at the member's level and confirmed (levels.ts `handedOff`), so
       * the result counts at that level; without it, as a check-in no page handed off, at 0.
       */
      handedOff?: boolean;
    } = {},
  ): Promise<SessionCreated> {
    const identifier = options.identifier ?? `participant.${++this.participants}@example.com`;
    const created = await this.createSession(enterprise, group, identifier, options);
    if (created.status !== 200) {
      throw new Error(`completedSession: ${created.status} ${created.text}`);
    }
    const session = created.body as SessionCreated;
    if (options.handedOff) await handedOff(this.db, session.sessionID);
    const posted = await postResult(this, session.sessionID, options.result ?? engineResult());
    if (posted.status !== 200) {
      throw new Error(`completedSession: the result was refused: ${posted.status} ${posted.text}`);
    }
    return session;
  }

  private participants = 0;

  async close(): Promise<void> {
    await this.app.close();
    await this.db.end();
    await dropDatabase(this.databaseName);
    await deleteRedisKeys(this.config.redis.url, `${this.config.redis.queuePrefix}:*`);
    // Every answer this file received is one openapi.json documents (openapi-conformance.ts).
    assertDocumentedAnswers(this.baseUrl);
  }
}

export async function startTestApp(
  env: Record<string, string> = {},
  options: CreateAppOptions & {
    /** Listen on this port (default: any free one), e.g. to be the PUBLIC_BASE_URL a test sets. */
    port?: number;
  } = {},
): Promise<TestApp> {
  const { port: requestedPort = 0, ...appOptions } = options;
  const databaseName = await createTestDatabase();
  // Secrets come from the local secrets file, as in every process a test spawns (CLI, worker).
  const config = loadConfig(
    withLocalSecrets({
      ...runEnvironment(),
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl(databaseName),
      DB_MIGRATE_ON_START: 'false',
      PUBLIC_BASE_URL: 'http://127.0.0.1',
      // Each test file has its own queues in the shared Redis, and local webhook receivers.
      QUEUE_PREFIX: databaseName,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_SWEEP_INTERVAL_MS: '200',
      // Tests ingest results at fixed dates, which age: retention is off unless a test sets it.
      TRANSCRIPT_RETENTION_DAYS: '0',
      // Every test talks from 127.0.0.1, with many page requests and wrong keys: the limits per
      // client address are off unless a test turns them on (test/address-limits.e2e-spec.ts).
      PUBLIC_RATE_LIMIT_REQUESTS: '0',
      AUTH_FAILURE_LIMIT: '0',
      ...env,
    }).env,
  );
  const app = await createApp(config, appOptions);
  await app.listen({ port: requestedPort, host: '127.0.0.1' });
  const { port } = app.getHttpServer().address() as AddressInfo;
  const db = new Pool({ connectionString: config.database.url, max: 2 });
  // An idle connection is terminated when the database is dropped at the end of a file.
  db.on('error', () => undefined);
  return new TestApp(app, config, `http://127.0.0.1:${port}`, databaseName, db);
}

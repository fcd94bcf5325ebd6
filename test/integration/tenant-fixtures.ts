/**
 * The service tier's fixtures for erasure, webhooks and email requests (docs/tests.md, "Service
 * tests below HTTP"): every service built as its module builds it, each on its real repositories
 * over a TestDatabase, from the configuration `loadConfig` checks (NODE_ENV=test). Nothing here
 * needs Redis, Bull or SMTP: what the services do is rows in PostgreSQL (the outbox, the email
 * log), read back by the specs. Tenants are made through the services themselves — a participant
 * joins a group with POST /session/create's service, a result goes through ingestion — so the
 * rows are what production writes, not what a fixture guesses.
 */
import { normaliseEmail, PiiCipher } from '../../src/common/crypto/pii-cipher';
import { ApiError } from '../../src/common/errors/api-error';
import { type AppConfig, loadConfig } from '../../src/config/config';
import type { Database } from '../../src/database/database';
import { ErasureService } from '../../src/erasure/erasure.service';
import { GroupAccess } from '../../src/groups/group-access';
import { GroupsRepository } from '../../src/groups/groups.repository';
import { IngestionRepository } from '../../src/ingestion/ingestion.repository';
import { IngestionService } from '../../src/ingestion/ingestion.service';
import { InteractRepository } from '../../src/interact/interact.repository';
import { InteractService } from '../../src/interact/interact.service';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import { cryptoRandom } from '../../src/metrics/releases/discrete-laplace';
import { MetricRollupsRepository } from '../../src/metrics/rollups/metric-rollups.repository';
import { SharedFeatures } from '../../src/metrics/rollups/shared-features';
import { MetricWindowsRepository } from '../../src/metrics/windows/metric-windows.repository';
import { WindowReleaser } from '../../src/metrics/windows/window-releaser';
import { BrowsersRepository } from '../../src/pages/browsers.repository';
import { LinkBindingsRepository } from '../../src/pages/link-bindings.repository';
import { LinkTokens } from '../../src/participant-links/link-tokens';
import { ParticipantLinks } from '../../src/participant-links/participant-links';
import { ConsentLedgerRepository } from '../../src/participants/consent-ledger.repository';
import { MembershipsRepository } from '../../src/participants/memberships.repository';
import { ParticipantsRepository } from '../../src/participants/participants.repository';
import { ParticipantChoices, type RaiseReach } from '../../src/privacy/participant-choices';
import type { SessionCreatedDto } from '../../src/sessions/dto/create-session.dto';
import { IdempotencyRepository } from '../../src/sessions/idempotency.repository';
import { SessionAccess } from '../../src/sessions/session-access';
import { SessionsRepository } from '../../src/sessions/sessions.repository';
import { SessionsService } from '../../src/sessions/sessions.service';
import { EventsRepository } from '../../src/webhooks/events/events.repository';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { WebhooksService } from '../../src/webhooks/webhooks.service';
import { databaseUrl } from '../support/databases';
import { engineResult, type EngineResult } from '../support/engine';
import { handedOffAndConfirmed } from './service-fixtures';
import type { TestDatabase } from './support';

/** The checked configuration of a test process, with `env` on top (e.g. EMAIL_DEDUP_WINDOW). */
export const testConfig = (t: TestDatabase, env: Record<string, string> = {}): AppConfig =>
  loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl(t.name), ...env });

/** Every repository and service of these specs, wired as the application wires them. */
export interface Services {
  config: AppConfig;
  cipher: PiiCipher;
  db: Database;
  links: ParticipantLinks;
  groups: GroupsRepository;
  participants: ParticipantsRepository;
  memberships: MembershipsRepository;
  ledger: ConsentLedgerRepository;
  sessionRecords: SessionsRepository;
  idempotency: IdempotencyRepository;
  rollups: MetricRollupsRepository;
  sharedFeatures: SharedFeatures;
  cohorts: CohortCellsRepository;
  windows: MetricWindowsRepository;
  releaser: WindowReleaser;
  events: EventsRepository;
  endpoints: WebhooksRepository;
  interactRepository: InteractRepository;
  linkBindings: LinkBindingsRepository;
  browsers: BrowsersRepository;
  sessions: SessionsService;
  ingestion: IngestionService;
  choices: ParticipantChoices;
  erasure: ErasureService;
  webhooks: WebhooksService;
  interact: InteractService;
}

/**
 * The services on `t`'s database. `db` replaces the database they run on (another pool of the
 * same database); `config` the configuration.
 */
export function servicesOn(
  t: TestDatabase,
  options: { config?: AppConfig; db?: Database } = {},
): Services {
  const config = options.config ?? testConfig(t);
  const db = options.db ?? t.db;
  const cipher = PiiCipher.fromKeys(config.dataEncryptionKey, config.dataKeys);
  const links = new ParticipantLinks(new LinkTokens(config), config);
  const groups = new GroupsRepository(db);
  const groupAccess = new GroupAccess(groups);
  const participants = new ParticipantsRepository(db);
  const memberships = new MembershipsRepository(db);
  const ledger = new ConsentLedgerRepository(db);
  const sessionRecords = new SessionsRepository(db);
  const idempotency = new IdempotencyRepository(db);
  const rollups = new MetricRollupsRepository(db);
  const sharedFeatures = new SharedFeatures(db, new SessionAccess(sessionRecords), rollups, cipher);
  const cohorts = new CohortCellsRepository(db);
  const windows = new MetricWindowsRepository(db);
  const releaser = new WindowReleaser(db, windows, cohorts, cipher, config, cryptoRandom);
  const events = new EventsRepository(db, cipher);
  const endpoints = new WebhooksRepository(db);
  const interactRepository = new InteractRepository(db);
  return {
    config,
    cipher,
    db,
    links,
    groups,
    participants,
    memberships,
    ledger,
    sessionRecords,
    idempotency,
    rollups,
    sharedFeatures,
    cohorts,
    windows,
    releaser,
    events,
    endpoints,
    interactRepository,
    linkBindings: new LinkBindingsRepository(db),
    browsers: new BrowsersRepository(db),
    sessions: new SessionsService(
      db,
      groupAccess,
      participants,
      memberships,
      sessionRecords,
      events,
      idempotency,
      cipher,
      links,
    ),
    ingestion: new IngestionService(
      db,
      new IngestionRepository(db),
      sessionRecords,
      rollups,
      sharedFeatures,
      releaser,
      groupAccess,
      events,
      cipher,
    ),
    choices: new ParticipantChoices(
      db,
      memberships,
      sessionRecords,
      sharedFeatures,
      participants,
      ledger,
      events,
      interactRepository,
      config,
    ),
    erasure: new ErasureService(
      db,
      participants,
      sharedFeatures,
      sessionRecords,
      cohorts,
      idempotency,
      ledger,
      events,
    ),
    webhooks: new WebhooksService(db, endpoints, groupAccess, events, cipher, config),
    interact: new InteractService(interactRepository, groupAccess, config),
  };
}

/** A participant as the enterprise and the database know them. */
export interface Person {
  email: string;
  externalId: string;
  participantId: string;
  /** The HMAC look-up hash of the (normalised) email, as stored. */
  emailHash: string;
}

/** A group with the key POST /session/create needs. */
export interface Group {
  enterpriseId: string;
  groupId: number;
  key: string;
}

/**
 * Tenants made through the services: groups (plain rows, support.ts), participants who join
 * with an email (SessionsService.create), results (IngestionService.ingest), levels
 * (ParticipantChoices).
 */
export class Tenants {
  constructor(
    private readonly t: TestDatabase,
    readonly s: Services,
  ) {}

  async group(enterpriseId: string, name = 'Night shift'): Promise<Group> {
    const groupId = await this.t.group(enterpriseId, { name });
    const { key } = await this.t.one<{ key: string }>(
      'SELECT key FROM groups WHERE group_id = $1',
      [groupId],
    );
    return { enterpriseId, groupId, key };
  }

  /** POST /session/create for `identifier` (an email or an ok_ id) in `group`. */
  createSession(
    group: Group,
    identifier: string,
    idempotencyKey?: string,
  ): Promise<SessionCreatedDto> {
    return this.s.sessions.create(
      group.enterpriseId,
      {
        groupID: group.groupId,
        groupKey: group.key,
        userIdentifier: identifier,
        returnURL: 'https://example.com/back',
      },
      idempotencyKey,
    );
  }

  /** A new participant: `email` joins `group` (a session created); answers them and the session. */
  async join(
    group: Group,
    email: string,
    idempotencyKey?: string,
  ): Promise<{ person: Person; sessionId: string }> {
    const created = await this.createSession(group, email, idempotencyKey);
    const { id } = await this.t.one<{ id: string }>(
      'SELECT id FROM participants WHERE external_id = $1',
      [created.userIdentifier],
    );
    return {
      person: {
        email,
        externalId: created.userIdentifier,
        participantId: id,
        emailHash: this.s.cipher.emailLookupHash(normaliseEmail(email)),
      },
      sessionId: created.sessionID,
    };
  }

  /**
   * The engine's result for `sessionId`, through ingestion (engineResult with `overrides`). By
   * default the check-in was handed off from its page and confirmed by the browser that did it
   * (docs/checkin-flow.md, "Hand-off"), at its own level if a page set one, else at the member's
   * level then; `{ handedOff: false }`: a check-in no page handed off, recorded at level 0.
   */
  async complete(
    sessionId: string,
    overrides: Partial<EngineResult> = {},
    options: { handedOff?: boolean } = {},
  ): Promise<void> {
    if (options.handedOff ?? true) await handedOffAndConfirmed(this.s.db, sessionId);
    await this.s.ingestion.ingest(sessionId, engineResult(overrides));
  }

  /** The participant sets their level in `group` (a check-in or settings page). */
  async setLevel(
    person: Person,
    group: Group,
    level: number,
    reach: RaiseReach = {},
  ): Promise<void> {
    const changed = await this.s.choices.setPrivacyLevel(
      {
        enterpriseId: group.enterpriseId,
        participantId: person.participantId,
        groupId: group.groupId,
        externalId: person.externalId,
      },
      level,
      reach.sessionId ? 'checkin' : 'settings',
      reach,
    );
    if (!changed) throw new Error(`no membership of ${person.externalId} in ${group.groupId}`);
  }
}

/**
 * Freezes the clock of `Date` (both `new Date()` and `Date.now()`) at `now`, for rules whose
 * value is the time (an event's timestamp, an expiry). Timers stay real: PostgreSQL's client and
 * HTTP keep working. Undo with `jest.useRealTimers()`.
 */
const freezeDate = (now: Date): void => {
  jest.useFakeTimers({
    now,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
};

/** Runs `work` with the clock of `Date` frozen at `now` (see freezeDate). */
export async function atFrozenTime<T>(now: Date, work: () => Promise<T>): Promise<T> {
  freezeDate(now);
  try {
    return await work();
  } finally {
    jest.useRealTimers();
  }
}

/** What `work` threw, as an ApiError's status and message (fails when it resolves). */
export async function apiErrorOf(
  work: Promise<unknown>,
): Promise<{ status: number; error: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, error: error.message };
    throw error;
  }
  throw new Error('expected an ApiError, but it resolved');
}

/** Every base table of the schema but the migrations' own, by name. */
export async function tableNames(t: TestDatabase): Promise<string[]> {
  const rows = await t.rows<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
        AND table_name NOT IN ('migrations', 'typeorm_migrations')
      ORDER BY 1`,
  );
  return rows.map((row) => row.name);
}

/** Every row of every table (or of `tables`) as text, sorted: a picture to compare. */
export async function snapshot(
  t: TestDatabase,
  tables?: readonly string[],
): Promise<Record<string, string[]>> {
  const picture: Record<string, string[]> = {};
  for (const name of tables ?? (await tableNames(t))) {
    const rows = await t.rows<{ row: string }>(`SELECT x::text AS row FROM "${name}" x`);
    picture[name] = rows.map((row) => row.row).sort();
  }
  return picture;
}

/**
 * Every row, in any table, whose text holds one of `needles`, as `needle → ["table: row", …]`
 * (only the needles found are keys: `{}` when none is anywhere).
 */
export async function rowsContaining(
  t: TestDatabase,
  needles: readonly string[],
): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const name of await tableNames(t)) {
    const rows = await t.rows<{ needle: string; row: string }>(
      `SELECT n AS needle, x::text AS row FROM "${name}" x, unnest($1::text[]) AS n
        WHERE strpos(x::text, n) > 0`,
      [needles],
    );
    for (const { needle, row } of rows) (found[needle] ??= []).push(`${name}: ${row}`);
  }
  return found;
}

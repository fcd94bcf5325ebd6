/**
 * The service tier's fixtures (docs/tests.md, "Service tests below HTTP"): SessionsService and
 * IngestionService built as their modules build them, every repository real on a TestDatabase.
 * Neither service touches Redis or Bull (their side effects are rows in the outbox), so nothing
 * is faked unless a test says so. Plain-SQL helpers for what the services' tests set up or read
 * back, beside the builders of support.ts.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { ApiError } from '../../src/common/errors/api-error';
import type { AppConfig } from '../../src/config/config';
import type { Database } from '../../src/database/database';
import { GroupAccess } from '../../src/groups/group-access';
import { GroupsRepository } from '../../src/groups/groups.repository';
import { IngestionRepository } from '../../src/ingestion/ingestion.repository';
import { IngestionService } from '../../src/ingestion/ingestion.service';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import { cryptoRandom, type RandomSource } from '../../src/metrics/releases/discrete-laplace';
import { MetricRollupsRepository } from '../../src/metrics/rollups/metric-rollups.repository';
import { SharedFeatures } from '../../src/metrics/rollups/shared-features';
import { MetricWindowsRepository } from '../../src/metrics/windows/metric-windows.repository';
import { WindowReleaser } from '../../src/metrics/windows/window-releaser';
import { LinkTokens } from '../../src/participant-links/link-tokens';
import { ParticipantLinks } from '../../src/participant-links/participant-links';
import { MembershipsRepository } from '../../src/participants/memberships.repository';
import { ParticipantsRepository } from '../../src/participants/participants.repository';
import { IdempotencyRepository } from '../../src/sessions/idempotency.repository';
import { SessionAccess } from '../../src/sessions/session-access';
import { SessionsRepository } from '../../src/sessions/sessions.repository';
import { SessionsService } from '../../src/sessions/sessions.service';
import { EventsRepository } from '../../src/webhooks/events/events.repository';
import { newEndpointId, TestDatabase } from './support';

/** Where the services' links point (PUBLIC_BASE_URL). */
export const PUBLIC_BASE_URL = 'https://checkin.example.com';

/** The slice of the configuration the participant links read; nothing else is configured. */
export const serviceConfig = (): AppConfig =>
  ({
    publicBaseUrl: PUBLIC_BASE_URL,
    // Hours: a check-in link lives a day, a mail's link 30 days.
    checkin: {
      tokenSecrets: [{ id: 'k1', secret: randomBytes(32).toString('hex') }],
      tokenTtlHours: 24,
    },
    email: { linkTtlHours: 720 },
  }) as unknown as AppConfig;

/** A data-key ring of its own per file (the root key only: `v2.k0.…`). */
export const newCipher = (): PiiCipher => new PiiCipher(randomBytes(32));

export interface SessionsServiceParts {
  service: SessionsService;
  /** The same links the service signs with, to read its redirectUrl back. */
  links: ParticipantLinks;
}

/** SessionsService as SessionsModule builds it, on `db`; `events` replaces the outbox's owner. */
export function sessionsServiceOn(
  db: Database,
  cipher: PiiCipher,
  events: EventsRepository = new EventsRepository(db, cipher),
): SessionsServiceParts {
  const config = serviceConfig();
  const links = new ParticipantLinks(new LinkTokens(config), config);
  const service = new SessionsService(
    db,
    new GroupAccess(new GroupsRepository(db)),
    new ParticipantsRepository(db),
    new MembershipsRepository(db),
    new SessionsRepository(db),
    events,
    new IdempotencyRepository(db),
    cipher,
    links,
  );
  return { service, links };
}

/** The grace period of the releases' tests (METRICS_RELEASE_GRACE_HOURS, its default). */
export const RELEASE_GRACE_HOURS = 48;

/**
 * WindowReleaser as MetricReleasesModule builds it, on `db`, with its real repositories; `random`
 * replaces crypto (to replay draws), `graceHours` the grace period. Nothing else of the
 * configuration is read.
 */
export function windowReleaserOn(
  db: Database,
  cipher: PiiCipher,
  options: { random?: RandomSource; graceHours?: number } = {},
): WindowReleaser {
  const config = {
    metrics: { releaseGraceHours: options.graceHours ?? RELEASE_GRACE_HOURS },
  } as unknown as AppConfig;
  return new WindowReleaser(
    db,
    new MetricWindowsRepository(db),
    new CohortCellsRepository(db),
    cipher,
    config,
    options.random ?? cryptoRandom,
  );
}

/** IngestionService as IngestionModule builds it, on `db`; `events` replaces the outbox's owner. */
export function ingestionServiceOn(
  db: Database,
  cipher: PiiCipher,
  events: EventsRepository = new EventsRepository(db, cipher),
): IngestionService {
  const sessions = new SessionsRepository(db);
  const rollups = new MetricRollupsRepository(db);
  return new IngestionService(
    db,
    new IngestionRepository(db),
    sessions,
    rollups,
    new SharedFeatures(db, new SessionAccess(sessions), rollups, cipher),
    windowReleaserOn(db, cipher),
    new GroupAccess(new GroupsRepository(db)),
    events,
    cipher,
  );
}

/** What a refused call answers: the ApiError's status and message (what the filter writes). */
export async function refusal(work: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, error: error.message };
    throw error;
  }
  throw new Error('expected an ApiError, but the call succeeded');
}

/** The group's key (`gk_…`), as session creation asks for it. */
export async function groupKey(t: TestDatabase, groupId: number): Promise<string> {
  const { key } = await t.one<{ key: string }>('SELECT key FROM groups WHERE group_id = $1', [
    groupId,
  ]);
  return key;
}

/** An enabled endpoint of the group taking `events` (the outbox writes one delivery each). */
export async function subscribedEndpoint(
  t: TestDatabase,
  enterpriseId: string,
  groupId: number,
  events: readonly string[],
): Promise<string> {
  const id = newEndpointId();
  await t.rows(
    `INSERT INTO webhook_endpoints
       (id, enterprise_id, group_id, url, description, enabled_events, secret_ciphertext)
     VALUES ($1, $2, $3, 'https://hooks.example.com/in', 'service test', $4, 'secret')`,
    [id, enterpriseId, groupId, events],
  );
  return id;
}

/** Rows in each table the services write: a refused call must leave every count as it was. */
export async function rowCounts(t: TestDatabase): Promise<Record<string, number>> {
  const tables = [
    'participants',
    'memberships',
    'sessions',
    'events',
    'webhook_deliveries',
    'idempotency_keys',
    'cohort_pending',
    'metric_windows',
    'metric_releases',
    'group_day_counts',
    'group_feature_values',
    'group_feature_histograms',
  ];
  const [row] = await t.rows<Record<string, number>>(
    `SELECT ${tables.map((table) => `(SELECT count(*)::int FROM ${table}) AS ${table}`).join(', ')}`,
  );
  return row;
}

/**
 * An outbox that writes the event, then fails (as a lost connection would after the INSERT): what
 * the caller wrote in the same transaction must be rolled back with it.
 */
export class FailingAfterInsertEvents extends EventsRepository {
  static readonly failure = 'the outbox failed after writing';

  override async insert(...args: Parameters<EventsRepository['insert']>): Promise<string> {
    await super.insert(...args);
    throw new Error(FailingAfterInsertEvents.failure);
  }
}

/** Sets a membership's level (the member's level now) by the membership of `sessionId`. */
export async function setMemberLevel(
  t: TestDatabase,
  sessionId: string,
  level: number,
): Promise<void> {
  await t.rows(
    `UPDATE memberships m SET privacy_level = $2 FROM sessions s
      WHERE s.session_id = $1 AND m.participant_id = s.participant_id AND m.group_id = s.group_id`,
    [sessionId, level],
  );
}

/**
 * A pending check-in handed off from its page and confirmed by the browser that did it
 * (docs/checkin-flow.md, "Hand-off"): shared at `level`, else at the level a page set, else at the
 * member's level now. A result ingested afterwards counts at that level.
 */
export async function handedOffAndConfirmed(
  db: Pick<Database, 'rows'>,
  sessionId: string,
  level: number | null = null,
): Promise<void> {
  await db.rows(
    `UPDATE sessions s
        SET shared_level = coalesce($2, s.shared_level, m.privacy_level),
            handoff_confirmed_at = now()
       FROM memberships m
      WHERE s.session_id = $1 AND s.status = 'created'
        AND m.participant_id = s.participant_id AND m.group_id = s.group_id`,
    [sessionId, level],
  );
}

/** Sets a check-in's own level (`shared_level`; null: never handed off). */
export async function setSharedLevel(
  t: TestDatabase,
  sessionId: string,
  level: number | null,
): Promise<void> {
  await t.rows('UPDATE sessions SET shared_level = $2 WHERE session_id = $1', [sessionId, level]);
}

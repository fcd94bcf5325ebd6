/**
 * The participant tier's fixtures: the participant's choices (privacy/participant-choices.ts), the
 * privacy requests (PrivacyService) and the page services (check-in, settings, unsubscribe) built
 * as the application wires them, on their real repositories over a TestDatabase. Nothing of them
 * needs Redis, Bull or SMTP: mails and webhook events are rows in PostgreSQL (email_messages,
 * events, webhook_deliveries), asserted there.
 *
 * Two test doubles, both thin: a renderer that also keeps the model of every page it renders (so
 * a test reads what a page shows, not its markup), and a browser that keeps the cookie the
 * services set, as PageBrowser does over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { sha256Hex } from '../../src/common/crypto/secrets';
import { Measurements } from '../../src/common/measurements/measurements';
import { AppConfig, loadConfig } from '../../src/config/config';
import type { Database } from '../../src/database/database';
import { ProgrammesRepository } from '../../src/enterprises/programme/programmes.repository';
import { ProgrammesService } from '../../src/enterprises/programme/programmes.service';
import { ErasureService } from '../../src/erasure/erasure.service';
import { GroupAccess } from '../../src/groups/group-access';
import { GroupsRepository } from '../../src/groups/groups.repository';
import { InteractRepository } from '../../src/interact/interact.repository';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import { MetricRollupsRepository } from '../../src/metrics/rollups/metric-rollups.repository';
import { SharedFeatures } from '../../src/metrics/rollups/shared-features';
import {
  Browser,
  BrowserBinding,
  PLAIN_BROWSER_COOKIE,
  PLAIN_DEVICE_COOKIE,
} from '../../src/pages/browser-binding';
import { BrowsersRepository } from '../../src/pages/browsers.repository';
import { CheckinPagesRepository } from '../../src/pages/checkin-pages.repository';
import { CheckinPagesService } from '../../src/pages/checkin-pages.service';
import { LinkBindingsRepository } from '../../src/pages/link-bindings.repository';
import type { PageLanguage } from '../../src/pages/i18n/page-language';
import { PageError } from '../../src/pages/page-error';
import { PageRenderer } from '../../src/pages/page-renderer';
import type { PageModels, PageName } from '../../src/pages/page-templates';
import { SettingsPagesService } from '../../src/pages/settings-pages.service';
import { UnsubscribePages } from '../../src/pages/unsubscribe-pages';
import { LinkTokens } from '../../src/participant-links/link-tokens';
import { ParticipantLinks } from '../../src/participant-links/participant-links';
import { ConsentLedgerRepository } from '../../src/participants/consent-ledger.repository';
import { MembershipsRepository } from '../../src/participants/memberships.repository';
import { ParticipantsRepository } from '../../src/participants/participants.repository';
import { Member, ParticipantChoices } from '../../src/privacy/participant-choices';
import { PrivacyService } from '../../src/privacy/privacy.service';
import { IdempotencyRepository } from '../../src/sessions/idempotency.repository';
import { SessionAccess } from '../../src/sessions/session-access';
import { SessionsRepository } from '../../src/sessions/sessions.repository';
import type { TranscriptTurn } from '../../src/sessions/session.entity';
import { sealJson, sealTranscript } from '../../src/sessions/transcript-codec';
import { EventsRepository } from '../../src/webhooks/events/events.repository';
import { TestDatabase } from './support';

export const ENGINE_URL = 'https://engine.example.com/start';

/** The configuration of a test process (http, so the browser cookie is `checkin_browser`). */
export function participantConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    TRANSCRIPT_RETENTION_DAYS: '0',
    ENGINE_URL,
    ...env,
  });
}

/** A rendered page with its model, a redirect, or an attachment, as the services answer. */
export interface PageAnswer {
  status: number;
  /** The page rendered, with the model it was given; null for redirects and attachments. */
  page: RenderedPage | null;
  location: string | null;
  setCookie: string[];
  /** A JSON attachment's parsed body. */
  attachment: unknown;
}

export type RenderedPage = { [N in PageName]: { name: N; model: PageModels[N] } }[PageName];

/** The real renderer, which also keeps the model each page was rendered from. */
export class ModelKeepingRenderer extends PageRenderer {
  private readonly models = new WeakMap<Response, RenderedPage>();

  override page<N extends PageName>(
    name: N,
    model: PageModels[N],
    language: PageLanguage,
    status = 200,
  ): Response {
    const response = super.page(name, model, language, status);
    this.models.set(response, { name, model } as RenderedPage);
    return response;
  }

  async answer(response: Response): Promise<PageAnswer> {
    const isAttachment = response.headers.get('content-disposition')?.startsWith('attachment');
    return {
      status: response.status,
      page: this.models.get(response) ?? null,
      location: response.headers.get('location'),
      setCookie: response.headers.getSetCookie(),
      attachment: isAttachment ? JSON.parse(await response.text()) : null,
    };
  }
}

/** What a refused request answers (the HTML filter renders it): status, page, link back. */
export interface Refusal {
  status: number;
  kind: string;
  backHref: string | null;
}

/** The PageError `call` was refused with; fails when it was not refused. */
export async function refusal(call: Promise<unknown>): Promise<Refusal> {
  try {
    await call;
  } catch (error) {
    if (error instanceof PageError) {
      return { status: error.status, kind: error.kind, backHref: error.backHref };
    }
    throw error;
  }
  throw new Error('expected a page error, but the call succeeded');
}

/** Every service of the participant tier, wired as the application wires them. */
export interface ParticipantServices {
  config: AppConfig;
  cipher: PiiCipher;
  tokens: LinkTokens;
  links: ParticipantLinks;
  measurements: Measurements;
  renderer: ModelKeepingRenderer;
  choices: ParticipantChoices;
  privacy: PrivacyService;
  binding: BrowserBinding;
  checkinPages: CheckinPagesService;
  settingsPages: SettingsPagesService;
  unsubscribePages: UnsubscribePages;
}

export function participantServices(
  db: Database,
  config: AppConfig = participantConfig(),
  cipher: PiiCipher = new PiiCipher(randomBytes(32)),
): ParticipantServices {
  const memberships = new MembershipsRepository(db);
  const sessions = new SessionsRepository(db);
  const participants = new ParticipantsRepository(db);
  const ledger = new ConsentLedgerRepository(db);
  const events = new EventsRepository(db, cipher);
  const sharedFeatures = new SharedFeatures(
    db,
    new SessionAccess(sessions),
    new MetricRollupsRepository(db),
    cipher,
  );
  const choices = new ParticipantChoices(
    db,
    memberships,
    sessions,
    sharedFeatures,
    participants,
    ledger,
    events,
    new InteractRepository(db),
    config,
  );
  const tokens = new LinkTokens(config);
  const links = new ParticipantLinks(tokens, config);
  const measurements = new Measurements();
  const binding = new BrowserBinding(
    db,
    new LinkBindingsRepository(db),
    new BrowsersRepository(db),
    memberships,
    measurements,
    config,
  );
  const renderer = new ModelKeepingRenderer(config);
  const pages = new CheckinPagesRepository(db);
  const programmes = new ProgrammesService(new ProgrammesRepository(db));
  const erasure = new ErasureService(
    db,
    participants,
    sharedFeatures,
    sessions,
    new CohortCellsRepository(db),
    new IdempotencyRepository(db),
    ledger,
    events,
  );
  return {
    config,
    cipher,
    tokens,
    links,
    measurements,
    renderer,
    choices,
    privacy: new PrivacyService(new GroupAccess(new GroupsRepository(db)), participants),
    binding,
    checkinPages: new CheckinPagesService(
      pages,
      choices,
      binding,
      new SessionAccess(sessions),
      memberships,
      links,
      renderer,
      programmes,
      config,
    ),
    settingsPages: new SettingsPagesService(
      pages,
      choices,
      binding,
      ledger,
      erasure,
      new SessionAccess(sessions),
      cipher,
      links,
      renderer,
      programmes,
    ),
    unsubscribePages: new UnsubscribePages(links, participants, choices, renderer),
  };
}

/**
 * A browser (over http): it keeps the `checkin_browser` and `checkin_device` cookies the services
 * set, and sends them with every request, as PageBrowser does over HTTP.
 */
export class TestBrowser {
  constructor(
    private readonly renderer: ModelKeepingRenderer,
    /** The identity cookie's value; null: a browser that never had one. */
    public cookie: string | null = null,
    /** The device cookie's value (browser-binding.ts); null: none yet. */
    public device: string | null = null,
  ) {}

  /** What the request shows of this browser (its Cookie header, parsed as the pages parse it). */
  get request(): Browser {
    const cookies = [
      ...(this.cookie === null ? [] : [`${PLAIN_BROWSER_COOKIE}=${this.cookie}`]),
      ...(this.device === null ? [] : [`${PLAIN_DEVICE_COOKIE}=${this.device}`]),
    ];
    return BrowserBinding.browserOf(cookies.length === 0 ? undefined : cookies.join('; '));
  }

  /** The identity its cookie is stored as (`browsers.hash`, `link_bindings.browser_hash`). */
  get hash(): string {
    if (this.cookie === null) throw new Error('this browser has no cookie');
    return sha256Hex(this.cookie);
  }

  /** The answer to a request of this browser, keeping the cookie it sets. */
  async send(call: (browser: Browser) => Promise<Response>): Promise<PageAnswer> {
    const answer = await this.renderer.answer(await call(this.request));
    for (const header of answer.setCookie) {
      const [pair] = header.split(';');
      const [name, value] = pair.split('=');
      if (name === PLAIN_BROWSER_COOKIE) this.cookie = value;
      if (name === PLAIN_DEVICE_COOKIE) this.device = value;
    }
    return answer;
  }

  /** The page error a request of this browser is refused with. */
  refused(call: (browser: Browser) => Promise<unknown>): Promise<Refusal> {
    return refusal(call(this.request));
  }
}

/** One member: an enterprise, a group and a participant in it. */
export interface MemberWorld {
  enterpriseId: string;
  groupId: number;
  participantId: string;
  externalId: string;
  email: string;
  /** As the pages hand it to the participant's choices. */
  member: Member;
}

export interface MemberOptions {
  enterpriseName?: string;
  groupName?: string;
  /** The member's own level at the start. */
  level?: number;
  consentRequired?: boolean;
  /** The group's request (names as requested). */
  groupRequest?: string[];
  /** The participant's own request. */
  participantRequest?: string[] | null;
  sandbox?: boolean;
  /** An existing enterprise (then enterpriseName and sandbox are ignored). */
  enterpriseId?: string;
}

let emails = 0;

/** A new member (of a new group, of a new enterprise unless one is given). */
export async function newMember(
  t: TestDatabase,
  cipher: PiiCipher,
  options: MemberOptions = {},
): Promise<MemberWorld> {
  const enterpriseId =
    options.enterpriseId ??
    (await t.enterprise(options.enterpriseName ?? 'Acme', { sandbox: options.sandbox }));
  const groupId = await t.group(enterpriseId, {
    name: options.groupName ?? 'Night shift',
    requestedPrivacy: options.groupRequest,
  });
  if (options.consentRequired) {
    await t.rows('UPDATE groups SET consent_required = true WHERE group_id = $1', [groupId]);
  }
  const email = `member${++emails}@example.com`;
  const participantId = await t.participant(enterpriseId, {
    emailCiphertext: cipher.encrypt(email),
    requestedPrivacy: options.participantRequest,
  });
  await t.membership(participantId, groupId, options.level ?? 0);
  const { externalId } = await t.one<{ externalId: string }>(
    'SELECT external_id AS "externalId" FROM participants WHERE id = $1',
    [participantId],
  );
  return {
    enterpriseId,
    groupId,
    participantId,
    externalId,
    email,
    member: { enterpriseId, participantId, groupId, externalId },
  };
}

/** The same participant in another group of its enterprise. */
export async function joinGroup(
  t: TestDatabase,
  world: MemberWorld,
  options: { groupName?: string; level?: number } = {},
): Promise<MemberWorld> {
  const groupId = await t.group(world.enterpriseId, { name: options.groupName ?? 'Day shift' });
  await t.membership(world.participantId, groupId, options.level ?? 0);
  return { ...world, groupId, member: { ...world.member, groupId } };
}

/** A check-in not yet done (status `created`, no level of its own). */
export function newCheckin(t: TestDatabase, world: MemberWorld): Promise<string> {
  return t.session(world.enterpriseId, world.participantId, world.groupId);
}

/** What every completed check-in of these fixtures said. */
export const CHECKIN_TRANSCRIPT: TranscriptTurn[] = [
  { role: 'assistant', content: 'How are you?' },
  { role: 'user', content: 'Tired, but fine.' },
];

/**
 * A completed check-in, shared at the member's level now (as ingestion records it), with its
 * sealed transcript and `features` (the values the group comparisons count when it is shown at
 * level 5).
 */
export async function completedCheckin(
  t: TestDatabase,
  cipher: PiiCipher,
  world: MemberWorld,
  features: Record<string, number> = { pitch: 0.25 },
): Promise<string> {
  const sessionId = await t.session(world.enterpriseId, world.participantId, world.groupId, {
    completedAt: new Date().toISOString(),
    mhci: 42,
  });
  await t.rows(
    `UPDATE sessions SET version = 'v1.0.0',
            subscores = '{"vision":1,"audio":2,"transcript":3,"assessment":4}',
            group_percentiles = '{}', user_percentiles = '{}', features = $2, transcript = $3
      WHERE session_id = $1`,
    [sessionId, sealJson(cipher, features), sealTranscript(cipher, CHECKIN_TRANSCRIPT)],
  );
  return sessionId;
}

/** Marks a check-in completed (the engine's result arrived), keeping its level. */
export async function complete(t: TestDatabase, sessionId: string): Promise<void> {
  await t.rows(
    `UPDATE sessions SET status = 'completed', completed_at = now(), version = 'v1.0.0', mhci = 50
      WHERE session_id = $1`,
    [sessionId],
  );
}

/**
 * The check-in's link held by the browser `browserHash`, as a Start in that browser leaves it
 * (for the choices' tests, which take browsers as identities).
 */
export async function bindCheckin(
  t: TestDatabase,
  world: MemberWorld,
  sessionId: string,
  browserHash: string,
): Promise<void> {
  await t.rows(
    `INSERT INTO link_bindings (link, browser_hash, participant_id) VALUES ($1, $2, $3)`,
    [`checkin:${sessionId}`, browserHash, world.participantId],
  );
}

/** A webhook endpoint of the group taking `events` (the outbox writes one delivery per event). */
export async function endpointTaking(
  t: TestDatabase,
  world: MemberWorld,
  events: string[],
): Promise<string> {
  const endpointId = await t.endpoint(world.enterpriseId, world.groupId);
  await t.rows('UPDATE webhook_endpoints SET enabled_events = $2 WHERE id = $1', [
    endpointId,
    events,
  ]);
  return endpointId;
}

// Reading back -------------------------------------------------------------------------------

export interface MembershipState {
  privacyLevel: number;
  consented: boolean;
  linkVersion: number;
  raisedIn: string | null;
  levelBeforeRaise: number | null;
}

export const membershipOf = (t: TestDatabase, world: MemberWorld): Promise<MembershipState> =>
  t.one<MembershipState>(
    `SELECT privacy_level AS "privacyLevel", consented_at IS NOT NULL AS consented,
            link_version AS "linkVersion", raised_in AS "raisedIn",
            level_before_raise AS "levelBeforeRaise"
       FROM memberships WHERE participant_id = $1 AND group_id = $2`,
    [world.participantId, world.groupId],
  );

export interface SessionState {
  sharedLevel: number | null;
  consented: boolean;
  featuresShared: boolean;
}

export const sessionOf = (t: TestDatabase, sessionId: string): Promise<SessionState> =>
  t.one<SessionState>(
    `SELECT shared_level AS "sharedLevel", consented_at IS NOT NULL AS consented,
            features_shared AS "featuresShared"
       FROM sessions WHERE session_id = $1`,
    [sessionId],
  );

/** The check-ins' own levels, in the order given. */
export const sharedLevels = async (
  t: TestDatabase,
  sessionIds: readonly string[],
): Promise<(number | null)[]> =>
  Promise.all(sessionIds.map(async (id) => (await sessionOf(t, id)).sharedLevel));

export interface LedgerRow {
  groupID: number | null;
  sessionID: string | null;
  change: string;
  from: unknown;
  to: unknown;
  via: string;
}

/** The participant's consent ledger, oldest first, without the times. */
export const ledgerOf = (t: TestDatabase, participantId: string): Promise<LedgerRow[]> =>
  t.rows<LedgerRow>(
    `SELECT group_id::int AS "groupID", session_id AS "sessionID", change, from_value AS "from",
            to_value AS "to", via
       FROM consent_ledger WHERE participant_id = $1 ORDER BY id`,
    [participantId],
  );

/** The `user.privacy.updated` payloads of the group, oldest first, without their timestamp. */
export const privacyEventsOf = async (
  t: TestDatabase,
  groupId: number,
): Promise<Record<string, unknown>[]> =>
  (
    await t.rows<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM events WHERE group_id = $1 AND type = 'user.privacy.updated'
        ORDER BY created_at, id`,
      [groupId],
    )
  ).map(({ payload }) => {
    const { timestamp, ...rest } = payload;
    expect(typeof timestamp).toBe('string');
    return rest;
  });

export interface MailRow {
  type: string;
  status: string;
  groupId: number;
  details: unknown;
}

/** The participant's mails, oldest first. */
export const mailsOf = (t: TestDatabase, participantId: string): Promise<MailRow[]> =>
  t.rows<MailRow>(
    `SELECT type, status, group_id::int AS "groupId", details FROM email_messages
      WHERE participant_id = $1 ORDER BY created_at, id`,
    [participantId],
  );

/** The browsers (identities) answering "Keep" for the membership. */
export const raiseAnswersOf = async (t: TestDatabase, world: MemberWorld): Promise<string[]> =>
  (
    await t.rows<{ browserHash: string }>(
      `SELECT browser_hash AS "browserHash" FROM membership_raise_answers
        WHERE participant_id = $1 AND group_id = $2 ORDER BY browser_hash`,
      [world.participantId, world.groupId],
    )
  ).map((row) => row.browserHash);

/** Which identity holds a link (`checkin:<session>`, `settings:<sha of token>`); null: unbound. */
export const holderOf = async (t: TestDatabase, link: string): Promise<string | null> =>
  (
    await t.rows<{ browserHash: string }>(
      'SELECT browser_hash AS "browserHash" FROM link_bindings WHERE link = $1',
      [link],
    )
  )[0]?.browserHash ?? null;

/** The participant's bindings, as `link → identity`. */
export const bindingsOf = async (
  t: TestDatabase,
  participantId: string,
): Promise<Record<string, string>> =>
  Object.fromEntries(
    (
      await t.rows<{ link: string; browserHash: string }>(
        `SELECT link, browser_hash AS "browserHash" FROM link_bindings
          WHERE participant_id = $1 ORDER BY link`,
        [participantId],
      )
    ).map((row) => [row.link, row.browserHash]),
  );

/** The exact values the group comparisons count (group_feature_values), as `name=value ×n`. */
export const comparedValuesOf = async (t: TestDatabase, groupId: number): Promise<string[]> =>
  (
    await t.rows<{ name: string; value: number; count: number }>(
      `SELECT name, value, count FROM group_feature_values WHERE group_id = $1
        ORDER BY name, value`,
      [groupId],
    )
  ).map((row) => `${row.name}=${row.value} ×${row.count}`);

/** The browser cookie a binding sets on an http host (docs/privacy.md). */
export const BROWSER_SET_COOKIE =
  /^checkin_browser=[A-Za-z0-9_-]{43}; Max-Age=15552000; Path=\/; HttpOnly; SameSite=Lax$/;

/** The device cookie set with a browser's first identity, on an http host (browser-binding.ts). */
export const DEVICE_SET_COOKIE =
  /^checkin_device=[A-Za-z0-9_-]{43}; Max-Age=15552000; Path=\/; HttpOnly; SameSite=Lax$/;

/**
 * A privacy notice's stored details (src/interact/privacy-notice.ts): the raises it carries, in
 * the order made, each with its time; `from` and `to` are the level before the first and after
 * the last.
 */
export const noticeDetailsOf = (...raises: [from: number, to: number][]) => ({
  from: raises[0][0],
  to: raises[raises.length - 1][1],
  raises: raises.map(([from, to]) => ({ from, to, at: expect.any(String) as unknown })),
});

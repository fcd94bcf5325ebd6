import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The schema of the first release, in one migration (docs/operations.md, "Migrations"): every
 * table, grouped by the module that owns it (docs/design.md, "Table ownership"), with its
 * constraints and indexes. Later changes are new migrations after this one; this one is never
 * edited once released.
 *
 * What each table holds is in docs/design.md ("Data model"); what is encrypted, and how, in
 * docs/data-at-rest.md. The entities (src/**\/*.entity.ts) describe the same schema, and
 * test/migrations-match-entities.e2e-spec.ts holds the two equal.
 */
export class Baseline1767000000000 implements MigrationInterface {
  name = 'Baseline1767000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of [
      ...ENTERPRISES,
      ...GROUPS,
      ...PARTICIPANTS,
      ...SESSIONS,
      ...PAGES,
      ...WEBHOOKS,
      ...INTERACT,
      ...METRICS,
    ]) {
      await queryRunner.query(statement);
    }
  }

  /** Drops everything `up` created, leaving the database as PostgreSQL creates it. */
  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
    await queryRunner.query('DROP FUNCTION feature_bucket(double precision)');
  }
}

// Not exported: TypeORM takes every function a migration file exports for a migration class.

/** The tables `up` creates, in creation order (each after those its foreign keys name). */
const TABLES = [
  'enterprises',
  'api_keys',
  'groups',
  'participants',
  'memberships',
  'membership_raise_answers',
  'consent_ledger',
  'sessions',
  'idempotency_keys',
  'link_bindings',
  'browsers',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'delivery_attempts',
  'email_messages',
  'sandbox_emails',
  'cohort_cells',
  'cohort_cell_words',
  'cohort_score_prefixes',
  'cohort_word_prefixes',
  'cohort_pending',
  'cohort_checks',
  'group_day_counts',
  'group_feature_histograms',
  'group_feature_values',
];

/** The privacy names a group or participant may request (spec spelling, typo included). */
const PRIVACY_NAMES = `ARRAY['mhci'::text, 'groupPerecntiles'::text, 'userPercentiles'::text, 'transcript'::text, 'features'::text]`;

/** enterprises/: tenants and their API keys (only a SHA-256 of each key). */
const ENTERPRISES = [
  `CREATE TABLE enterprises (
     id uuid NOT NULL DEFAULT gen_random_uuid(),
     name text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     -- The privacy floor of group metrics (docs/metrics.md).
     min_cohort_scores smallint NOT NULL DEFAULT '5',
     min_cohort_words smallint NOT NULL DEFAULT '10',
     -- A sandbox: sessions completed without the engine, mails captured (docs/integrating.md).
     sandbox boolean NOT NULL DEFAULT false,
     min_word_speakers smallint NOT NULL DEFAULT '3',
     -- The privacy budget of each differentially private release (docs/metrics.md).
     epsilon numeric(4,2) NOT NULL DEFAULT '1',
     CONSTRAINT enterprises_pkey PRIMARY KEY (id),
     CONSTRAINT enterprises_name_not_blank CHECK ((length(btrim(name)) > 0)),
     CONSTRAINT enterprises_min_cohort_scores_range
       CHECK (((min_cohort_scores >= 1) AND (min_cohort_scores <= 100))),
     CONSTRAINT enterprises_min_cohort_words_range
       CHECK (((min_cohort_words >= 1) AND (min_cohort_words <= 100))),
     CONSTRAINT enterprises_min_word_speakers_range
       CHECK (((min_word_speakers >= 1) AND (min_word_speakers <= 100))),
     CONSTRAINT enterprises_epsilon_range
       CHECK (((epsilon >= 0.1) AND (epsilon <= (10)::numeric))))`,

  `CREATE TABLE api_keys (
     id uuid NOT NULL DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL,
     prefix text NOT NULL,
     key_hash text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     last_used_at timestamptz,
     revoked_at timestamptz,
     CONSTRAINT api_keys_pkey PRIMARY KEY (id),
     CONSTRAINT api_keys_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE,
     CONSTRAINT api_keys_key_hash_format CHECK ((key_hash ~ '^[0-9a-f]{64}$')))`,
  'CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)',
  'CREATE UNIQUE INDEX api_keys_prefix_key ON api_keys (prefix)',
  'CREATE INDEX api_keys_enterprise_idx ON api_keys (enterprise_id)',
];

/** groups/. */
const GROUPS = [
  `CREATE TABLE groups (
     group_id bigint GENERATED ALWAYS AS IDENTITY,
     enterprise_id uuid NOT NULL,
     name text NOT NULL,
     key text NOT NULL,
     invite_code text NOT NULL,
     consent_required boolean NOT NULL DEFAULT false,
     credits integer NOT NULL DEFAULT 0,
     requested_privacy text[] NOT NULL DEFAULT '{}',
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT groups_pkey PRIMARY KEY (group_id),
     CONSTRAINT groups_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE,
     CONSTRAINT groups_requested_privacy_names CHECK ((requested_privacy <@ ${PRIVACY_NAMES})))`,
  'CREATE UNIQUE INDEX groups_key_key ON groups (key)',
  'CREATE UNIQUE INDEX groups_invite_code_key ON groups (invite_code)',
  // "The enterprise's groups, in id order" (GET /groups) and every tenant-scoped look-up.
  'CREATE INDEX groups_enterprise_idx ON groups (enterprise_id, group_id)',
];

/**
 * participants/: one identity per (enterprise, email), the email encrypted and found by its HMAC;
 * memberships with the member's privacy level, consent and link version; the consent ledger.
 */
const PARTICIPANTS = [
  `CREATE TABLE participants (
     id uuid NOT NULL DEFAULT gen_random_uuid(),
     external_id text NOT NULL,
     enterprise_id uuid NOT NULL,
     email_ciphertext text NOT NULL,
     email_hash text NOT NULL,
     pref_checkin_reminder boolean NOT NULL DEFAULT true,
     pref_privacy_request boolean NOT NULL DEFAULT true,
     requested_privacy text[],
     created_at timestamptz NOT NULL DEFAULT now(),
     -- Chosen on a participant page (docs/i18n.md); null: never chosen. An unknown code reads as
     -- English, so adding a language needs no migration.
     language text,
     CONSTRAINT participants_pkey PRIMARY KEY (id),
     CONSTRAINT participants_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE,
     CONSTRAINT participants_external_id_format CHECK ((external_id ~ '^ok_[0-9a-f]{48}$')),
     CONSTRAINT participants_requested_privacy_names
       CHECK ((requested_privacy <@ ${PRIVACY_NAMES})),
     CONSTRAINT participants_language_format
       CHECK ((language ~ '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$')))`,
  'CREATE UNIQUE INDEX participants_external_id_key ON participants (external_id)',
  // One identity per (enterprise, email): concurrent first sessions for one email create exactly
  // one participant.
  'CREATE UNIQUE INDEX participants_enterprise_email_key ON participants (enterprise_id, email_hash)',

  `CREATE TABLE memberships (
     participant_id uuid NOT NULL,
     group_id bigint NOT NULL,
     join_date timestamptz NOT NULL DEFAULT now(),
     privacy_level smallint NOT NULL DEFAULT 0,
     consented_at timestamptz,
     -- Carried by settings and unsubscribe links; bumped to revoke every earlier one
     -- (docs/security.md).
     link_version integer NOT NULL DEFAULT 0,
     -- The browser whose page made the pending raise of the level, and the level before it
     -- (docs/privacy.md).
     raised_in text,
     level_before_raise smallint,
     CONSTRAINT memberships_pkey PRIMARY KEY (participant_id, group_id),
     CONSTRAINT memberships_participant_fkey FOREIGN KEY (participant_id)
       REFERENCES participants (id) ON DELETE CASCADE,
     CONSTRAINT memberships_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE,
     CONSTRAINT memberships_privacy_level_range
       CHECK (((privacy_level >= 0) AND (privacy_level <= 5))))`,
  'CREATE INDEX memberships_group_idx ON memberships (group_id, join_date)',
  // A browser's identity moves at every Start: the raises it made move with it.
  'CREATE INDEX memberships_raised_in_idx ON memberships (raised_in) WHERE (raised_in IS NOT NULL)',

  // "Keep level N" holds only in the browser that answered it.
  `CREATE TABLE membership_raise_answers (
     participant_id uuid NOT NULL,
     group_id bigint NOT NULL,
     browser_hash text NOT NULL,
     answered_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT membership_raise_answers_pkey PRIMARY KEY (participant_id, group_id, browser_hash),
     CONSTRAINT membership_raise_answers_membership_fkey FOREIGN KEY (participant_id, group_id)
       REFERENCES memberships (participant_id, group_id) ON DELETE CASCADE)`,
  'CREATE INDEX membership_raise_answers_browser_idx ON membership_raise_answers (browser_hash)',

  // Every consent, privacy-level and email-preference change, appended (docs/privacy.md).
  `CREATE TABLE consent_ledger (
     id bigint GENERATED ALWAYS AS IDENTITY,
     enterprise_id uuid NOT NULL,
     participant_id uuid,
     group_id bigint,
     change text NOT NULL,
     from_value jsonb,
     to_value jsonb,
     via text NOT NULL,
     at timestamptz NOT NULL DEFAULT now(),
     -- The check-in whose page made the change; null from the settings page or a mail's link.
     session_id text,
     CONSTRAINT consent_ledger_pkey PRIMARY KEY (id),
     CONSTRAINT consent_ledger_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE,
     CONSTRAINT consent_ledger_participant_fkey FOREIGN KEY (participant_id)
       REFERENCES participants (id) ON DELETE CASCADE,
     CONSTRAINT consent_ledger_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE,
     CONSTRAINT consent_ledger_change_values CHECK ((change = ANY (ARRAY['consent'::text,
       'privacyLevel'::text, 'checkinReminder'::text, 'privacyRequest'::text, 'erasure'::text]))),
     CONSTRAINT consent_ledger_via_values CHECK ((via = ANY (ARRAY['checkin'::text,
       'settings'::text, 'unsubscribe'::text, 'erasure'::text]))))`,
  'CREATE INDEX consent_ledger_participant_idx ON consent_ledger (participant_id, id)',
];

/**
 * sessions/: check-ins and their results (transcript, features and word counts encrypted with the
 * data keys, docs/data-at-rest.md), and the `Idempotency-Key` records of session creation.
 */
const SESSIONS = [
  `CREATE TABLE sessions (
     session_id text NOT NULL,
     enterprise_id uuid NOT NULL,
     participant_id uuid NOT NULL,
     group_id bigint NOT NULL,
     status text NOT NULL DEFAULT 'created',
     return_url text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     completed_at timestamptz,
     version text,
     mhci double precision,
     subscores jsonb,
     group_percentiles jsonb,
     user_percentiles jsonb,
     transcript text,
     features text,
     result_hash text,
     synthetic boolean NOT NULL DEFAULT false,
     -- The check-in's own privacy level: what the API shows is the lower of it and the member's.
     shared_level smallint,
     consented_at timestamptz,
     word_counts text,
     -- How many words were counted (not which).
     counted_words integer,
     -- Whether the group comparisons (group_feature_*) count this session's features.
     features_shared boolean NOT NULL DEFAULT false,
     CONSTRAINT sessions_pkey PRIMARY KEY (session_id),
     CONSTRAINT sessions_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE,
     CONSTRAINT sessions_membership_fkey FOREIGN KEY (participant_id, group_id)
       REFERENCES memberships (participant_id, group_id) ON DELETE CASCADE,
     CONSTRAINT sessions_session_id_format CHECK ((session_id ~ '^ses_[0-9A-Za-z]{24}$')),
     CONSTRAINT sessions_status_values
       CHECK ((status = ANY (ARRAY['created'::text, 'completed'::text]))),
     CONSTRAINT sessions_completed_consistency
       CHECK (((status = 'completed') = (completed_at IS NOT NULL))),
     CONSTRAINT sessions_shared_level_range
       CHECK (((shared_level >= 0) AND (shared_level <= 5))))`,
  // Covering indexes for metrics (docs/metrics.md): count and MHCI over a group's or a
  // participant's completed sessions in a date range are index-only range scans.
  `CREATE INDEX sessions_group_completed_mhci_idx ON sessions (group_id, completed_at)
     INCLUDE (mhci) WHERE (completed_at IS NOT NULL)`,
  `CREATE INDEX sessions_participant_completed_mhci_idx ON sessions (participant_id, completed_at)
     INCLUDE (mhci, group_id) WHERE (completed_at IS NOT NULL)`,
  'CREATE INDEX sessions_participant_created_idx ON sessions (participant_id, created_at)',
  // The retention sweep's work list: completed sessions still holding a transcript.
  `CREATE INDEX sessions_transcript_retention_idx ON sessions (completed_at)
     WHERE (transcript IS NOT NULL)`,
  // The reconciliation of the group comparisons (docs/checkin-flow.md): sessions shared at level 5
  // whose features are not counted yet, and counted ones whose level went below 5.
  `CREATE INDEX sessions_features_to_share_idx ON sessions (group_id)
     WHERE ((shared_level = 5) AND (NOT features_shared) AND (features IS NOT NULL))`,
  `CREATE INDEX sessions_features_to_unshare_idx ON sessions (group_id)
     WHERE (features_shared AND (shared_level < 5))`,

  // The first answer to a key, sealed (it holds a live check-in link), replayed for 24 h.
  `CREATE TABLE idempotency_keys (
     enterprise_id uuid NOT NULL,
     key text NOT NULL,
     -- A keyed fingerprint of the request (it names an email).
     request_hash text NOT NULL,
     -- Null while the first request runs.
     response_ciphertext text,
     created_at timestamptz NOT NULL DEFAULT now(),
     -- The participant the answer names, for erasure.
     external_id text,
     CONSTRAINT idempotency_keys_pkey PRIMARY KEY (enterprise_id, key),
     CONSTRAINT idempotency_keys_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE)`,
  // Retention deletes records after 24 h, oldest first.
  'CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)',
];

/**
 * pages/: which browser holds each participant link, and the browser identities the server minted
 * (SHA-256 of the cookie values; docs/privacy.md).
 */
const PAGES = [
  `CREATE TABLE link_bindings (
     link text NOT NULL,
     browser_hash text NOT NULL,
     participant_id uuid NOT NULL,
     bound_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT link_bindings_pkey PRIMARY KEY (link),
     CONSTRAINT link_bindings_participant_fkey FOREIGN KEY (participant_id)
       REFERENCES participants (id) ON DELETE CASCADE)`,
  // Deleting a participant cascades here by index, not by a scan of the table.
  'CREATE INDEX link_bindings_participant_idx ON link_bindings (participant_id)',
  // A browser's identity moves at every Start: the links it holds move with it.
  'CREATE INDEX link_bindings_browser_idx ON link_bindings (browser_hash)',

  `CREATE TABLE browsers (
     hash text NOT NULL,
     minted_at timestamptz NOT NULL DEFAULT now(),
     -- The identity that replaced this one at a Start, and when; a replaced one holds nothing.
     replaced_by text,
     replaced_at timestamptz,
     CONSTRAINT browsers_pkey PRIMARY KEY (hash))`,
];

/**
 * webhooks/: the event outbox (personal data encrypted apart from the payload, merged in only when
 * a delivery is sent), endpoints, one delivery per (event, endpoint) plus replays, the attempt log
 * (docs/webhooks.md).
 */
const WEBHOOKS = [
  `CREATE TABLE events (
     id text NOT NULL,
     enterprise_id uuid NOT NULL,
     group_id bigint,
     type text NOT NULL,
     payload jsonb NOT NULL,
     encrypted_pii text,
     created_at timestamptz NOT NULL DEFAULT now(),
     -- The W3C trace context of the request that wrote it; null when nothing was traced.
     trace_context jsonb,
     CONSTRAINT events_pkey PRIMARY KEY (id),
     CONSTRAINT events_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE,
     CONSTRAINT events_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE,
     CONSTRAINT events_id_format CHECK ((id ~ '^evt_[0-9a-f]{48}$')))`,
  'CREATE INDEX events_group_created_idx ON events (group_id, created_at)',
  // Retention clears events' personal data once their deliveries are final.
  'CREATE INDEX events_pii_held_idx ON events (created_at) WHERE (encrypted_pii IS NOT NULL)',

  `CREATE TABLE webhook_endpoints (
     id text NOT NULL,
     enterprise_id uuid NOT NULL,
     group_id bigint NOT NULL,
     url text NOT NULL,
     description text NOT NULL,
     status text NOT NULL DEFAULT 'enabled',
     enabled_events text[] NOT NULL,
     secret_ciphertext text NOT NULL,
     previous_secret_ciphertext text,
     previous_secret_expires_at timestamptz,
     failing_since timestamptz,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id),
     CONSTRAINT webhook_endpoints_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE,
     CONSTRAINT webhook_endpoints_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE,
     CONSTRAINT webhook_endpoints_id_format CHECK ((id ~ '^we_[0-9A-Za-z]{24}$')),
     CONSTRAINT webhook_endpoints_status_values
       CHECK ((status = ANY (ARRAY['enabled'::text, 'disabled'::text]))))`,
  'CREATE INDEX webhook_endpoints_group_idx ON webhook_endpoints (group_id, created_at)',

  `CREATE TABLE webhook_deliveries (
     id uuid NOT NULL DEFAULT gen_random_uuid(),
     event_id text NOT NULL,
     endpoint_id text NOT NULL,
     status text NOT NULL DEFAULT 'pending',
     attempts integer NOT NULL DEFAULT 0,
     next_attempt_at timestamptz NOT NULL DEFAULT now(),
     locked_until timestamptz,
     last_status_code integer,
     last_error text,
     delivered_at timestamptz,
     created_at timestamptz NOT NULL DEFAULT now(),
     -- Which Bull job carries a pending delivery, and since when: a sweep never queues one twice,
     -- and one long queued is checked against Redis.
     queued_at timestamptz,
     queue_job_id text,
     -- A replay (POST /webhooks/{groupID}/{webhookID}/replay): extra rows, as many as asked for.
     replay boolean NOT NULL DEFAULT false,
     CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id),
     CONSTRAINT webhook_deliveries_event_fkey FOREIGN KEY (event_id)
       REFERENCES events (id) ON DELETE CASCADE,
     CONSTRAINT webhook_deliveries_endpoint_fkey FOREIGN KEY (endpoint_id)
       REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
     CONSTRAINT webhook_deliveries_status_values CHECK ((status = ANY (ARRAY['pending'::text,
       'delivered'::text, 'failed'::text, 'cancelled'::text]))))`,
  // At most one original delivery per (event, endpoint): the outbox's invariant.
  `CREATE UNIQUE INDEX webhook_deliveries_original_key ON webhook_deliveries (event_id, endpoint_id)
     WHERE (NOT replay)`,
  // Look-ups by event, replays included (the cascade when erasure deletes events).
  'CREATE INDEX webhook_deliveries_event_endpoint_idx ON webhook_deliveries (event_id, endpoint_id)',
  // The sweeper's scan: pending deliveries by due time.
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
     WHERE (status = 'pending'::text)`,
  // The age of the oldest pending delivery (a metric): only pending rows, as small as the backlog.
  `CREATE INDEX webhook_deliveries_pending_created_idx ON webhook_deliveries (created_at)
     WHERE (status = 'pending'::text)`,
  'CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at)',

  `CREATE TABLE delivery_attempts (
     id bigint GENERATED ALWAYS AS IDENTITY,
     delivery_id uuid NOT NULL,
     started_at timestamptz NOT NULL,
     duration_ms integer NOT NULL,
     status_code integer,
     error text,
     response_excerpt text,
     CONSTRAINT delivery_attempts_pkey PRIMARY KEY (id),
     CONSTRAINT delivery_attempts_delivery_fkey FOREIGN KEY (delivery_id)
       REFERENCES webhook_deliveries (id) ON DELETE CASCADE)`,
  'CREATE INDEX delivery_attempts_delivery_idx ON delivery_attempts (delivery_id, started_at)',
];

/**
 * interact/: every mail the service sends or skips (an error code, never the SMTP server's text),
 * and a sandbox's captured mails (their text encrypted: it holds the participant's links).
 */
const INTERACT = [
  `CREATE TABLE email_messages (
     id uuid NOT NULL DEFAULT gen_random_uuid(),
     enterprise_id uuid NOT NULL,
     participant_id uuid NOT NULL,
     group_id bigint NOT NULL,
     type text NOT NULL,
     status text NOT NULL DEFAULT 'queued',
     attempts integer NOT NULL DEFAULT 0,
     error text,
     created_at timestamptz NOT NULL DEFAULT now(),
     sent_at timestamptz,
     -- What a privacy notice names (its levels).
     details jsonb,
     trace_context jsonb,
     CONSTRAINT email_messages_pkey PRIMARY KEY (id),
     CONSTRAINT email_messages_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE,
     CONSTRAINT email_messages_participant_fkey FOREIGN KEY (participant_id)
       REFERENCES participants (id) ON DELETE CASCADE,
     CONSTRAINT email_messages_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE,
     CONSTRAINT email_messages_type_values CHECK ((type = ANY (ARRAY['checkinReminder'::text,
       'privacyRequest'::text, 'privacyNotice'::text]))),
     CONSTRAINT email_messages_status_values CHECK ((status = ANY (ARRAY['queued'::text,
       'sent'::text, 'failed'::text, 'skipped'::text]))))`,
  // The de-duplication window: this participant's recent mails of a type.
  `CREATE INDEX email_messages_participant_type_idx
     ON email_messages (participant_id, type, created_at)`,
  // The requeue scan: mails still waiting.
  `CREATE INDEX email_messages_queued_idx ON email_messages (created_at)
     WHERE (status = 'queued'::text)`,

  `CREATE TABLE sandbox_emails (
     email_message_id uuid NOT NULL,
     enterprise_id uuid NOT NULL,
     subject text NOT NULL,
     text_ciphertext text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT sandbox_emails_pkey PRIMARY KEY (email_message_id),
     CONSTRAINT sandbox_emails_email_message_fkey FOREIGN KEY (email_message_id)
       REFERENCES email_messages (id) ON DELETE CASCADE,
     CONSTRAINT sandbox_emails_enterprise_fkey FOREIGN KEY (enterprise_id)
       REFERENCES enterprises (id) ON DELETE CASCADE)`,
  // GET /sandbox/emails: an enterprise's newest first.
  `CREATE INDEX sandbox_emails_enterprise_created_idx
     ON sandbox_emails (enterprise_id, created_at)`,
];

/**
 * metrics/: sealed cohort cells of group scores and words with their differentially private
 * releases and the running totals of releases, the sessions waiting for a cell, per-day session
 * counts, and the group comparisons' histograms and exact values (docs/metrics.md).
 */
const METRICS = [
  /*
   * The histogram bucket of a float8 (docs/performance.md): its IEEE-754 bits made
   * order-preserving as a signed 64-bit integer (negative values have every bit but the sign
   * flipped), shifted right by 45 (sign, exponent and the 7 leading mantissa bits remain: buckets
   * about 0.8 % wide relative to the value); -0 is 0. The same function is implemented in
   * src/metrics/rollups/feature-buckets.ts; a test keeps the two identical.
   */
  `CREATE FUNCTION feature_bucket(value double precision) RETURNS integer
     LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
     AS $$
          SELECT ((CASE WHEN bits >= 0 THEN bits ELSE bits # 9223372036854775807 END) >> 45)::integer
            FROM (SELECT ('x' || encode(float8send(CASE WHEN value = 0 THEN 0 ELSE value END), 'hex'))
                           ::bit(64)::bigint AS bits) AS b
        $$`,

  `CREATE TABLE cohort_cells (
     id bigint GENERATED ALWAYS AS IDENTITY,
     group_id bigint NOT NULL,
     series text NOT NULL,
     first_day date NOT NULL,
     last_day date NOT NULL,
     sessions integer NOT NULL,
     hidden_participants integer NOT NULL,
     floor smallint NOT NULL,
     sealed_at timestamptz NOT NULL DEFAULT now(),
     -- The release, made when the cell is sealed: exact count of participants, ε, and for scores
     -- the noisy sum and bins.
     participants integer NOT NULL,
     epsilon numeric(4,2) NOT NULL,
     noisy_sum bigint,
     noisy_bins integer[],
     bin_noise_variance double precision,
     CONSTRAINT cohort_cells_pkey PRIMARY KEY (id),
     CONSTRAINT cohort_cells_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE,
     CONSTRAINT cohort_cells_series_values
       CHECK ((series = ANY (ARRAY['scores'::text, 'words'::text]))),
     CONSTRAINT cohort_cells_consistency CHECK (((first_day <= last_day)
       AND (sessions >= hidden_participants) AND (hidden_participants >= floor))))`,
  `CREATE UNIQUE INDEX cohort_cells_group_series_last_day_key
     ON cohort_cells (group_id, series, last_day)`,

  `CREATE TABLE cohort_cell_words (
     cell_id bigint NOT NULL,
     word text NOT NULL,
     count bigint NOT NULL,
     CONSTRAINT cohort_cell_words_pkey PRIMARY KEY (cell_id, word),
     CONSTRAINT cohort_cell_words_cell_fkey FOREIGN KEY (cell_id)
       REFERENCES cohort_cells (id) ON DELETE CASCADE,
     CONSTRAINT cohort_cell_words_count CHECK ((count >= 1)))`,

  // Running totals of the score releases: a range is answered from two rows.
  `CREATE TABLE cohort_score_prefixes (
     cell_id bigint NOT NULL,
     group_id bigint NOT NULL,
     last_day date NOT NULL,
     cells integer NOT NULL,
     participants bigint NOT NULL,
     noisy_sum bigint NOT NULL,
     noisy_bins integer[] NOT NULL,
     bin_noise_variance double precision NOT NULL,
     CONSTRAINT cohort_score_prefixes_pkey PRIMARY KEY (cell_id),
     CONSTRAINT cohort_score_prefixes_cell_fkey FOREIGN KEY (cell_id)
       REFERENCES cohort_cells (id) ON DELETE CASCADE)`,
  `CREATE UNIQUE INDEX cohort_score_prefixes_group_day_key
     ON cohort_score_prefixes (group_id, last_day)`,

  `CREATE TABLE cohort_word_prefixes (
     group_id bigint NOT NULL,
     last_day date NOT NULL,
     word text NOT NULL,
     count bigint NOT NULL,
     CONSTRAINT cohort_word_prefixes_pkey PRIMARY KEY (group_id, last_day, word),
     CONSTRAINT cohort_word_prefixes_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE)`,

  // Completed sessions not yet in a released cell.
  `CREATE TABLE cohort_pending (
     session_id text NOT NULL,
     series text NOT NULL,
     group_id bigint NOT NULL,
     CONSTRAINT cohort_pending_pkey PRIMARY KEY (session_id, series),
     CONSTRAINT cohort_pending_session_fkey FOREIGN KEY (session_id)
       REFERENCES sessions (session_id) ON DELETE CASCADE,
     CONSTRAINT cohort_pending_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE,
     CONSTRAINT cohort_pending_series_values
       CHECK ((series = ANY (ARRAY['scores'::text, 'words'::text]))))`,
  'CREATE INDEX cohort_pending_group_series_idx ON cohort_pending (group_id, series)',

  // Through which day each group and series was sealed; stale: look again at the next sweep.
  `CREATE TABLE cohort_checks (
     group_id bigint NOT NULL,
     series text NOT NULL,
     checked_through date NOT NULL,
     stale boolean NOT NULL DEFAULT false,
     CONSTRAINT cohort_checks_pkey PRIMARY KEY (group_id, series),
     CONSTRAINT cohort_checks_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE)`,

  // Completed sessions per (group, UTC day), for group count.
  `CREATE TABLE group_day_counts (
     group_id bigint NOT NULL,
     day date NOT NULL,
     sessions integer NOT NULL,
     CONSTRAINT group_day_counts_pkey PRIMARY KEY (group_id, day),
     CONSTRAINT group_day_counts_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE,
     CONSTRAINT group_day_counts_sessions CHECK ((sessions >= 1)))`,

  // Group percentiles at ingestion: sessions shown at level 5 per (group, feature, bucket), and
  // per exact value to count inside the session's own bucket.
  `CREATE TABLE group_feature_histograms (
     group_id bigint NOT NULL,
     name text NOT NULL,
     bucket integer NOT NULL,
     count integer NOT NULL,
     CONSTRAINT group_feature_histograms_pkey PRIMARY KEY (group_id, name, bucket),
     CONSTRAINT group_feature_histograms_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE)`,
  `CREATE TABLE group_feature_values (
     group_id bigint NOT NULL,
     name text NOT NULL,
     value double precision NOT NULL,
     count integer NOT NULL,
     CONSTRAINT group_feature_values_pkey PRIMARY KEY (group_id, name, value),
     CONSTRAINT group_feature_values_group_fkey FOREIGN KEY (group_id)
       REFERENCES groups (group_id) ON DELETE CASCADE,
     CONSTRAINT group_feature_values_count CHECK ((count >= 1)))`,
];

import { MigrationInterface, QueryRunner } from 'typeorm';

const PRIVACY_NAMES = `ARRAY['mhci', 'groupPerecntiles', 'userPercentiles', 'transcript', 'features']::text[]`;

/**
 * Participants (one identity per enterprise and email; the email encrypted, looked up by HMAC),
 * their group memberships, sessions with results, the inputs of percentiles and word clouds, the
 * event outbox and idempotency keys.
 */
export class ParticipantsSessions1763859600000 implements MigrationInterface {
  name = 'ParticipantsSessions1763859600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE participants (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        external_id text NOT NULL,
        enterprise_id uuid NOT NULL,
        email_ciphertext text NOT NULL,
        email_hash text NOT NULL,
        pref_checkin_reminder boolean NOT NULL DEFAULT true,
        pref_privacy_request boolean NOT NULL DEFAULT true,
        requested_privacy text[],
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT participants_pkey PRIMARY KEY (id),
        CONSTRAINT participants_enterprise_fkey FOREIGN KEY (enterprise_id)
          REFERENCES enterprises (id) ON DELETE CASCADE,
        CONSTRAINT participants_external_id_format CHECK (external_id ~ '^ok_[0-9a-f]{48}$'),
        CONSTRAINT participants_requested_privacy_names CHECK (requested_privacy <@ ${PRIVACY_NAMES})
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX participants_external_id_key ON participants (external_id)`,
    );
    // One identity per (enterprise, email): the constraint that makes concurrent first sessions
    // for one email create exactly one participant.
    await queryRunner.query(
      `CREATE UNIQUE INDEX participants_enterprise_email_key ON participants (enterprise_id, email_hash)`,
    );

    await queryRunner.query(`
      CREATE TABLE memberships (
        participant_id uuid NOT NULL,
        group_id bigint NOT NULL,
        join_date timestamptz NOT NULL DEFAULT now(),
        privacy_level smallint NOT NULL DEFAULT 0,
        consented_at timestamptz,
        CONSTRAINT memberships_pkey PRIMARY KEY (participant_id, group_id),
        CONSTRAINT memberships_participant_fkey FOREIGN KEY (participant_id)
          REFERENCES participants (id) ON DELETE CASCADE,
        CONSTRAINT memberships_group_fkey FOREIGN KEY (group_id)
          REFERENCES groups (group_id) ON DELETE CASCADE,
        CONSTRAINT memberships_privacy_level_range CHECK (privacy_level BETWEEN 0 AND 5)
      )`);
    await queryRunner.query(
      `CREATE INDEX memberships_group_idx ON memberships (group_id, join_date)`,
    );

    await queryRunner.query(`
      CREATE TABLE sessions (
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
        transcript jsonb,
        features jsonb,
        result_hash text,
        synthetic boolean NOT NULL DEFAULT false,
        CONSTRAINT sessions_pkey PRIMARY KEY (session_id),
        CONSTRAINT sessions_enterprise_fkey FOREIGN KEY (enterprise_id)
          REFERENCES enterprises (id) ON DELETE CASCADE,
        CONSTRAINT sessions_membership_fkey FOREIGN KEY (participant_id, group_id)
          REFERENCES memberships (participant_id, group_id) ON DELETE CASCADE,
        CONSTRAINT sessions_session_id_format CHECK (session_id ~ '^ses_[0-9A-Za-z]{24}$'),
        CONSTRAINT sessions_status_values CHECK (status IN ('created', 'completed')),
        CONSTRAINT sessions_completed_consistency CHECK ((status = 'completed') = (completed_at IS NOT NULL))
      )`);
    await queryRunner.query(
      `CREATE INDEX sessions_group_completed_idx ON sessions (group_id, completed_at)`,
    );
    await queryRunner.query(
      `CREATE INDEX sessions_participant_completed_idx ON sessions (participant_id, completed_at)`,
    );
    await queryRunner.query(
      `CREATE INDEX sessions_participant_created_idx ON sessions (participant_id, created_at)`,
    );

    // One row per (completed session, feature): percentiles count rows below a value by index.
    await queryRunner.query(`
      CREATE TABLE session_features (
        session_id text NOT NULL,
        group_id bigint NOT NULL,
        participant_id uuid NOT NULL,
        name text NOT NULL,
        value double precision NOT NULL,
        CONSTRAINT session_features_pkey PRIMARY KEY (session_id, name),
        CONSTRAINT session_features_session_fkey FOREIGN KEY (session_id)
          REFERENCES sessions (session_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX session_features_group_idx ON session_features (group_id, name, value)`,
    );
    await queryRunner.query(
      `CREATE INDEX session_features_participant_idx ON session_features (participant_id, name, value)`,
    );

    // Word counts of participant turns: per session (participant word clouds) and rolled up per
    // group and day (group word clouds).
    await queryRunner.query(`
      CREATE TABLE session_word_counts (
        session_id text NOT NULL,
        word text NOT NULL,
        count integer NOT NULL,
        CONSTRAINT session_word_counts_pkey PRIMARY KEY (session_id, word),
        CONSTRAINT session_word_counts_session_fkey FOREIGN KEY (session_id)
          REFERENCES sessions (session_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE group_word_counts (
        group_id bigint NOT NULL,
        day date NOT NULL,
        word text NOT NULL,
        count bigint NOT NULL,
        CONSTRAINT group_word_counts_pkey PRIMARY KEY (group_id, day, word),
        CONSTRAINT group_word_counts_group_fkey FOREIGN KEY (group_id)
          REFERENCES groups (group_id) ON DELETE CASCADE
      )`);

    // The transactional outbox (docs/webhooks.md). PII (user.created's email) is kept encrypted apart
    // from the payload and merged in only when a delivery is sent.
    await queryRunner.query(`
      CREATE TABLE events (
        id text NOT NULL,
        enterprise_id uuid NOT NULL,
        group_id bigint,
        type text NOT NULL,
        payload jsonb NOT NULL,
        encrypted_pii text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT events_pkey PRIMARY KEY (id),
        CONSTRAINT events_enterprise_fkey FOREIGN KEY (enterprise_id)
          REFERENCES enterprises (id) ON DELETE CASCADE,
        CONSTRAINT events_group_fkey FOREIGN KEY (group_id)
          REFERENCES groups (group_id) ON DELETE CASCADE,
        CONSTRAINT events_id_format CHECK (id ~ '^evt_[0-9a-f]{48}$')
      )`);
    await queryRunner.query(
      `CREATE INDEX events_group_created_idx ON events (group_id, created_at)`,
    );

    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        enterprise_id uuid NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        response json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT idempotency_keys_pkey PRIMARY KEY (enterprise_id, key),
        CONSTRAINT idempotency_keys_enterprise_fkey FOREIGN KEY (enterprise_id)
          REFERENCES enterprises (id) ON DELETE CASCADE
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'idempotency_keys',
      'events',
      'group_word_counts',
      'session_word_counts',
      'session_features',
      'sessions',
      'memberships',
      'participants',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}

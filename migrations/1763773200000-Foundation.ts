import { MigrationInterface, QueryRunner } from 'typeorm';

/** Enterprises, their API keys (hashes only) and groups. */
export class Foundation1763773200000 implements MigrationInterface {
  name = 'Foundation1763773200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE enterprises (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT enterprises_pkey PRIMARY KEY (id),
        CONSTRAINT enterprises_name_not_blank CHECK (length(btrim(name)) > 0)
      )`);

    await queryRunner.query(`
      CREATE TABLE api_keys (
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
        CONSTRAINT api_keys_key_hash_format CHECK (key_hash ~ '^[0-9a-f]{64}$')
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_prefix_key ON api_keys (prefix)`);
    await queryRunner.query(`CREATE INDEX api_keys_enterprise_idx ON api_keys (enterprise_id)`);

    await queryRunner.query(`
      CREATE TABLE groups (
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
        CONSTRAINT groups_requested_privacy_names CHECK (
          requested_privacy <@ ARRAY['mhci', 'groupPerecntiles', 'userPercentiles', 'transcript', 'features']::text[]
        )
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX groups_key_key ON groups (key)`);
    await queryRunner.query(`CREATE UNIQUE INDEX groups_invite_code_key ON groups (invite_code)`);
    // Covers "the enterprise's groups, in id order" (GET /groups) and every tenant-scoped lookup.
    await queryRunner.query(
      `CREATE INDEX groups_enterprise_idx ON groups (enterprise_id, group_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE groups');
    await queryRunner.query('DROP TABLE api_keys');
    await queryRunner.query('DROP TABLE enterprises');
  }
}

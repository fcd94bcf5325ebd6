import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fixed texts of a delivery attempt's error (docs/webhooks.md, "What an attempt's error
 * says"; the list is src/webhooks/delivery-errors.ts), as this migration knows them.
 */
const GENERIC = [
  'address not allowed',
  'DNS lookup failed',
  'connection refused',
  'connection reset',
  'connection failed',
  'timeout',
  'TLS error',
  'invalid response',
  'internal error',
];

const quoted = (texts: string[]) => texts.map((text) => `'${text}'`).join(', ');

/**
 * A stored error text of an older release (a library's message: `getaddrinfo ENOTFOUND vm.`,
 * `connect ECONNREFUSED 10.0.0.7:443`, `refused: vm resolves to a private or reserved address`,
 * `timed out after 15000 ms`, …) as the fixed text the release that wrote it would now store.
 * Texts of the set are kept. Read in order, first match wins. (Not exported: TypeORM takes every
 * function a migration file exports for a migration class.)
 */
function genericDeliveryError(column: string): string {
  return `CASE
    WHEN ${column} IN (${quoted(GENERIC)}) THEN ${column}
    WHEN ${column} ~ '^refused: .* resolves to a private or reserved address$'
      OR ${column} ~ '^Invalid URL' THEN 'address not allowed'
    WHEN ${column} ~ '^timed out after ' OR ${column} ~ '\\mE(SOCKET)?TIMEDOUT\\M' THEN 'timeout'
    WHEN ${column} ~ '\\mgetaddrinfo\\M'
      OR ${column} ~ '\\m(ENOTFOUND|EAI_[A-Z]+|ENODATA|ESERVFAIL)\\M' THEN 'DNS lookup failed'
    WHEN ${column} ~ '\\mECONNREFUSED\\M' THEN 'connection refused'
    WHEN ${column} ~ '\\m(ECONNRESET|EPIPE|ECONNABORTED)\\M'
      OR ${column} IN ('socket hang up', 'aborted', 'Premature close') THEN 'connection reset'
    WHEN ${column} ~* '(certificate|altnames|\\mSSL|\\mTLS|\\mEPROTO\\M)' THEN 'TLS error'
    WHEN ${column} ~ '^Parse Error' OR ${column} ~ '\\mHPE_' THEN 'invalid response'
    WHEN ${column} ~ '\\mE[A-Z]{3,}\\M' THEN 'connection failed'
    ELSE 'internal error'
  END`;
}

/**
 * Delivery errors say no more than they must (docs/webhooks.md): the detailed texts older
 * releases stored for attempts that got no HTTP answer, which named the hosts and addresses the
 * enterprise's URLs resolved to, become the fixed texts, in `delivery_attempts.error` (what the
 * deliveries API shows) and in `webhook_deliveries.last_error` (whose own texts `endpoint
 * disabled` and `endpoint answered …` stay). Down keeps the generic texts: the detail is gone.
 */
export class GenericDeliveryErrors1765800000000 implements MigrationInterface {
  name = 'GenericDeliveryErrors1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE delivery_attempts SET error = ${genericDeliveryError('error')}
        WHERE error IS NOT NULL AND error NOT IN (${quoted(GENERIC)})`,
    );
    await queryRunner.query(
      `UPDATE webhook_deliveries SET last_error = ${genericDeliveryError('last_error')}
        WHERE last_error IS NOT NULL AND last_error NOT IN (${quoted(GENERIC)})
          AND last_error <> 'endpoint disabled' AND last_error NOT LIKE 'endpoint answered %'`,
    );
  }

  async down(): Promise<void> {
    // The detailed texts are not kept anywhere: nothing to restore.
  }
}

import { Injectable } from '@nestjs/common';
import { PiiCipher, UnopenableValueError } from '../common/crypto/pii-cipher';
import { Database } from '../database/database';
import { ReencryptionRepository, SEALED_COLUMNS, SealedColumn } from './reencryption.repository';

const BATCH = 500;

export interface ReencryptionReport {
  /** The key id everything was re-encrypted under. */
  keyId: string;
  /** Values rewritten under it, per `table.column`. */
  reencrypted: Record<string, number>;
  /**
   * Values these keys cannot open (left as they are), per `table.column`: under a key that is no
   * longer configured, or not the configured key of their id (docs/data-at-rest.md).
   */
  unreadable: Record<string, number>;
  /** Afterwards: how many values each key id holds, per `table.column`. */
  keyIds: Record<string, Record<string, number>>;
}

/**
 * Re-encrypts every stored ciphertext (emails, transcripts, event personal data, webhook secrets,
 * captured sandbox mails, idempotent answers) under the newest data key, so an older key can then
 * be removed from DATA_ENCRYPTION_KEYS without losing anything: the last step of a rotation
 * (docs/data-at-rest.md). Idempotent; safe beside running processes (rows are locked while rewritten, and anything written meanwhile already uses
 * the newest key).
 */
@Injectable()
export class Reencryption {
  constructor(
    private readonly db: Database,
    private readonly repository: ReencryptionRepository,
    private readonly cipher: PiiCipher,
  ) {}

  async run(): Promise<ReencryptionReport> {
    const report: ReencryptionReport = {
      keyId: this.cipher.currentKeyId,
      reencrypted: {},
      unreadable: {},
      keyIds: {},
    };
    for (const target of SEALED_COLUMNS) {
      const name = `${target.table}.${target.column}`;
      const { reencrypted, unreadable } = await this.reencryptColumn(target);
      report.reencrypted[name] = reencrypted;
      report.unreadable[name] = unreadable;
      report.keyIds[name] = await this.repository.countByKeyId(target);
    }
    return report;
  }

  private async reencryptColumn(
    target: SealedColumn,
  ): Promise<{ reencrypted: number; unreadable: number }> {
    const totals = { reencrypted: 0, unreadable: 0 };
    let afterKey: string | null = null;
    for (;;) {
      const batch: { last: string | null; size: number } = await this.db.transaction(
        async (sql) => {
          const rows = await this.repository.lockStale(
            target,
            this.cipher.currentKeyId,
            afterKey,
            BATCH,
            sql,
          );
          const rewritten: { key: string; value: string }[] = [];
          for (const row of rows) {
            const plaintext = this.open(row.value);
            if (plaintext === null) totals.unreadable += 1;
            else rewritten.push({ key: row.key, value: this.cipher.encrypt(plaintext) });
          }
          if (rewritten.length > 0) await this.repository.store(target, rewritten, sql);
          totals.reencrypted += rewritten.length;
          return { last: rows.length > 0 ? rows[rows.length - 1].key : null, size: rows.length };
        },
      );
      if (batch.size < BATCH || batch.last === null) return totals;
      afterKey = batch.last;
    }
  }

  /** The plaintext of a stored value; null when the configured keys cannot open it. */
  private open(value: string): string | null {
    try {
      return this.cipher.decrypt(value);
    } catch (error) {
      if (error instanceof UnopenableValueError) return null;
      throw error;
    }
  }
}

import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { PiiCipher, UnopenableValueError } from '../common/crypto/pii-cipher';
import { ReencryptionRepository, SEALED_COLUMNS } from './reencryption.repository';

/** Values of one column under one key id that this process's keys cannot open. */
export interface UnopenableValues {
  /** `table.column`. */
  column: string;
  keyId: string;
  count: number;
  /** Why, naming the key id only: not configured, or the configured key does not open them. */
  reason: string;
}

export interface SealedDataReport {
  /** Sealed values found, in every column. */
  values: number;
  unopenable: UnopenableValues[];
  /**
   * False when DATA_ENCRYPTION_KEY is not the key the stored email look-up hashes were made with
   * (an email that opens does not hash to its row's hash); null when no email could be checked.
   */
  lookupHashMatches: boolean | null;
}

const DOCS = 'docs/data-at-rest.md, "Data the keys cannot open"';

/**
 * The start-up check of the data keys (docs/data-at-rest.md, "Data the keys cannot open"): after
 * a restore, or a deploy with other keys, say which sealed data this process cannot open instead
 * of failing on it later. For each column of SEALED_COLUMNS it counts the values under each key
 * id (one pass per table, reading each value's first bytes only) and opens one value per key id:
 * a key id that is not configured, or whose configured key does not open that value, is reported
 * with its count. One participant's email per key id is also hashed again, which tells whether
 * DATA_ENCRYPTION_KEY is the key of the stored look-up hashes. Logs name tables, columns, key ids
 * and counts: never a value, a plaintext or a key.
 */
@Injectable()
export class SealedDataCheck implements BeforeApplicationShutdown {
  private readonly logger = new Logger('DataKeys');
  /** Set once the process stops: a check cut short by the pool closing is not a failure. */
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repository: ReencryptionRepository,
    private readonly cipher: PiiCipher,
  ) {}

  async run(): Promise<SealedDataReport> {
    const report: SealedDataReport = { values: 0, unopenable: [], lookupHashMatches: null };
    const tables = [...new Set(SEALED_COLUMNS.map((target) => target.table))];
    for (const table of tables) {
      const targets = SEALED_COLUMNS.filter((target) => target.table === table);
      const counts = await this.repository.countByKeyIdIn(
        table,
        targets.map((target) => target.column),
      );
      for (const { column, keyId, count } of counts) {
        report.values += count;
        const target = targets.find((candidate) => candidate.column === column)!;
        const name = `${table}.${column}`;
        if (keyId === 'unknown') {
          report.unopenable.push({ column: name, keyId, count, reason: 'not a ciphertext' });
          continue;
        }
        const sample = await this.repository.sampleUnder(target, keyId);
        if (sample === null) continue; // changed since it was counted
        try {
          const plaintext = this.cipher.decrypt(sample.value);
          if (sample.emailHash !== null && report.lookupHashMatches !== false) {
            report.lookupHashMatches = this.cipher.emailLookupHash(plaintext) === sample.emailHash;
          }
        } catch (error) {
          if (!(error instanceof UnopenableValueError)) throw error;
          report.unopenable.push({ column: name, keyId, count, reason: error.message });
        }
      }
    }
    return report;
  }

  /**
   * Runs the check after start-up, without delaying it, `afterMs` from now, and logs what it
   * found. A process that stops first skips it.
   */
  runInBackground(afterMs = 0): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run().then(
        (report) => this.log(report),
        (error: unknown) => {
          if (!this.stopping) {
            this.logger.warn(`Data key check failed: ${(error as Error).message}`);
          }
        },
      );
    }, afterMs);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private log(report: SealedDataReport): void {
    for (const { column, keyId, count, reason } of report.unopenable) {
      this.logger.warn(
        `Sealed data these keys cannot open: ${column}, ${count} ${count === 1 ? 'value' : 'values'} under data key ` +
          `${keyId} (${reason}); they read as removed (${DOCS})`,
      );
    }
    if (report.lookupHashMatches === false) {
      this.logger.warn(
        'participants.email_hash: DATA_ENCRYPTION_KEY is not the key the stored look-up hashes ' +
          'were made with: a known email is not found, and a session created for it makes a ' +
          `new participant (${DOCS})`,
      );
    }
    const unopenable = report.unopenable.reduce((sum, { count }) => sum + count, 0);
    this.logger.log(
      `Data keys checked: ${report.values} sealed values; ` +
        (unopenable === 0 ? 'every key id found opens' : `${unopenable} cannot be opened`),
    );
  }
}

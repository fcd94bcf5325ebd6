import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../../database/database';
import type { Programme, ProgrammeDeclaration } from './programme';

interface ProgrammeRow {
  jurisdiction: string | null;
  purpose: string | null;
  basis: string | null;
  contact: string | null;
  declaredAt: Date | null;
}

export interface LedgerEntry {
  declaredAt: Date;
  declaredBy: string;
  previous: Programme | null;
  declaration: Programme;
}

const PROGRAMME_SELECT = `programme_jurisdiction AS jurisdiction, programme_purpose AS purpose,
  programme_basis AS basis, programme_contact AS contact, programme_declared_at AS "declaredAt"`;

const programmeOf = (row: ProgrammeRow): Programme | null =>
  row.jurisdiction === null
    ? null
    : ({
        jurisdiction: row.jurisdiction,
        purpose: row.purpose,
        basis: row.basis,
        contact: row.contact,
      } as Programme);

/** SQL of declared programmes: the enterprise's columns and the ledger (docs/compliance.md). */
@Injectable()
export class ProgrammesRepository {
  constructor(private readonly db: Database) {}

  /** The enterprise's declaration (null: none); undefined when there is no such enterprise. */
  async find(
    enterpriseId: string,
    sql: Sql = this.db,
  ): Promise<(Programme & { declaredAt: Date }) | null | undefined> {
    const [row] = await sql.rows<ProgrammeRow>(
      `SELECT ${PROGRAMME_SELECT} FROM enterprises WHERE id = $1`,
      [enterpriseId],
    );
    if (!row) return undefined;
    const programme = programmeOf(row);
    return programme && { ...programme, declaredAt: row.declaredAt as Date };
  }

  /**
   * Records a declaration: the enterprise's columns and a ledger row with what it replaced, in one
   * transaction, the enterprise's row locked so two declarations at once are both in the ledger
   * in the order they took effect. False when the enterprise does not exist.
   */
  async declare(
    enterpriseId: string,
    programme: Programme,
    declaredBy: string,
  ): Promise<ProgrammeDeclaration | null> {
    return this.db.transaction(async (sql) => {
      const [before] = await sql.rows<ProgrammeRow>(
        `SELECT ${PROGRAMME_SELECT} FROM enterprises WHERE id = $1 FOR UPDATE`,
        [enterpriseId],
      );
      if (!before) return null;
      const [{ declaredAt }] = await sql.rows<{ declaredAt: Date }>(
        `UPDATE enterprises
            SET programme_jurisdiction = $2, programme_purpose = $3, programme_basis = $4,
                programme_contact = $5, programme_declared_at = clock_timestamp()
          WHERE id = $1
         RETURNING programme_declared_at AS "declaredAt"`,
        [
          enterpriseId,
          programme.jurisdiction,
          programme.purpose,
          programme.basis,
          programme.contact,
        ],
      );
      await sql.rows(
        `INSERT INTO programme_declarations
           (enterprise_id, declared_at, declared_by, previous, declaration)
         VALUES ($1, $2, $3, $4, $5)`,
        [
          enterpriseId,
          declaredAt,
          declaredBy,
          before.jurisdiction === null ? null : JSON.stringify(programmeOf(before)),
          JSON.stringify(programme),
        ],
      );
      return { ...programme, declaredAt, declaredBy };
    });
  }

  /** The enterprise's ledger, oldest first. */
  async ledger(enterpriseId: string): Promise<LedgerEntry[]> {
    return this.db.rows<LedgerEntry>(
      `SELECT declared_at AS "declaredAt", declared_by AS "declaredBy", previous, declaration
         FROM programme_declarations WHERE enterprise_id = $1 ORDER BY declared_at, id`,
      [enterpriseId],
    );
  }

  /** How many enterprises have declared no programme. */
  async undeclaredCount(): Promise<number> {
    const [row] = await this.db.rows<{ count: number }>(
      'SELECT count(*)::int AS count FROM enterprises WHERE programme_declared_at IS NULL',
    );
    return row.count;
  }
}

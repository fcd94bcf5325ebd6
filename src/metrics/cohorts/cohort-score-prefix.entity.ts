import { Column, Entity, Index } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { CohortCellEntity } from './cohort-cell.entity';

/**
 * Bins of the MHCI (0–100) for the running totals: a bin is 0.05 wide, bin(v) =
 * least(floor(v · 20), 2000). Fine enough that a rank is found in a few exact values.
 */
export const SCORE_BINS = 2001;
export const SCORE_BIN_SQL = (value: string): string =>
  `least(floor(${value} * 20), 2000)::smallint`;

/**
 * Schema of `cohort_score_prefixes` (docs/metrics.md, "How they are computed"): for each sealed
 * scores cell, the running totals of its group's score cells up to and including it — sessions,
 * the exact sum, and how many scores fall in each bin. Cells never change and seal in order, so
 * the union of the cells between two days is the difference of two rows: an answer over a year
 * reads two rows and a few exact values, not a year of histograms.
 */
@Entity({ name: 'cohort_score_prefixes' })
@Index('cohort_score_prefixes_group_day_key', ['groupId', 'lastDay'], { unique: true })
export class CohortScorePrefixEntity {
  @ForeignKey(() => CohortCellEntity, 'bigint', 'cohort_score_prefixes_cell_fkey', {
    primaryKey: 'cohort_score_prefixes_pkey',
  })
  cellId!: number;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId!: number;

  @Column({ name: 'last_day', type: 'date' })
  lastDay!: string;

  @Column({ type: 'bigint' })
  sessions!: number;

  @Column({ type: 'numeric' })
  sum!: string;

  /** SCORE_BINS running counts. */
  @Column({ type: 'integer', array: true })
  bins!: number[];
}

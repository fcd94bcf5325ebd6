import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';

/** The two series of a group's metrics, each with cells of its own (docs/metrics.md). */
export const COHORT_SERIES = ['scores', 'words'] as const;
export type CohortSeries = (typeof COHORT_SERIES)[number];

/**
 * Schema of `cohort_cells`, the second version's (docs/metrics.md, "Upgrade"; read only now): a run of consecutive UTC days of
 * one group's completed sessions, sealed once its sessions came from at least `floor` participants
 * the enterprise cannot see, and released then with differential privacy at `epsilon`: the exact
 * count of participants and, for scores, a noisy sum and a noisy histogram (words: the released
 * words, cohort_cell_words). A released cell never changes (not with later results, level changes,
 * erasure, retention, a new floor or ε); group `mhci` and `wordcloud` read nothing else. A cell
 * belongs to its last day; a group's cells of one series are ordered by it, one per day at most.
 */
@Entity({ name: 'cohort_cells' })
@Index('cohort_cells_group_series_last_day_key', ['groupId', 'series', 'lastDay'], { unique: true })
@Check('cohort_cells_series_values', "(series = ANY (ARRAY['scores'::text, 'words'::text]))")
@Check(
  'cohort_cells_consistency',
  '((first_day <= last_day) AND (sessions >= hidden_participants) AND (hidden_participants >= floor))',
)
export class CohortCellEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'cohort_cells_pkey',
  })
  id!: number;

  @ForeignKey(() => GroupEntity, 'bigint', 'cohort_cells_group_fkey')
  groupId!: number;

  @Column({ type: 'text' })
  series!: CohortSeries;

  @Column({ name: 'first_day', type: 'date' })
  firstDay!: string;

  @Column({ name: 'last_day', type: 'date' })
  lastDay!: string;

  /** Every completed session blended in, visible and hidden. */
  @Column({ type: 'integer' })
  sessions!: number;

  /** The participants whose level hid them from the enterprise when the cell sealed. */
  @Column({ name: 'hidden_participants', type: 'integer' })
  hiddenParticipants!: number;

  /** The enterprise's floor the cell sealed under (minCohortScores or minCohortWords). */
  @Column({ type: 'smallint' })
  floor!: number;

  /** Participants who gave the series a value (released exactly: who took part is not secret). */
  @Column({ type: 'integer' })
  participants!: number;

  /** The ε the cell was released at (docs/metrics.md). */
  @Column({ type: 'numeric', precision: 4, scale: 2 })
  epsilon!: string;

  /** Scores: the participants' values summed, in hundredths of MHCI, plus noise. */
  @Column({ name: 'noisy_sum', type: 'bigint', nullable: true })
  noisySum!: number | null;

  /** Scores: how many values fall in each bin (score-release.ts), each plus noise. */
  @Column({ name: 'noisy_bins', type: 'integer', array: true, nullable: true })
  noisyBins!: number[] | null;

  /** Scores: the variance of one bin's noise. */
  @Column({ name: 'bin_noise_variance', type: 'double precision', nullable: true })
  binNoiseVariance!: number | null;

  @CreateDateColumn({ name: 'sealed_at', type: 'timestamptz' })
  sealedAt!: Date;
}

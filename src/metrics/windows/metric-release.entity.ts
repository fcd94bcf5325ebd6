import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';
import type { CohortSeries } from '../cohorts/cohort-cell.entity';
import { MetricWindowEntity } from './metric-window.entity';

/**
 * Schema of `metric_releases` (docs/metrics.md, "Release windows"): what a window released for
 * one group and series. `released` false: fewer than k participants entered it, and nothing but
 * their count is stored. The exact aggregate is never stored: scores keep a noisy sum and a
 * noisy histogram (window-release.ts), words their released words (metric_release_words). A row
 * never changes after its window's release, but for `late_results`, the results for the window's
 * days that arrived after it.
 */
@Entity({ name: 'metric_releases' })
@Index('metric_releases_group_series_window_key', ['groupId', 'series', 'windowId'], {
  unique: true,
})
@Index('metric_releases_window_idx', ['windowId'])
@Check('metric_releases_series_values', "(series = ANY (ARRAY['scores'::text, 'words'::text]))")
export class MetricReleaseEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'metric_releases_pkey',
  })
  id!: number;

  @ForeignKey(() => MetricWindowEntity, 'bigint', 'metric_releases_window_fkey')
  windowId!: number;

  @ForeignKey(() => GroupEntity, 'bigint', 'metric_releases_group_fkey')
  groupId!: number;

  @Column({ type: 'text' })
  series!: CohortSeries;

  /** Participants whose values entered (exact: who took part is not secret). */
  @Column({ type: 'integer' })
  participants!: number;

  /** Whether it held at least k participants and was released. */
  @Column({ type: 'boolean' })
  released!: boolean;

  /** The group's results of the window in no release: bounded to another group, or over budget. */
  @Column({ name: 'left_out', type: 'integer', default: 0 })
  leftOut!: number;

  /** Results for the window's days that arrived after its release (they join no release). */
  @Column({ name: 'late_results', type: 'integer', default: 0 })
  lateResults!: number;

  /** What each participant in it spent (zCDP ρ; docs/metrics.md, "The budget"). */
  @Column({ type: 'double precision', nullable: true })
  rho!: number | null;

  /** Scores: the values summed, in hundredths of MHCI, plus noise. */
  @Column({ name: 'noisy_sum', type: 'bigint', nullable: true })
  noisySum!: number | null;

  /** Scores: how many values fall in each bin, each plus noise. */
  @Column({ name: 'noisy_bins', type: 'integer', array: true, nullable: true })
  noisyBins!: number[] | null;

  /** Scores: the variance of the sum's noise (hundredths squared). */
  @Column({ name: 'sum_noise_variance', type: 'double precision', nullable: true })
  sumNoiseVariance!: number | null;

  /** Scores: the variance of one bin's noise. */
  @Column({ name: 'bin_noise_variance', type: 'double precision', nullable: true })
  binNoiseVariance!: number | null;

  /** Words: the noisy count of speakers a word had to reach. */
  @Column({ name: 'word_threshold', type: 'integer', nullable: true })
  wordThreshold!: number | null;
}

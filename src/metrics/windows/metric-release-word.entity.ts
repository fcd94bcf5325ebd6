import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { MetricReleaseEntity } from './metric-release.entity';

/**
 * Schema of `metric_release_words`: the words a window's words release let through, each with its
 * noisy count of speakers. A word that did not reach the threshold is never stored.
 */
@Entity({ name: 'metric_release_words' })
@Check('metric_release_words_count', '(count >= 1)')
export class MetricReleaseWordEntity {
  @ForeignKey(() => MetricReleaseEntity, 'bigint', 'metric_release_words_release_fkey', {
    primaryKey: 'metric_release_words_pkey',
  })
  releaseId!: number;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'metric_release_words_pkey' })
  word!: string;

  @Column({ type: 'integer' })
  count!: number;
}

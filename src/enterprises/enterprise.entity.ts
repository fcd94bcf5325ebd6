import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { PRIVACY_FLOOR } from '../common/privacy-model';

const floorRange = (column: string) =>
  `((${column} >= ${PRIVACY_FLOOR.min}) AND (${column} <= ${PRIVACY_FLOOR.max}))`;

/** A tenant. Everything an enterprise owns hangs off this row (ON DELETE CASCADE). */
@Entity({ name: 'enterprises' })
@Check('enterprises_name_not_blank', '(length(btrim(name)) > 0)')
@Check('enterprises_min_cohort_scores_range', floorRange('min_cohort_scores'))
@Check('enterprises_min_cohort_words_range', floorRange('min_cohort_words'))
export class EnterpriseEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Privacy floor of group `mhci` (docs/metrics.md), in distinct participants per bucket. */
  @Column({ name: 'min_cohort_scores', type: 'smallint', default: PRIVACY_FLOOR.defaultScores })
  minCohortScores!: number;

  /** Privacy floor of group `wordcloud`, in distinct participants whose words are counted. */
  @Column({ name: 'min_cohort_words', type: 'smallint', default: PRIVACY_FLOOR.defaultWords })
  minCohortWords!: number;

  /**
   * A sandbox (docs/integrating.md, like a payment API's test mode): its sessions can be completed through
   * `POST /sandbox/sessions/{sessionID}/complete`, and its mails are captured, never sent. Set when
   * the enterprise is created (`enterprises:create --sandbox`, `demo:seed`), never changed.
   */
  @Column({ type: 'boolean', default: false })
  sandbox!: boolean;
}

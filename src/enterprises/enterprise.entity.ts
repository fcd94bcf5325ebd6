import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { PRIVACY_FLOOR } from '../common/privacy-model';

const floorRange = (column: string) =>
  `((${column} >= ${PRIVACY_FLOOR.min}) AND (${column} <= ${PRIVACY_FLOOR.max}))`;

/** A tenant. Everything an enterprise owns hangs off this row (ON DELETE CASCADE). */
@Entity({ name: 'enterprises' })
@Check('enterprises_name_not_blank', '(length(btrim(name)) > 0)')
@Check('enterprises_min_cohort_scores_range', floorRange('min_cohort_scores'))
@Check('enterprises_min_cohort_words_range', floorRange('min_cohort_words'))
@Check('enterprises_min_word_speakers_range', floorRange('min_word_speakers'))
@Check('enterprises_epsilon_range', '((epsilon >= 0.1) AND (epsilon <= (10)::numeric))')
@Check(
  'enterprises_metrics_window_values',
  "(metrics_window = ANY (ARRAY['month'::text, 'week'::text]))",
)
@Check(
  'enterprises_epsilon_year_range',
  '((epsilon_year >= (1)::numeric) AND (epsilon_year <= (100)::numeric))',
)
@Check(
  'enterprises_programme_jurisdiction_values',
  "(programme_jurisdiction = ANY (ARRAY['eu'::text, 'other'::text]))",
)
@Check(
  'enterprises_programme_purpose_values',
  "(programme_purpose = ANY (ARRAY['wellbeing'::text, 'medical'::text, 'safety'::text]))",
)
@Check(
  'enterprises_programme_whole',
  '(((programme_jurisdiction IS NULL) AND (programme_purpose IS NULL) AND (programme_basis IS NULL) AND (programme_contact IS NULL) AND (programme_declared_at IS NULL)) OR ((programme_jurisdiction IS NOT NULL) AND (programme_purpose IS NOT NULL) AND (programme_basis IS NOT NULL) AND (programme_contact IS NOT NULL) AND (programme_declared_at IS NOT NULL)))',
)
@Check(
  'enterprises_max_margin_range',
  '((max_margin >= (1)::numeric) AND (max_margin <= (100)::numeric))',
)
export class EnterpriseEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Privacy floor of group `mhci` (docs/metrics.md): hidden participants a score cell needs. */
  @Column({ name: 'min_cohort_scores', type: 'smallint', default: PRIVACY_FLOOR.defaultScores })
  minCohortScores!: number;

  /** Privacy floor of group `wordcloud`: participants a window's release of words needs. */
  @Column({ name: 'min_cohort_words', type: 'smallint', default: PRIVACY_FLOOR.defaultWords })
  minCohortWords!: number;

  /** A word is a candidate in a release only when at least this many of its participants said it. */
  @Column({ name: 'min_word_speakers', type: 'smallint', default: PRIVACY_FLOOR.defaultSpeakers })
  minWordSpeakers!: number;

  /**
   * The second version's ε per sealed cell (docs/metrics.md, "Upgrade"): no longer read; its
   * cells keep the ε they were released at. The budget is `epsilon_year`.
   */
  @Column({ type: 'numeric', precision: 4, scale: 2, default: 1 })
  epsilon!: string;

  /** Group metrics' release window (docs/metrics.md, "Release windows"): `month` or ISO `week`. */
  @Column({ name: 'metrics_window', type: 'text', default: 'month' })
  metricsWindow!: string;

  /**
   * The yearly budget of group metrics per participant (docs/metrics.md, "The budget"): over any
   * 365 days, every group release of her data together is (ε_year, 10⁻⁶)-differentially private.
   */
  @Column({ name: 'epsilon_year', type: 'numeric', precision: 5, scale: 2, default: 24 })
  epsilonYear!: string;

  /** An answer whose 95 % margin of `avgMhci` is wider than this many points is withheld. */
  @Column({ name: 'max_margin', type: 'numeric', precision: 5, scale: 2, default: 10 })
  maxMargin!: string;

  /**
   * A sandbox (docs/integrating.md, like a payment API's test mode): its sessions can be completed through
   * `POST /sandbox/sessions/{sessionID}/complete`, and its mails are captured, never sent. Set when
   * the enterprise is created (`enterprises:create --sandbox`, `demo:seed`), never changed.
   */
  @Column({ type: 'boolean', default: false })
  sandbox!: boolean;

  /**
   * The declared programme (docs/compliance.md), all five or none: where check-ins run (`eu` or
   * `other`), why (`wellbeing`, `medical`, `safety`), the legal basis and a contact, and when it
   * was declared. Set by the operator only (`enterprises:set-programme`); every change is in
   * `programme_declarations`. None: the enterprise behaves as before declarations existed.
   */
  @Column({ name: 'programme_jurisdiction', type: 'text', nullable: true })
  programmeJurisdiction!: string | null;

  @Column({ name: 'programme_purpose', type: 'text', nullable: true })
  programmePurpose!: string | null;

  @Column({ name: 'programme_basis', type: 'text', nullable: true })
  programmeBasis!: string | null;

  @Column({ name: 'programme_contact', type: 'text', nullable: true })
  programmeContact!: string | null;

  @Column({ name: 'programme_declared_at', type: 'timestamptz', nullable: true })
  programmeDeclaredAt!: Date | null;
}

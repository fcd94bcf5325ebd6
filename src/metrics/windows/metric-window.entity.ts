import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { EnterpriseEntity } from '../../enterprises/enterprise.entity';
import type { WindowKind } from './calendar';

/**
 * Schema of `metric_windows` (docs/metrics.md, "Release windows"): one of an enterprise's calendar
 * release windows, a month or an ISO week, made when the first result for one of its days is
 * swept, with the kind and the yearly budget in force then. Windows of an enterprise never
 * overlap. Released once, for every group of the enterprise together, `METRICS_RELEASE_GRACE_HOURS`
 * after its last day ends: `released_at` is then set and never changes.
 */
@Entity({ name: 'metric_windows' })
@Index('metric_windows_enterprise_first_day_key', ['enterpriseId', 'firstDay'], { unique: true })
@Check('metric_windows_kind_values', "(kind = ANY (ARRAY['month'::text, 'week'::text]))")
@Check('metric_windows_days', '(first_day <= last_day)')
export class MetricWindowEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'metric_windows_pkey',
  })
  id!: number;

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'metric_windows_enterprise_fkey')
  enterpriseId!: string;

  @Column({ type: 'text' })
  kind!: WindowKind;

  @Column({ name: 'first_day', type: 'date' })
  firstDay!: string;

  @Column({ name: 'last_day', type: 'date' })
  lastDay!: string;

  /** The yearly budget in force when the window was made (docs/metrics.md, "The budget"). */
  @Column({ name: 'epsilon_year', type: 'numeric', precision: 5, scale: 2 })
  epsilonYear!: string;

  @Column({ name: 'released_at', type: 'timestamptz', nullable: true })
  releasedAt!: Date | null;
}

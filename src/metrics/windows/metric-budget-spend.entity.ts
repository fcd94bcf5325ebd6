import { Column, Entity, Index } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { ParticipantEntity } from '../../participants/participant.entity';
import { MetricWindowEntity } from './metric-window.entity';

/**
 * Schema of `metric_budget_spend`, the accountant's ledger (docs/metrics.md, "The budget"): what
 * one participant spent in one window, over all the releases her values entered (zCDP ρ). Her
 * rolling 365 days are the rows whose `last_day` is within them. Goes with her on erasure.
 */
@Entity({ name: 'metric_budget_spend' })
// A covering index (INCLUDE rho), which TypeORM cannot describe: the migration owns it.
@Index('metric_budget_spend_participant_day_idx', { synchronize: false })
@Index('metric_budget_spend_window_idx', ['windowId'])
export class MetricBudgetSpendEntity {
  @ForeignKey(() => ParticipantEntity, 'uuid', 'metric_budget_spend_participant_fkey', {
    primaryKey: 'metric_budget_spend_pkey',
  })
  participantId!: string;

  @ForeignKey(() => MetricWindowEntity, 'bigint', 'metric_budget_spend_window_fkey', {
    primaryKey: 'metric_budget_spend_pkey',
  })
  windowId!: number;

  @Column({ name: 'last_day', type: 'date' })
  lastDay!: string;

  @Column({ type: 'double precision' })
  rho!: number;
}

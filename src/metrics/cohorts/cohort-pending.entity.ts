import { Check, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';
import { SessionEntity } from '../../sessions/session.entity';
import type { CohortSeries } from './cohort-cell.entity';

/**
 * Schema of `cohort_pending`: completed sessions not yet in a released cell of a series. Added at
 * ingestion, removed when their cell is released; an erased participant's go with their sessions
 * (ON DELETE CASCADE), and with them their share of the unsealed runs.
 */
@Entity({ name: 'cohort_pending' })
@Index('cohort_pending_group_series_idx', ['groupId', 'series'])
@Check('cohort_pending_series_values', "(series = ANY (ARRAY['scores'::text, 'words'::text]))")
export class CohortPendingEntity {
  @ForeignKey(() => SessionEntity, 'text', 'cohort_pending_session_fkey', {
    primaryKey: 'cohort_pending_pkey',
  })
  sessionId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'cohort_pending_pkey' })
  series!: CohortSeries;

  @ForeignKey(() => GroupEntity, 'bigint', 'cohort_pending_group_fkey')
  groupId!: number;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';
import type { CohortSeries } from './cohort-cell.entity';

/**
 * Schema of `cohort_checks` (the second version's, no longer written: docs/metrics.md, "Upgrade"): through which closed day a group's series was last sealed (by the
 * sweep or a request). A request seals only when a day closed since, or when the check went
 * `stale` (a result recorded for a day already looked at, a new floor or ε), so a group whose
 * run never reaches the floor is looked at once a day, not on every read.
 */
@Entity({ name: 'cohort_checks' })
export class CohortCheckEntity {
  @ForeignKey(() => GroupEntity, 'bigint', 'cohort_checks_group_fkey', {
    primaryKey: 'cohort_checks_pkey',
  })
  groupId!: number;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'cohort_checks_pkey' })
  series!: CohortSeries;

  @Column({ name: 'checked_through', type: 'date' })
  checkedThrough!: string;

  /** Something changed for days already looked at: look again at the next sweep or read. */
  @Column({ type: 'boolean', default: false })
  stale!: boolean;
}

import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';

/**
 * Schema of `group_feature_values`: per group and feature, how many completed sessions measured
 * each exact value — tied to no session or person. Group percentiles count inside a dense
 * histogram bucket from here (docs/checkin-flow.md); a session's own values are kept only
 * encrypted, with the session.
 */
@Entity({ name: 'group_feature_values' })
@Check('group_feature_values_count', '(count >= 1)')
export class GroupFeatureValueEntity {
  @ForeignKey(() => GroupEntity, 'bigint', 'group_feature_values_group_fkey', {
    primaryKey: 'group_feature_values_pkey',
  })
  groupId!: number;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'group_feature_values_pkey' })
  name!: string;

  @PrimaryColumn({
    type: 'double precision',
    primaryKeyConstraintName: 'group_feature_values_pkey',
  })
  value!: number;

  @Column({ type: 'integer' })
  count!: number;
}

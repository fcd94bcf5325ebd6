import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';

/**
 * Schema of `group_feature_histograms`: per group and feature, how many completed sessions fall in
 * each value bucket (`feature_bucket`, feature-buckets.ts); group percentiles read it instead
 * of scanning the group.
 */
@Entity({ name: 'group_feature_histograms' })
export class GroupFeatureHistogramEntity {
  @ForeignKey(() => GroupEntity, 'bigint', 'group_feature_histograms_group_fkey', {
    primaryKey: 'group_feature_histograms_pkey',
  })
  groupId!: number;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'group_feature_histograms_pkey' })
  name!: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'group_feature_histograms_pkey' })
  bucket!: number;

  @Column({ type: 'integer' })
  count!: number;
}

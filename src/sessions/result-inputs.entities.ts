import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { GroupEntity } from '../groups/group.entity';
import { SessionEntity } from './session.entity';

/** Schema of `session_features`: one row per (completed session, feature), for percentiles. */
@Entity({ name: 'session_features' })
@Index('session_features_group_idx', ['groupId', 'name', 'value'])
@Index('session_features_participant_idx', ['participantId', 'name', 'value'])
export class SessionFeatureEntity {
  @PrimaryColumn({
    name: 'session_id',
    type: 'text',
    primaryKeyConstraintName: 'session_features_pkey',
  })
  sessionId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'session_features_pkey' })
  name!: string;

  @ManyToOne(() => SessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id', foreignKeyConstraintName: 'session_features_session_fkey' })
  session?: SessionEntity;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId!: string;

  @Column({ name: 'participant_id', type: 'uuid' })
  participantId!: string;

  @Column({ type: 'double precision' })
  value!: number;
}

/** Schema of `session_word_counts`: words of a session's participant turns. */
@Entity({ name: 'session_word_counts' })
export class SessionWordCountEntity {
  @PrimaryColumn({
    name: 'session_id',
    type: 'text',
    primaryKeyConstraintName: 'session_word_counts_pkey',
  })
  sessionId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'session_word_counts_pkey' })
  word!: string;

  @ManyToOne(() => SessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id', foreignKeyConstraintName: 'session_word_counts_session_fkey' })
  session?: SessionEntity;

  @Column({ type: 'integer' })
  count!: number;
}

/** Schema of `group_word_counts`: the per-group, per-day rollup read by group word clouds. */
@Entity({ name: 'group_word_counts' })
export class GroupWordCountEntity {
  @PrimaryColumn({
    name: 'group_id',
    type: 'bigint',
    primaryKeyConstraintName: 'group_word_counts_pkey',
  })
  groupId!: string;

  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'group_word_counts_pkey' })
  day!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'group_word_counts_pkey' })
  word!: string;

  @ManyToOne(() => GroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'group_word_counts_group_fkey' })
  group?: GroupEntity;

  @Column({ type: 'bigint' })
  count!: string;
}

/**
 * Schema of `group_feature_histograms`: per group and feature, how many completed sessions fall in
 * each value bucket (`feature_bucket`, src/checkin/ingestion/feature-buckets.ts); group
 * percentiles read it instead of scanning the group.
 */
@Entity({ name: 'group_feature_histograms' })
export class GroupFeatureHistogramEntity {
  @PrimaryColumn({
    name: 'group_id',
    type: 'bigint',
    primaryKeyConstraintName: 'group_feature_histograms_pkey',
  })
  groupId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'group_feature_histograms_pkey' })
  name!: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'group_feature_histograms_pkey' })
  bucket!: number;

  @ManyToOne(() => GroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'group_id',
    foreignKeyConstraintName: 'group_feature_histograms_group_fkey',
  })
  group?: GroupEntity;

  @Column({ type: 'integer' })
  count!: number;
}

import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { SessionEntity } from './session.entity';

/** Schema of `session_features`: one row per (completed session, feature), for percentiles. */
@Entity({ name: 'session_features' })
@Index('session_features_group_idx', ['groupId', 'name', 'value'])
@Index('session_features_participant_idx', ['participantId', 'name', 'value'])
export class SessionFeatureEntity {
  @ForeignKey(() => SessionEntity, 'text', 'session_features_session_fkey', {
    primaryKey: 'session_features_pkey',
  })
  sessionId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'session_features_pkey' })
  name!: string;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId!: number;

  @Column({ name: 'participant_id', type: 'uuid' })
  participantId!: string;

  @Column({ type: 'double precision' })
  value!: number;
}

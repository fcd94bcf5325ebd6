import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { SessionEntity } from './session.entity';

/** Schema of `session_word_counts`: words of a session's participant turns. */
@Entity({ name: 'session_word_counts' })
export class SessionWordCountEntity {
  @ForeignKey(() => SessionEntity, 'text', 'session_word_counts_session_fkey', {
    primaryKey: 'session_word_counts_pkey',
  })
  sessionId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'session_word_counts_pkey' })
  word!: string;

  @Column({ type: 'integer' })
  count!: number;
}

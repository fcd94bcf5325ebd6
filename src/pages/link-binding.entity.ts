import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { ParticipantEntity } from '../participants/participant.entity';

/**
 * Schema of `link_bindings` (docs/privacy.md): which browser a participant link belongs to. A
 * check-in link binds on "Start" (`checkin:<session id>`), a settings link on its first POST
 * (`settings:<sha256 of the token>`); the browser is the SHA-256 of a random HttpOnly cookie.
 * Another browser is refused and changes nothing.
 */
@Entity({ name: 'link_bindings' })
// A participant's bindings: moved on "Sign out my links", deleted with the participant.
@Index('link_bindings_participant_idx', ['participantId'])
// A browser's links: moved when its identity is replaced at a Start.
@Index('link_bindings_browser_idx', ['browserHash'])
export class LinkBindingEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'link_bindings_pkey' })
  link!: string;

  @Column({ name: 'browser_hash', type: 'text' })
  browserHash!: string;

  @ForeignKey(() => ParticipantEntity, 'uuid', 'link_bindings_participant_fkey')
  participantId!: string;

  @Column({ name: 'bound_at', type: 'timestamptz', default: () => 'now()' })
  boundAt!: Date;
}

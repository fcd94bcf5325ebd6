import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';
import { GroupEntity } from '../groups/group.entity';
import { ParticipantEntity } from './participant.entity';

/** What a ledger row records (docs/privacy.md); `erasure` is the one anonymous row an erasure leaves. */
export const CONSENT_CHANGES = [
  'consent',
  'privacyLevel',
  'checkinReminder',
  'privacyRequest',
  'erasure',
] as const;
export type ConsentChange = (typeof CONSENT_CHANGES)[number];

/** Where the change was made. */
export const CONSENT_VIAS = ['checkin', 'settings', 'unsubscribe', 'erasure'] as const;
export type ConsentVia = (typeof CONSENT_VIAS)[number];

const valuesCheck = (column: string, values: readonly string[]) =>
  `(${column} = ANY (ARRAY[${values.map((value) => `'${value}'::text`).join(', ')}]))`;

/**
 * Schema of `consent_ledger`: every consent, privacy-level and email-preference change a
 * participant made, appended and never updated. The participant sees it on the settings page;
 * the enterprise reads it at GET /participants/{externalID}/consents. Email preferences belong
 * to the participant (all groups of the enterprise): `group_id` is the group whose page made the
 * change, null from an unsubscribe link. An erasure deletes the participant's rows and leaves one
 * row without participant or group.
 */
@Entity({ name: 'consent_ledger' })
@Index('consent_ledger_participant_idx', ['participantId', 'id'])
@Check('consent_ledger_change_values', valuesCheck('change', CONSENT_CHANGES))
@Check('consent_ledger_via_values', valuesCheck('via', CONSENT_VIAS))
export class ConsentRecordEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'consent_ledger_pkey',
  })
  id!: number;

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'consent_ledger_enterprise_fkey')
  enterpriseId!: string;

  @ForeignKey(() => ParticipantEntity, 'uuid', 'consent_ledger_participant_fkey', {
    nullable: true,
  })
  participantId!: string | null;

  @ForeignKey(() => GroupEntity, 'bigint', 'consent_ledger_group_fkey', { nullable: true })
  groupId!: number | null;

  /**
   * The check-in whose page made the change (docs/privacy.md); null from the settings page or an
   * unsubscribe link. No foreign key: the ledger is append-only, and a participant's rows go with
   * the participant (erasure) anyway.
   */
  @Column({ name: 'session_id', type: 'text', nullable: true })
  sessionId!: string | null;

  @Column({ type: 'text' })
  change!: ConsentChange;

  /** A number (privacy level) or a boolean (consent, preferences); null for `erasure`. */
  @Column({ name: 'from_value', type: 'jsonb', nullable: true })
  fromValue!: number | boolean | null;

  @Column({ name: 'to_value', type: 'jsonb', nullable: true })
  toValue!: number | boolean | null;

  @Column({ type: 'text' })
  via!: ConsentVia;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at!: Date;
}

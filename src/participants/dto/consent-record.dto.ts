import { ApiProperty } from '@nestjs/swagger';

const VALUE_SCHEMA = {
  oneOf: [{ type: 'integer', minimum: 0, maximum: 5 }, { type: 'boolean' }],
  description: 'A privacy level (privacyLevel) or a boolean (consent and email preferences).',
};

/** One change in the participant's consent ledger (docs/privacy.md). */
export class ConsentRecordDto {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 12,
    description: 'The group; null for an email preference changed from an unsubscribe link.',
  })
  groupID!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'ses_9fQk2mZr4TtY7uW1xPb3Lc8N',
    description:
      'The check-in whose page made the change (made in the browser that did that check-in); ' +
      'null from the settings page or an unsubscribe link.',
  })
  sessionID!: string | null;

  @ApiProperty({ enum: ['consent', 'privacyLevel', 'checkinReminder', 'privacyRequest'] })
  change!: 'consent' | 'privacyLevel' | 'checkinReminder' | 'privacyRequest';

  @ApiProperty({ ...VALUE_SCHEMA, example: 0 })
  from!: number | boolean;

  @ApiProperty({ ...VALUE_SCHEMA, example: 3 })
  to!: number | boolean;

  @ApiProperty({ example: '2026-11-22T09:30:00.000Z', description: 'ISO 8601, UTC.' })
  at!: string;

  @ApiProperty({ enum: ['checkin', 'settings', 'unsubscribe'] })
  via!: 'checkin' | 'settings' | 'unsubscribe';
}

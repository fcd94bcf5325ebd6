import { ApiProperty } from '@nestjs/swagger';
import { MAIL_TYPES, type MailType } from '../../interact/interact.errors';

/** A mail of a sandbox enterprise, captured instead of sent (`GET /sandbox/emails`, docs/integrating.md). */
export class SandboxEmailDto {
  @ApiProperty({
    example: 'ana@example.com',
    description: "The recipient: the participant's email address.",
  })
  to!: string;

  @ApiProperty({
    example: 'ok_5f0c…',
    description: "The participant's external ID (`ok_…`).",
  })
  userIdentifier!: string;

  @ApiProperty({
    enum: MAIL_TYPES,
    example: 'checkinReminder',
    description:
      'The two types an enterprise requests, or `privacyNotice`: the notice a participant gets ' +
      'when they raise their privacy level.',
  })
  emailType!: MailType;

  @ApiProperty({ example: 'Time for your check-in with Night shift' })
  subject!: string;

  @ApiProperty({
    example:
      'Hello,\n\nIt is time for your wellbeing check-in with Night shift.\n\nYour privacy and email settings: https://…',
    description:
      "The text part exactly as it would have been sent, with the participant's signed links " +
      "(settings, unsubscribe): they work like a real mail's.",
  })
  text!: string;

  @ApiProperty({ example: 12, description: 'The group the mail is about.' })
  groupID!: number;

  @ApiProperty({
    example: '2026-11-22T09:42:10.000Z',
    description: 'When the mail was captured, i.e. when it would have been sent (ISO 8601, UTC).',
  })
  createdAt!: string;
}

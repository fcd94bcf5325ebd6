import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLE_IDS } from '../../common/swagger/examples';
import { MAIL_TYPES, type MailType } from '../../interact/interact.errors';
import { renderMail } from '../../interact/sending/mail-templates';
import { exampleSettingsUrl, exampleUnsubscribeUrl } from '../../participant-links/example-links';

/** The example mail: a check-in reminder as the mail template renders it, with real-format links. */
const EXAMPLE_MEMBERSHIP = {
  participantId: '337139fd-08e4-4b6d-99a3-b584d767fabf',
  groupId: EXAMPLE_IDS.groupId,
  linkVersion: 0,
};
const EXAMPLE_MAIL = renderMail({
  type: 'checkinReminder',
  locale: 'en',
  enterpriseName: 'Acme',
  operatorName: 'Wellbeing Services Ltd',
  privacyNoticeUrl: 'https://wellbeing.example/privacy',
  groupName: 'Night shift',
  settingsUrl: exampleSettingsUrl(EXAMPLE_MEMBERSHIP),
  unsubscribeUrl: exampleUnsubscribeUrl(EXAMPLE_MEMBERSHIP, 'checkinReminder'),
  checkinUrl: null,
  requestedLevel: 0,
  currentLevel: 0,
  notice: null,
});

/** A mail of a sandbox enterprise, captured instead of sent (`GET /sandbox/emails`, docs/integrating.md). */
export class SandboxEmailDto {
  @ApiProperty({
    example: 'ana@example.com',
    description: "The recipient: the participant's email address.",
  })
  to!: string;

  @ApiProperty({
    example: EXAMPLE_IDS.externalId,
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

  @ApiProperty({ example: EXAMPLE_MAIL.subject })
  subject!: string;

  @ApiProperty({
    example: EXAMPLE_MAIL.text,
    description:
      "The text part exactly as it would have been sent, with the participant's signed links " +
      "(settings, unsubscribe): they work like a real mail's.",
  })
  text!: string;

  @ApiProperty({ example: EXAMPLE_IDS.groupId, description: 'The group the mail is about.' })
  groupID!: number;

  @ApiProperty({
    example: '2026-11-22T09:42:10.000Z',
    description: 'When the mail was captured, i.e. when it would have been sent (ISO 8601, UTC).',
  })
  createdAt!: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { oneOf, required, Rules } from '../common/validation/rules';
import { EMAIL_TYPES, InteractErrors } from './interact.errors';
import type { EmailType } from './interact.errors';

export class SendEmailDto {
  @ApiProperty({
    enum: EMAIL_TYPES,
    example: 'checkinReminder',
    description:
      '`checkinReminder` asks for a check-in; `privacyRequest` asks to review privacy settings. ' +
      'Only participants with that email preference on receive it, at most once per type per hour.',
  })
  @Rules(
    required(InteractErrors.EmailTypeMissing),
    oneOf(EMAIL_TYPES, InteractErrors.EmailTypeInvalid),
  )
  emailType!: EmailType;
}

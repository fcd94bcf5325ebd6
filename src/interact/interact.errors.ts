/** Emails' client-facing messages (spec strings, byte for byte). */
import { missingBodyParameter } from '../common/errors/common.errors';

export const InteractErrors = {
  EmailTypeMissing: missingBodyParameter('emailType'),
  EmailTypeInvalid: "Invalid email type. Should be one of ['checkinReminder', 'privacyRequest'].",
} as const;

export const EMAIL_TYPES = ['checkinReminder', 'privacyRequest'] as const;
export type EmailType = (typeof EMAIL_TYPES)[number];

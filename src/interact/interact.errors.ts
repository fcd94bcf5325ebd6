/** Emails' client-facing messages (spec strings, byte for byte). */
import { missingBodyParameter } from '../common/errors/common.errors';

export const InteractErrors = {
  EmailTypeMissing: missingBodyParameter('emailType'),
  EmailTypeInvalid: "Invalid email type. Should be one of ['checkinReminder', 'privacyRequest'].",
} as const;

export const EMAIL_TYPES = ['checkinReminder', 'privacyRequest'] as const;
export type EmailType = (typeof EMAIL_TYPES)[number];

/**
 * Every mail the service sends: the two an enterprise can request, and the security notice a
 * participant gets when their privacy level rises (docs/privacy.md; not subject to preferences).
 */
export const MAIL_TYPES = [...EMAIL_TYPES, 'privacyNotice'] as const;
export type MailType = (typeof MAIL_TYPES)[number];

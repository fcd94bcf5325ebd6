/** A participant's email preferences: they hold for all their groups in the enterprise. */
export interface EmailPreferences {
  checkinReminder: boolean;
  privacyRequest: boolean;
}
export type EmailPreference = keyof EmailPreferences;

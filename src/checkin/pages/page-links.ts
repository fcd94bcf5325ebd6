/**
 * Addresses of the participant pages. Paths are relative to this service (redirects and form
 * actions stay on the host the participant reached), the token always URL-encoded.
 */
export type CheckinForm = 'consent' | 'privacy' | 'preferences';
export type SettingsForm = 'privacy' | 'preferences';

export const CHECKIN_PATH_PREFIX = '/checkin';
export const SETTINGS_PATH = '/participant/settings';

export const checkinPath = (token: string): string =>
  `${CHECKIN_PATH_PREFIX}/${encodeURIComponent(token)}`;

export const checkinFormPath = (token: string, form: CheckinForm): string =>
  `${checkinPath(token)}/${form}`;

export const checkinDonePath = (token: string): string => `${checkinPath(token)}/done`;

export const settingsPath = (token: string, form?: SettingsForm): string =>
  `${SETTINGS_PATH}${form ? `/${form}` : ''}?token=${encodeURIComponent(token)}`;

/** The page address with the confirmation flag of the form just saved (post/redirect/get). */
export const withSavedFlag = (path: string, form: CheckinForm | SettingsForm): string =>
  `${path}${path.includes('?') ? '&' : '?'}saved=${form}`;

/** The analysis engine's address for a session: `ENGINE_URL` with `sessionID` added. */
export function engineHandoffUrl(engineUrl: string, sessionId: string): string {
  const url = new URL(engineUrl);
  url.searchParams.set('sessionID', sessionId);
  return url.toString();
}

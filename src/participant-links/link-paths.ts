/**
 * Where the participant pages live. Paths are relative to this service; the token is always
 * URL-encoded (it is base64url and dots, so encoding changes nothing today, but links stay valid
 * whatever the token's alphabet).
 */
export const CHECKIN_PATH_PREFIX = '/checkin';
export const SETTINGS_PATH = '/participant/settings';
export const UNSUBSCRIBE_PATH = '/participant/unsubscribe';

/** Path prefixes of every participant page (HTML answers, form bodies accepted). */
export const PARTICIPANT_PAGE_PREFIXES = [`${CHECKIN_PATH_PREFIX}/`, '/participant/'] as const;

/**
 * Whether a request URL (path and query) belongs to the participant pages: `/checkin`,
 * `/participant` or anything below them. Every answer there, errors included, is an HTML page.
 */
export function isParticipantPagePath(url: string): boolean {
  const path = url.split('?', 1)[0];
  return PARTICIPANT_PAGE_PREFIXES.some(
    (prefix) => path.startsWith(prefix) || path === prefix.slice(0, -1),
  );
}

export const checkinPath = (token: string): string =>
  `${CHECKIN_PATH_PREFIX}/${encodeURIComponent(token)}`;

export const settingsPath = (token: string, form?: string): string =>
  `${SETTINGS_PATH}${form ? `/${form}` : ''}?token=${encodeURIComponent(token)}`;

export const unsubscribePath = (token: string): string =>
  `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`;

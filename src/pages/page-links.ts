/**
 * Addresses within the participant pages (form actions, redirects, `/done`). Paths are relative
 * to this service, so redirects and form actions stay on the host the participant reached; the
 * base paths come from ParticipantLinks' own (link-paths.ts).
 */
import { checkinPath, settingsPath } from '../participant-links/link-paths';

export { checkinPath, settingsPath };

export type CheckinForm = 'consent' | 'privacy' | 'preferences' | 'choices' | 'start' | 'handoff';
export type SettingsForm = 'privacy' | 'preferences' | 'choices' | 'withdrawn' | 'signed-out';

export const checkinFormPath = (token: string, form: CheckinForm): string =>
  `${checkinPath(token)}/${form}`;

export const checkinDonePath = (token: string): string => `${checkinPath(token)}/done`;

/** The page address with the confirmation flag of the form just saved (post/redirect/get). */
export const withSavedFlag = (path: string, form: CheckinForm | SettingsForm): string =>
  `${path}${path.includes('?') ? '&' : '?'}saved=${form}`;

/**
 * The analysis engine's address for a hand-off (docs/checkin-flow.md, "Hand-off"): `ENGINE_URL`
 * with `sessionID` and the one-time `handoff` token added, `biometric=off` when the engine must not
 * infer from voice and face (docs/compliance.md), and `confirmed=1` once the browser that handed
 * off passed the confirm step.
 */
export function engineHandoffUrl(
  engineUrl: string,
  sessionId: string,
  handoff: string,
  options: { biometric?: boolean; confirmed?: boolean } = {},
): string {
  const url = new URL(engineUrl);
  url.searchParams.set('sessionID', sessionId);
  url.searchParams.set('handoff', handoff);
  if (options.biometric === false) url.searchParams.set('biometric', 'off');
  if (options.confirmed) url.searchParams.set('confirmed', '1');
  return url.toString();
}

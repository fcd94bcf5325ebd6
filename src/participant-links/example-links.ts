/**
 * Participants' links as the OpenAPI document's examples show them (docs/integrating.md): minted by
 * the real ParticipantLinks and LinkTokens — `<key id>.<claims>.<signature>`, with the default
 * key id `k0` and time to live — under a secret used for nothing else, at a fixed time, for the
 * example session and participant. So an example is exactly what an answer carries, and the
 * committed document is the same from run to run. No service verifies these links: none is
 * configured with this secret.
 */
import { loadConfig } from '../config/config';
import { LinkTokens } from './link-tokens';
import { ParticipantLinks, type MembershipLink } from './participant-links';

const EXAMPLE_CONFIG = loadConfig({
  NODE_ENV: 'test',
  PUBLIC_BASE_URL: 'https://checkin.example.com',
  CHECKIN_TOKEN_SECRET: 'openapi-examples-only-never-a-real-secret',
});

/** When the example links were signed (they show an expiry, like every link). */
const SIGNED_AT = Date.parse('2026-11-22T09:30:00.000Z');

const links = new ParticipantLinks(new LinkTokens(EXAMPLE_CONFIG), EXAMPLE_CONFIG);

/** A check-in link (`redirectUrl` of POST /session/create) for `sessionId`. */
export const exampleCheckinUrl = (sessionId: string): string =>
  links.checkinUrl(sessionId, SIGNED_AT);

/** A mail's settings link for a membership. */
export const exampleSettingsUrl = (link: MembershipLink): string =>
  links.settingsUrl(link, SIGNED_AT);

/** A mail's one-click unsubscribe link for a membership and an email type. */
export const exampleUnsubscribeUrl = (link: MembershipLink, emailType: string): string =>
  links.unsubscribeUrl(link, emailType, SIGNED_AT);

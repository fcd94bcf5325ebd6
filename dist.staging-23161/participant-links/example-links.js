"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exampleUnsubscribeUrl = exports.exampleSettingsUrl = exports.exampleCheckinUrl = void 0;
/**
 * Participants' links as the OpenAPI document's examples show them (docs/integrating.md): minted by
 * the real ParticipantLinks and LinkTokens — `<key id>.<claims>.<signature>`, with the default
 * key id `k0` and time to live — under a secret used for nothing else, at a fixed time, for the
 * example session and participant. So an example is exactly what an answer carries, and the
 * committed document is the same from run to run. No service verifies these links: none is
 * configured with this secret.
 */
const config_1 = require("../config/config");
const link_tokens_1 = require("./link-tokens");
const participant_links_1 = require("./participant-links");
const EXAMPLE_CONFIG = (0, config_1.loadConfig)({
    NODE_ENV: 'test',
    PUBLIC_BASE_URL: 'https://checkin.example.com',
    CHECKIN_TOKEN_SECRET: 'openapi-examples-only-never-a-real-secret',
});
/** When the example links were signed (they show an expiry, like every link). */
const SIGNED_AT = Date.parse('2026-11-22T09:30:00.000Z');
const links = new participant_links_1.ParticipantLinks(new link_tokens_1.LinkTokens(EXAMPLE_CONFIG), EXAMPLE_CONFIG);
/** A check-in link (`redirectUrl` of POST /session/create) for `sessionId`. */
const exampleCheckinUrl = (sessionId) => links.checkinUrl(sessionId, SIGNED_AT);
exports.exampleCheckinUrl = exampleCheckinUrl;
/** A mail's settings link for a membership. */
const exampleSettingsUrl = (link) => links.settingsUrl(link, SIGNED_AT);
exports.exampleSettingsUrl = exampleSettingsUrl;
/** A mail's one-click unsubscribe link for a membership and an email type. */
const exampleUnsubscribeUrl = (link, emailType) => links.unsubscribeUrl(link, emailType, SIGNED_AT);
exports.exampleUnsubscribeUrl = exampleUnsubscribeUrl;
//# sourceMappingURL=example-links.js.map
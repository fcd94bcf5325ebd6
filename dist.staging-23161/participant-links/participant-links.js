"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ParticipantLinks = void 0;
const common_1 = require("@nestjs/common");
const config_module_1 = require("../config/config.module");
const link_paths_1 = require("./link-paths");
const link_tokens_1 = require("./link-tokens");
/** A settings token names `<participant uuid>:<group id>`. */
const MEMBERSHIP_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([1-9]\d{0,14})$/i;
/** An unsubscribe token names `<participant uuid>:<email type>:<group id>`. */
const UNSUBSCRIBE_ID = /^([0-9a-f-]{36}):([A-Za-z]+):([1-9]\d{0,14})$/i;
/**
 * The participant's links, minted and read in one place: the check-in link (`redirectUrl` of
 * POST /session/create), the settings link and the one-click unsubscribe link of every email.
 * A link carries a signed, expiring token (LinkTokens) that is the participant's only capability:
 * it reaches the one session, membership or preference it names.
 */
let ParticipantLinks = class ParticipantLinks {
    tokens;
    config;
    constructor(tokens, config) {
        this.tokens = tokens;
        this.config = config;
    }
    /**
     * `${PUBLIC_BASE_URL}/checkin/{token}`, valid CHECKIN_TOKEN_TTL_HOURS from `now` (the OpenAPI
     * examples pass a fixed time; every link the service answers is signed now).
     */
    checkinUrl(sessionId, now) {
        return this.absolute((0, link_paths_1.checkinPath)(this.tokens.sign('checkin', sessionId, now)));
    }
    /**
     * `${PUBLIC_BASE_URL}/participant/settings?token=…` for one membership at its current link
     * version, valid EMAIL_LINK_TTL_DAYS.
     */
    settingsUrl(link, now) {
        return this.absolute((0, link_paths_1.settingsPath)(this.settingsToken(link, now)));
    }
    /** The token of a settings link (for a page that moves the participant to a fresh link). */
    settingsToken({ participantId, groupId, linkVersion }, now) {
        return this.tokens.sign('settings', `${participantId}:${groupId}`, now, linkVersion);
    }
    /**
     * `${PUBLIC_BASE_URL}/participant/unsubscribe?token=…` for one email type of a participant, in
     * a mail of one membership (whose link version it carries).
     */
    unsubscribeUrl(link, emailType, now) {
        const { participantId, groupId, linkVersion } = link;
        return this.absolute((0, link_paths_1.unsubscribePath)(this.tokens.sign('unsubscribe', `${participantId}:${emailType}:${groupId}`, now, linkVersion)));
    }
    /** The session a check-in token names; null when it is malformed, forged or expired. */
    sessionOf(token) {
        return typeof token === 'string' ? this.tokens.verify('checkin', token) : null;
    }
    /**
     * The membership and link version a settings token names; null when it is not a valid settings
     * token. Whether the version is still the membership's is the caller's check (a database read).
     */
    membershipOf(token) {
        const claims = typeof token === 'string' ? this.tokens.verifyClaims('settings', token) : null;
        const match = claims === null ? null : MEMBERSHIP_ID.exec(claims.id);
        return match && claims
            ? { participantId: match[1], groupId: Number(match[2]), linkVersion: claims.version }
            : null;
    }
    /** What an unsubscribe token names; null when it is not valid (the version is the caller's). */
    unsubscribeTargetOf(token) {
        const claims = typeof token === 'string' ? this.tokens.verifyClaims('unsubscribe', token) : null;
        const match = claims === null ? null : UNSUBSCRIBE_ID.exec(claims.id);
        if (!match || !claims)
            return null;
        return {
            participantId: match[1],
            emailType: match[2],
            membership: { groupId: Number(match[3]), linkVersion: claims.version },
        };
    }
    absolute(path) {
        return `${this.config.publicBaseUrl}${path}`;
    }
};
exports.ParticipantLinks = ParticipantLinks;
exports.ParticipantLinks = ParticipantLinks = __decorate([
    (0, common_1.Injectable)(),
    __param(1, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [link_tokens_1.LinkTokens, Object])
], ParticipantLinks);
//# sourceMappingURL=participant-links.js.map
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
exports.LinkTokens = void 0;
/**
 * The tokens in participants' links (ParticipantLinks): `/checkin/{token}` names a session,
 * `/participant/settings?token=…` a membership, `/participant/unsubscribe?token=…` a participant
 * and an email type. A token is `<key id>.base64url(JSON claims).base64url(HMAC-SHA256)`, the
 * HMAC over `<key id>.<claims>` under that key's secret, so it cannot be forged or altered, and it
 * carries its own expiry. Nothing else about the participant is in it.
 *
 * Rotation (docs/data-at-rest.md): new links are signed with the newest secret (`CHECKIN_TOKEN_SECRETS`,
 * first entry); a link verifies while its key id is configured, so removing a key retires its
 * links (they read as invalid). `k0` is CHECKIN_TOKEN_SECRET.
 */
const common_1 = require("@nestjs/common");
const node_crypto_1 = require("node:crypto");
const config_module_1 = require("../config/config.module");
const PURPOSE_CODE = {
    checkin: 'c',
    settings: 's',
    unsubscribe: 'u',
};
let LinkTokens = class LinkTokens {
    /** Secrets by key id; `newestKeyId` signs. */
    secrets;
    newestKeyId;
    ttlSeconds;
    /** Links in emails (settings, unsubscribe) live longer than a check-in link. */
    emailLinkTtlSeconds;
    constructor(config) {
        this.secrets = new Map(config.checkin.tokenSecrets.map(({ id, secret }) => [id, secret]));
        this.newestKeyId = config.checkin.tokenSecrets[0].id;
        this.ttlSeconds = config.checkin.tokenTtlHours * 3600;
        this.emailLinkTtlSeconds = config.email.linkTtlHours * 3600;
    }
    sign(purpose, id, now = Date.now(), version) {
        const ttl = purpose === 'checkin' ? this.ttlSeconds : this.emailLinkTtlSeconds;
        const claims = { p: PURPOSE_CODE[purpose], id, exp: Math.floor(now / 1000) + ttl };
        if (version !== undefined)
            claims.v = version;
        const signed = `${this.newestKeyId}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
        return `${signed}.${this.mac(this.newestKeyId, signed)}`;
    }
    /** The id the token names, or null when it is malformed, forged, expired or for another purpose. */
    verify(purpose, token, now = Date.now()) {
        return this.verifyClaims(purpose, token, now)?.id ?? null;
    }
    /** The id and link version the token names, or null when it is not valid (see verify). */
    verifyClaims(purpose, token, now = Date.now()) {
        if (typeof token !== 'string' || token.length > 1024)
            return null;
        const parts = token.split('.');
        if (parts.length !== 3)
            return null;
        const [keyId, payload, signature] = parts;
        if (!keyId || !payload || !signature || !this.secrets.has(keyId))
            return null;
        const expected = Buffer.from(this.mac(keyId, `${keyId}.${payload}`));
        const given = Buffer.from(signature);
        if (expected.length !== given.length || !(0, node_crypto_1.timingSafeEqual)(expected, given))
            return null;
        let claims;
        try {
            claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        }
        catch {
            return null;
        }
        if (claims.p !== PURPOSE_CODE[purpose] || typeof claims.id !== 'string')
            return null;
        if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now)
            return null;
        // Settings and unsubscribe links carry their membership's link version; check-in links none.
        if (purpose === 'checkin')
            return { id: claims.id, version: 0 };
        const version = claims.v;
        if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0)
            return null;
        return { id: claims.id, version };
    }
    mac(keyId, signed) {
        const secret = this.secrets.get(keyId);
        return (0, node_crypto_1.createHmac)('sha256', secret).update(signed).digest('base64url');
    }
};
exports.LinkTokens = LinkTokens;
exports.LinkTokens = LinkTokens = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], LinkTokens);
//# sourceMappingURL=link-tokens.js.map
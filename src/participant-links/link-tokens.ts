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
import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

export type TokenPurpose = 'checkin' | 'settings' | 'unsubscribe';

interface Claims {
  /** purpose */
  p: 'c' | 's' | 'u';
  /** the session id (checkin), `<participant uuid>:<group id>` (settings) or
   * `<participant uuid>:<email type>` (unsubscribe) */
  id: string;
  /** expiry, seconds since the epoch */
  exp: number;
  /** the membership's link version: on settings and unsubscribe links, never on check-in links */
  v?: number;
}

/** What a valid token names. */
export interface VerifiedToken {
  id: string;
  /** The link version it was signed with (0 for a check-in link, which carries none). */
  version: number;
}

const PURPOSE_CODE: Record<TokenPurpose, Claims['p']> = {
  checkin: 'c',
  settings: 's',
  unsubscribe: 'u',
};

@Injectable()
export class LinkTokens {
  /** Secrets by key id; `newestKeyId` signs. */
  private readonly secrets: Map<string, string>;
  private readonly newestKeyId: string;
  private readonly ttlSeconds: number;
  /** Links in emails (settings, unsubscribe) live longer than a check-in link. */
  private readonly emailLinkTtlSeconds: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.secrets = new Map(config.checkin.tokenSecrets.map(({ id, secret }) => [id, secret]));
    this.newestKeyId = config.checkin.tokenSecrets[0].id;
    this.ttlSeconds = config.checkin.tokenTtlHours * 3600;
    this.emailLinkTtlSeconds = config.email.linkTtlHours * 3600;
  }

  sign(purpose: TokenPurpose, id: string, now = Date.now(), version?: number): string {
    const ttl = purpose === 'checkin' ? this.ttlSeconds : this.emailLinkTtlSeconds;
    const claims: Claims = { p: PURPOSE_CODE[purpose], id, exp: Math.floor(now / 1000) + ttl };
    if (version !== undefined) claims.v = version;
    const signed = `${this.newestKeyId}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    return `${signed}.${this.mac(this.newestKeyId, signed)}`;
  }

  /** The id the token names, or null when it is malformed, forged, expired or for another purpose. */
  verify(purpose: TokenPurpose, token: string, now = Date.now()): string | null {
    return this.verifyClaims(purpose, token, now)?.id ?? null;
  }

  /** The id and link version the token names, or null when it is not valid (see verify). */
  verifyClaims(purpose: TokenPurpose, token: string, now = Date.now()): VerifiedToken | null {
    if (typeof token !== 'string' || token.length > 1024) return null;
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [keyId, payload, signature] = parts;
    if (!keyId || !payload || !signature || !this.secrets.has(keyId)) return null;
    const expected = Buffer.from(this.mac(keyId, `${keyId}.${payload}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    let claims: Claims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
    } catch {
      return null;
    }
    if (claims.p !== PURPOSE_CODE[purpose] || typeof claims.id !== 'string') return null;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null;
    // Settings and unsubscribe links carry their membership's link version; check-in links none.
    if (purpose === 'checkin') return { id: claims.id, version: 0 };
    const version = claims.v;
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) return null;
    return { id: claims.id, version };
  }

  private mac(keyId: string, signed: string): string {
    const secret = this.secrets.get(keyId) as string;
    return createHmac('sha256', secret).update(signed).digest('base64url');
  }
}

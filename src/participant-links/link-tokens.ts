/**
 * The tokens in participants' links (ParticipantLinks): `/checkin/{token}` names a session,
 * `/participant/settings?token=…` a membership, `/participant/unsubscribe?token=…` a participant
 * and an email type. A token is
 * `base64url(JSON claims).base64url(HMAC-SHA256)`, so it cannot be forged or altered, and it
 * carries its own expiry. Nothing else about the participant is in it.
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
}

const PURPOSE_CODE: Record<TokenPurpose, Claims['p']> = {
  checkin: 'c',
  settings: 's',
  unsubscribe: 'u',
};

@Injectable()
export class LinkTokens {
  private readonly secret: string;
  private readonly ttlSeconds: number;
  /** Links in emails (settings, unsubscribe) live longer than a check-in link. */
  private readonly emailLinkTtlSeconds: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.secret = config.checkin.tokenSecret;
    this.ttlSeconds = config.checkin.tokenTtlHours * 3600;
    this.emailLinkTtlSeconds = config.email.linkTtlHours * 3600;
  }

  sign(purpose: TokenPurpose, id: string, now = Date.now()): string {
    const ttl = purpose === 'checkin' ? this.ttlSeconds : this.emailLinkTtlSeconds;
    const claims: Claims = { p: PURPOSE_CODE[purpose], id, exp: Math.floor(now / 1000) + ttl };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The id the token names, or null when it is malformed, forged, expired or for another purpose. */
  verify(purpose: TokenPurpose, token: string, now = Date.now()): string | null {
    if (typeof token !== 'string' || token.length > 1024) return null;
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(payload));
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
    return claims.id;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { checkinPath, settingsPath, unsubscribePath } from './link-paths';
import { LinkTokens } from './link-tokens';

/** What a settings link names: one membership (a participant in a group). */
export interface MembershipKey {
  participantId: string;
  groupId: number;
}

/** A settings token names `<participant uuid>:<group id>`. */
const MEMBERSHIP_ID =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([1-9]\d{0,14})$/i;
/** An unsubscribe token names `<participant uuid>:<email type>`. */
const UNSUBSCRIBE_ID = /^([0-9a-f-]{36}):([A-Za-z]+)$/i;

/**
 * The participant's links, minted and read in one place: the check-in link (`redirectUrl` of
 * POST /session/create), the settings link and the one-click unsubscribe link of every email.
 * A link carries a signed, expiring token (LinkTokens) that is the participant's only capability:
 * it reaches the one session, membership or preference it names.
 */
@Injectable()
export class ParticipantLinks {
  constructor(
    private readonly tokens: LinkTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `${PUBLIC_BASE_URL}/checkin/{token}`, valid CHECKIN_TOKEN_TTL_HOURS. */
  checkinUrl(sessionId: string): string {
    return this.absolute(checkinPath(this.tokens.sign('checkin', sessionId)));
  }

  /** `${PUBLIC_BASE_URL}/participant/settings?token=…` for one membership, valid EMAIL_LINK_TTL_DAYS. */
  settingsUrl(participantId: string, groupId: number): string {
    return this.absolute(settingsPath(this.tokens.sign('settings', `${participantId}:${groupId}`)));
  }

  /** `${PUBLIC_BASE_URL}/participant/unsubscribe?token=…` for one email type of a participant. */
  unsubscribeUrl(participantId: string, emailType: string): string {
    return this.absolute(
      unsubscribePath(this.tokens.sign('unsubscribe', `${participantId}:${emailType}`)),
    );
  }

  /** The session a check-in token names; null when it is malformed, forged or expired. */
  sessionOf(token: unknown): string | null {
    return typeof token === 'string' ? this.tokens.verify('checkin', token) : null;
  }

  /** The membership a settings token names; null when it is not a valid settings token. */
  membershipOf(token: unknown): MembershipKey | null {
    const id = typeof token === 'string' ? this.tokens.verify('settings', token) : null;
    const match = id === null ? null : MEMBERSHIP_ID.exec(id);
    return match ? { participantId: match[1], groupId: Number(match[2]) } : null;
  }

  /** The participant and email type an unsubscribe token names; null when it is not valid. */
  unsubscribeTargetOf(token: unknown): { participantId: string; emailType: string } | null {
    const id = typeof token === 'string' ? this.tokens.verify('unsubscribe', token) : null;
    const match = id === null ? null : UNSUBSCRIBE_ID.exec(id);
    return match ? { participantId: match[1], emailType: match[2] } : null;
  }

  private absolute(path: string): string {
    return `${this.config.publicBaseUrl}${path}`;
  }
}

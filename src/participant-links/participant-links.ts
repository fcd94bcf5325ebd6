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

/** A membership's link, with the link version it was signed with (docs/security.md). */
export interface MembershipLink extends MembershipKey {
  linkVersion: number;
}

/** What an unsubscribe link names. */
export interface UnsubscribeTarget {
  participantId: string;
  emailType: string;
  /** The membership whose mail carried the link, and the link version it was signed with. */
  membership: { groupId: number; linkVersion: number };
}

/** A settings token names `<participant uuid>:<group id>`. */
const MEMBERSHIP_ID =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):([1-9]\d{0,14})$/i;
/** An unsubscribe token names `<participant uuid>:<email type>:<group id>`. */
const UNSUBSCRIBE_ID = /^([0-9a-f-]{36}):([A-Za-z]+):([1-9]\d{0,14})$/i;

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

  /**
   * `${PUBLIC_BASE_URL}/checkin/{token}`, valid CHECKIN_TOKEN_TTL_HOURS from `now` (the OpenAPI
   * examples pass a fixed time; every link the service answers is signed now).
   */
  checkinUrl(sessionId: string, now?: number): string {
    return this.absolute(checkinPath(this.tokens.sign('checkin', sessionId, now)));
  }

  /**
   * `${PUBLIC_BASE_URL}/participant/settings?token=…` for one membership at its current link
   * version, valid EMAIL_LINK_TTL_DAYS.
   */
  settingsUrl(link: MembershipLink, now?: number): string {
    return this.absolute(settingsPath(this.settingsToken(link, now)));
  }

  /** The token of a settings link (for a page that moves the participant to a fresh link). */
  settingsToken({ participantId, groupId, linkVersion }: MembershipLink, now?: number): string {
    return this.tokens.sign('settings', `${participantId}:${groupId}`, now, linkVersion);
  }

  /**
   * `${PUBLIC_BASE_URL}/participant/unsubscribe?token=…` for one email type of a participant, in
   * a mail of one membership (whose link version it carries).
   */
  unsubscribeUrl(link: MembershipLink, emailType: string, now?: number): string {
    const { participantId, groupId, linkVersion } = link;
    return this.absolute(
      unsubscribePath(
        this.tokens.sign(
          'unsubscribe',
          `${participantId}:${emailType}:${groupId}`,
          now,
          linkVersion,
        ),
      ),
    );
  }

  /** The session a check-in token names; null when it is malformed, forged or expired. */
  sessionOf(token: unknown): string | null {
    return typeof token === 'string' ? this.tokens.verify('checkin', token) : null;
  }

  /**
   * The membership and link version a settings token names; null when it is not a valid settings
   * token. Whether the version is still the membership's is the caller's check (a database read).
   */
  membershipOf(token: unknown): MembershipLink | null {
    const claims = typeof token === 'string' ? this.tokens.verifyClaims('settings', token) : null;
    const match = claims === null ? null : MEMBERSHIP_ID.exec(claims.id);
    return match && claims
      ? { participantId: match[1], groupId: Number(match[2]), linkVersion: claims.version }
      : null;
  }

  /** What an unsubscribe token names; null when it is not valid (the version is the caller's). */
  unsubscribeTargetOf(token: unknown): UnsubscribeTarget | null {
    const claims =
      typeof token === 'string' ? this.tokens.verifyClaims('unsubscribe', token) : null;
    const match = claims === null ? null : UNSUBSCRIBE_ID.exec(claims.id);
    if (!match || !claims) return null;
    return {
      participantId: match[1],
      emailType: match[2],
      membership: { groupId: Number(match[3]), linkVersion: claims.version },
    };
  }

  private absolute(path: string): string {
    return `${this.config.publicBaseUrl}${path}`;
  }
}

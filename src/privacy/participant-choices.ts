/**
 * The one home of the choices a participant makes (docs/privacy.md): their privacy level, their
 * consent, the version of their links and their email preferences. Every page and link changes
 * them through here — the check-in page, the settings page, the one-click unsubscribe — each in
 * one transaction with what it owes: a consent-ledger row per value that changed, a
 * `user.privacy.updated` event for the enterprise when the level changed, a notice mail to the
 * participant when it rose, and the group comparisons brought in line with the check-ins shown at
 * level 5 (SharedFeatures). The tables are written by their owners (participants/).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Database, Sql } from '../database/database';
import { InteractRepository } from '../interact/interact.repository';
import { ConsentEntry, ConsentLedgerRepository } from '../participants/consent-ledger.repository';
import { MembershipsRepository } from '../participants/memberships.repository';
import type { ParticipantEntity } from '../participants/participant.entity';
import {
  EmailPreference,
  EmailPreferences,
  ParticipantsRepository,
  UnsubscribeLink,
} from '../participants/participants.repository';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SharedFeatures } from '../metrics/rollups/shared-features';
import { EventTypes, PrivacyUpdatedPayload } from '../webhooks/events/events';
import { EventsRepository } from '../webhooks/events/events.repository';

/** Which page made the change. */
export type PageVia = 'checkin' | 'settings';

/**
 * Which check-ins a raise reaches besides the member's level (docs/privacy.md): the check-in whose
 * page made it, and, when the participant ticks "Also share my earlier check-ins done in this
 * browser", the check-ins done in the browser that made it. Nothing else: a raise never reaches a
 * past check-in by itself.
 */
export interface RaiseReach {
  /**
   * The browser whose page made the change (the SHA-256 of the identity holding the page's link):
   * a raise made there is asked about before a check-in in another browser is handed off.
   */
  madeIn?: string | null;
  /** The check-in whose page made the change (it takes the level, up or down). */
  sessionId?: string;
  /** The browser (the SHA-256s of its identities) whose earlier check-ins the raise reaches. */
  shareEarlierFrom?: readonly string[];
}

/** The membership a choice is about, as a page knows it from its signed link. */
export interface Member {
  enterpriseId: string;
  participantId: string;
  groupId: number;
  /** For the enterprise's event about a change. */
  externalId: ParticipantEntity['externalId'];
}

@Injectable()
export class ParticipantChoices {
  constructor(
    private readonly db: Database,
    private readonly memberships: MembershipsRepository,
    private readonly sessions: SessionsRepository,
    private readonly sharedFeatures: SharedFeatures,
    private readonly participants: ParticipantsRepository,
    private readonly ledger: ConsentLedgerRepository,
    private readonly events: EventsRepository,
    private readonly interact: InteractRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The language the participant chose on a page (docs/i18n.md), for their pages and mails. */
  async keepLanguage(participantId: string, language: string): Promise<void> {
    await this.participants.setLanguage(participantId, language);
  }

  /**
   * Gives or withdraws consent (withdrawing drops the level to 0 and revokes the membership's
   * earlier links); given on a check-in's page (`sessionId`), it is also that check-in's consent.
   * Answers the membership's link version now, or null if the member is gone.
   */
  setConsent(
    member: Member,
    consent: boolean,
    via: PageVia,
    sessionId?: string,
  ): Promise<{ linkVersion: number } | null> {
    return this.db.transaction(async (sql) => {
      const before = await this.memberships.setConsent(
        member.participantId,
        member.groupId,
        consent,
        sql,
      );
      if (!before) return null;
      // Given on a check-in's page: it is that check-in's consent (docs/privacy.md). Withdrawn:
      // no check-in not yet completed keeps a consent given before.
      if (consent && sessionId) await this.sessions.consentTo(sessionId, sql);
      if (!consent) {
        await this.sessions.clearPendingConsents(member.participantId, member.groupId, sql);
      }
      const level = consent ? before.privacyLevel : 0;
      // A withdrawal lowers the level "Go back" returns to in every browser.
      await this.memberships.recordBrowserLevel(
        member.participantId,
        member.groupId,
        level,
        null,
        sql,
      );
      await this.sessions.capSharedLevels(member.participantId, member.groupId, level, sql);
      await this.sharedFeatures.reconcileMembership(member.participantId, member.groupId, sql);
      await this.ledger.append(
        [
          this.entry(member, via, sessionId, 'consent', before.consented, consent),
          this.entry(member, via, sessionId, 'privacyLevel', before.privacyLevel, level),
        ],
        sql,
      );
      await this.levelChanged(member, before.privacyLevel, level, sql);
      return { linkVersion: before.linkVersion };
    });
  }

  /**
   * Sets the member's privacy level; false if the member is gone. A lowering reaches every
   * check-in of the membership at once; a raise only those `reach` names.
   */
  setPrivacyLevel(
    member: Member,
    level: number,
    via: PageVia,
    reach: RaiseReach = {},
  ): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const before = await this.memberships.setPrivacyLevel(
        member.participantId,
        member.groupId,
        level,
        reach.madeIn ?? null,
        sql,
      );
      if (before === null) return false;
      const { participantId, groupId } = member;
      // The level the browser that made it chose itself: what "Go back" returns to there.
      await this.memberships.recordBrowserLevel(
        participantId,
        groupId,
        level,
        reach.madeIn ?? null,
        sql,
      );
      await this.sessions.capSharedLevels(participantId, groupId, level, sql);
      if (reach.sessionId) await this.sessions.shareAt(reach.sessionId, level, sql);
      if (reach.shareEarlierFrom?.length) {
        await this.sessions.raiseSharedLevelsDoneIn(
          participantId,
          groupId,
          reach.shareEarlierFrom,
          level,
          sql,
        );
      }
      // What the group comparisons count follows: level-5 check-ins in, the others out.
      await this.sharedFeatures.reconcileMembership(participantId, groupId, sql);
      await this.ledger.append(
        [this.entry(member, via, reach.sessionId, 'privacyLevel', before, level)],
        sql,
      );
      await this.levelChanged(member, before, level, sql);
      return true;
    });
  }

  /**
   * Sets the participant's email preferences (on the page of check-in `sessionId`, if one's);
   * false if the participant is gone.
   */
  setEmailPreferences(
    member: Member,
    preferences: EmailPreferences,
    via: PageVia,
    sessionId?: string,
  ): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const before = await this.participants.setEmailPreferences(
        member.participantId,
        preferences,
        sql,
      );
      if (!before) return false;
      await this.ledger.append(
        (['checkinReminder', 'privacyRequest'] as const).map((type) =>
          this.entry(member, via, sessionId, type, before[type], preferences[type]),
        ),
        sql,
      );
      return true;
    });
  }

  /**
   * One-click unsubscribe: turns one email preference off (it applies to all the participant's
   * groups, so the ledger row names no group); false if the participant is gone or the link was
   * revoked (docs/security.md).
   */
  unsubscribe(link: UnsubscribeLink, preference: EmailPreference): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const before = await this.participants.unsubscribe(link, preference, sql);
      if (!before) return false;
      await this.ledger.append(
        [
          {
            enterpriseId: before.enterpriseId,
            participantId: link.participantId,
            groupId: null,
            change: preference,
            from: before.before,
            to: false,
            via: 'unsubscribe',
            sessionId: null,
          },
        ],
        sql,
      );
      return true;
    });
  }

  /**
   * "Sign out my links" (docs/security.md): every settings and unsubscribe link the participant
   * was sent, in every group, stops working. Answers the memberships' new link versions.
   */
  signOutLinks(participantId: string): Promise<{ groupId: number; linkVersion: number }[]> {
    return this.memberships.bumpLinkVersions(participantId);
  }

  /** A ledger row; `sessionId`: the check-in whose page made the change, if a check-in's. */
  private entry(
    member: Member,
    via: PageVia,
    sessionId: string | undefined,
    change: ConsentEntry['change'],
    from: number | boolean,
    to: number | boolean,
  ): ConsentEntry {
    return {
      enterpriseId: member.enterpriseId,
      participantId: member.participantId,
      groupId: member.groupId,
      sessionId: sessionId ?? null,
      change,
      from,
      to,
      via,
    };
  }

  private async levelChanged(member: Member, from: number, to: number, sql: Sql): Promise<void> {
    if (from === to) return;
    const payload: PrivacyUpdatedPayload = {
      groupID: member.groupId,
      userIdentifier: member.externalId,
      privacyLevel: to,
      previousPrivacyLevel: from,
      timestamp: new Date().toISOString(),
    };
    await this.events.insert(
      {
        enterpriseId: member.enterpriseId,
        groupId: member.groupId,
        type: EventTypes.PrivacyUpdated,
        payload,
      },
      sql,
    );
    if (to > from) {
      await this.interact.queuePrivacyNotice(
        {
          enterpriseId: member.enterpriseId,
          participantId: member.participantId,
          groupId: member.groupId,
          from,
          to,
        },
        this.config.email.dedupWindowMs,
        sql,
      );
    }
  }
}

/**
 * Privacy levels set straight in the database, for tests about what a level shows (not about who
 * may set it): as a participant who chose `level` on the page of each of their check-ins, in the
 * browser that did it — the member's level and every check-in's own level (docs/privacy.md), each
 * check-in handed off from its page and confirmed by that browser, so a result posted later counts
 * at its level too. The rules themselves (a raise reaches a past check-in only from its own
 * browser; a result no confirmed hand-off led to stays at level 0) are tested through the pages,
 * in checkin-levels.e2e-spec.ts and checkin-handoff.e2e-spec.ts.
 */
import type { Pool } from 'pg';

/** Whose memberships: a participant (by external ID), the membership of a session, or all. */
export type LevelTarget = { externalId: string } | { sessionId: string } | 'everyone';

const MEMBERSHIPS: Record<'externalId' | 'sessionId' | 'everyone', string> = {
  externalId: `UPDATE memberships m SET privacy_level = $1 FROM participants p
                WHERE p.id = m.participant_id AND p.external_id = $2`,
  sessionId: `UPDATE memberships m SET privacy_level = $1 FROM sessions s
               WHERE s.session_id = $2 AND m.participant_id = s.participant_id
                 AND m.group_id = s.group_id`,
  everyone: 'UPDATE memberships m SET privacy_level = $1 WHERE $2::text IS NULL',
};

export async function shareAt(db: Pool, target: LevelTarget, level: number): Promise<void> {
  const [kind, value] =
    target === 'everyone'
      ? (['everyone', null] as const)
      : 'externalId' in target
        ? (['externalId', target.externalId] as const)
        : (['sessionId', target.sessionId] as const);
  await db.query(
    `WITH m AS (${MEMBERSHIPS[kind]} RETURNING m.participant_id, m.group_id)
     UPDATE sessions s SET shared_level = $1, level_pinned = false,
                           handoff_confirmed_at = coalesce(s.handoff_confirmed_at, now())
       FROM m WHERE s.participant_id = m.participant_id AND s.group_id = m.group_id`,
    [level, value],
  );
}

/**
 * A session handed off from its page at the member's level now and confirmed by the browser that
 * did it (docs/checkin-flow.md, "Hand-off"), as the pages and the engine would leave it: a result
 * posted afterwards counts at that level. For tests about what a level shows, not about the
 * hand-off itself (checkin-handoff.e2e-spec.ts).
 */
export async function handedOff(db: Pool, sessionId: string): Promise<void> {
  await db.query(
    `UPDATE sessions s SET shared_level = m.privacy_level, handoff_confirmed_at = now()
       FROM memberships m
      WHERE s.session_id = $1 AND m.participant_id = s.participant_id AND m.group_id = s.group_id`,
    [sessionId],
  );
}

import type { Sql } from '../database/database';

/**
 * What a `privacyNotice` mail carries (docs/emails.md, "The notice of a raise"): every raise of a
 * participant's privacy level in one group since the previous notice, in the order they were made.
 * A raise is never dropped: it joins the notice still queued for that participant and group, or
 * starts one.
 */
export interface NoticeRaise {
  from: number;
  to: number;
  /** When the raise was made (ISO 8601, UTC). */
  at: string;
}

/**
 * `email_messages.details` of a notice: `raises` is the list. `from` and `to` (the level before
 * the first raise, after the last) are what the previous release reads, so that its workers still
 * send a true summary during a rolling deploy or after a rollback (docs/operations.md, "Migration
 * policy: expand, then contract").
 */
export interface NoticeDetails {
  from: number;
  to: number;
  raises: NoticeRaise[];
}

/** As stored: the previous release wrote `{from, to}` alone, one raise, made when it was queued. */
export type StoredNoticeDetails = NoticeDetails | { from: number; to: number; raises?: undefined };

/** The details of a notice carrying `raises` (at least one). */
export function noticeDetails(raises: readonly NoticeRaise[]): NoticeDetails {
  if (raises.length === 0) throw new Error('A notice carries at least one raise');
  return { from: raises[0].from, to: raises[raises.length - 1].to, raises: [...raises] };
}

/** The raises a stored notice carries, oldest first; `queuedAt` dates a notice of the old form. */
export function raisesOf(details: StoredNoticeDetails | null, queuedAt: Date): NoticeRaise[] {
  if (details === null) return [];
  if (Array.isArray(details.raises))
    return details.raises.map(({ from, to, at }) => ({ from, to, at }));
  return [{ from: details.from, to: details.to, at: queuedAt.toISOString() }];
}

/** A queued notice with one more raise, after the others. */
export const withRaise = (
  details: StoredNoticeDetails | null,
  raise: NoticeRaise,
  queuedAt: Date,
): NoticeDetails => noticeDetails([...raisesOf(details, queuedAt), raise]);

/**
 * A notice just sent that was rendered with its first `sentCount` raises: what it said, and the
 * raises added while it was being sent (null: none), which go in a notice of their own.
 */
export function splitSent(
  details: StoredNoticeDetails | null,
  sentCount: number,
  queuedAt: Date,
): { sent: NoticeDetails | null; rest: NoticeDetails | null } {
  const raises = raisesOf(details, queuedAt);
  const sent = raises.slice(0, sentCount);
  const rest = raises.slice(sentCount);
  return {
    sent: sent.length > 0 ? noticeDetails(sent) : null,
    rest: rest.length > 0 ? noticeDetails(rest) : null,
  };
}

/**
 * Holds the notices of one participant and group for the rest of the transaction: whoever adds a
 * raise, and the worker recording a notice as sent, take it first, so a raise always lands in
 * exactly one notice, never in one already sent, and two raises at once share one queued notice.
 */
export async function lockNotices(sql: Sql, participantId: string, groupId: number): Promise<void> {
  await sql.rows(`SELECT pg_advisory_xact_lock(hashtextextended($1, $2))`, [
    `privacy-notice:${participantId}`,
    groupId,
  ]);
}

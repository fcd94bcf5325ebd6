"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withRaise = void 0;
exports.noticeDetails = noticeDetails;
exports.raisesOf = raisesOf;
exports.splitSent = splitSent;
exports.lockNotices = lockNotices;
/** The details of a notice carrying `raises` (at least one). */
function noticeDetails(raises) {
    if (raises.length === 0)
        throw new Error('A notice carries at least one raise');
    return { from: raises[0].from, to: raises[raises.length - 1].to, raises: [...raises] };
}
/** The raises a stored notice carries, oldest first; `queuedAt` dates a notice of the old form. */
function raisesOf(details, queuedAt) {
    if (details === null)
        return [];
    if (Array.isArray(details.raises))
        return details.raises.map(({ from, to, at }) => ({ from, to, at }));
    return [{ from: details.from, to: details.to, at: queuedAt.toISOString() }];
}
/** A queued notice with one more raise, after the others. */
const withRaise = (details, raise, queuedAt) => noticeDetails([...raisesOf(details, queuedAt), raise]);
exports.withRaise = withRaise;
/**
 * A notice just sent that was rendered with its first `sentCount` raises: what it said, and the
 * raises added while it was being sent (null: none), which go in a notice of their own.
 */
function splitSent(details, sentCount, queuedAt) {
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
async function lockNotices(sql, participantId, groupId) {
    await sql.rows(`SELECT pg_advisory_xact_lock(hashtextextended($1, $2))`, [
        `privacy-notice:${participantId}`,
        groupId,
    ]);
}
//# sourceMappingURL=privacy-notice.js.map
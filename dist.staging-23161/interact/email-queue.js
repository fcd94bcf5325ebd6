"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.emailRetryDelayMs = exports.EMAIL_BACKOFF_MS = exports.EMAIL_JOB_ATTEMPTS = exports.EMAILS_CHANNEL = exports.SEND_EMAIL_JOB = exports.EMAIL_QUEUE = void 0;
/** The email queue's contract (docs/emails.md). Rows in `email_messages` are the truth. */
exports.EMAIL_QUEUE = 'emails';
exports.SEND_EMAIL_JOB = 'send';
exports.EMAILS_CHANNEL = 'email_messages';
/**
 * Temporary SMTP failures (4xx, connection errors) are retried with Bull's exponential backoff:
 * 2 s, 6 s, 14 s, 30 s … ((2^n − 1) × 2 s after the n-th failure), up to 12 attempts, about 2 h
 * 15 min in all, so an SMTP outage of that length only
 * delays mail. After that the mail is marked failed (its error is kept in email_messages).
 */
exports.EMAIL_JOB_ATTEMPTS = 12;
exports.EMAIL_BACKOFF_MS = 2_000;
/**
 * Bull's exponential backoff with EMAIL_BACKOFF_MS: the wait after the `attemptsMade`-th failed
 * attempt, (2^n − 1) × 2 s (2 s after the first, 6 s after the second, 14 s …), for the log's
 * "next attempt at". A unit test holds it equal to Bull's own formula.
 */
const emailRetryDelayMs = (attemptsMade) => exports.EMAIL_BACKOFF_MS * (2 ** attemptsMade - 1);
exports.emailRetryDelayMs = emailRetryDelayMs;
//# sourceMappingURL=email-queue.js.map
/** The email queue's contract (docs/emails.md). Rows in `email_messages` are the truth. */
export const EMAIL_QUEUE = 'emails';
export const SEND_EMAIL_JOB = 'send';
export const EMAILS_CHANNEL = 'email_messages';

export interface SendEmailJob {
  messageId: string;
}

/**
 * Temporary SMTP failures (4xx, connection errors) are retried with Bull's exponential backoff:
 * 2 s, 6 s, 14 s, 30 s … ((2^n − 1) × 2 s after the n-th failure), up to 12 attempts, about 2 h
 * 15 min in all, so an SMTP outage of that length only
 * delays mail. After that the mail is marked failed (its error is kept in email_messages).
 */
export const EMAIL_JOB_ATTEMPTS = 12;
export const EMAIL_BACKOFF_MS = 2_000;

/**
 * Bull's exponential backoff with EMAIL_BACKOFF_MS: the wait after the `attemptsMade`-th failed
 * attempt, (2^n − 1) × 2 s (2 s after the first, 6 s after the second, 14 s …), for the log's
 * "next attempt at". A unit test holds it equal to Bull's own formula.
 */
export const emailRetryDelayMs = (attemptsMade: number): number =>
  EMAIL_BACKOFF_MS * (2 ** attemptsMade - 1);

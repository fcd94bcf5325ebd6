/**
 * Event types and payloads (DESIGN §9). Events are written to the `events` outbox in the same
 * transaction as the change that caused them; the webhooks module delivers them.
 */
export const EventTypes = {
  UserCreated: 'user.created',
  SessionResult: 'user.session.result',
  /** Sent by POST /webhooks/{groupID}/{webhookID}/test to that endpoint only. */
  Test: 'webhook.test',
} as const;

/** PostgreSQL NOTIFY channel: "new deliveries were committed". */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

export type EventType = (typeof EventTypes)[keyof typeof EventTypes];

/** `user.created` object, minus the email (kept encrypted in `encrypted_pii`). */
export interface UserCreatedPayload {
  groupID: number;
  userIdentifier: string;
}

export interface SessionResultPayload {
  groupID: number;
  sessionID: string;
  externalUserID: string;
  timestamp: string;
}

/**
 * Event types and payloads (docs/webhooks.md). Events are written to the `events` outbox in the same
 * transaction as the change that caused them; the webhooks module delivers them.
 */
export const EventTypes = {
  UserCreated: 'user.created',
  SessionResult: 'user.session.result',
  /** A participant's privacy level changed (docs/privacy.md, docs/webhooks.md); for endpoints that enable it. */
  PrivacyUpdated: 'user.privacy.updated',
  /** A participant was erased; one per group they belonged to. */
  Deleted: 'user.deleted',
  /** Sent by POST /webhooks/{groupID}/{webhookID}/test to that endpoint only. */
  Test: 'webhook.test',
} as const;

/** PostgreSQL NOTIFY channel: "new deliveries were committed". */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

export type EventType = (typeof EventTypes)[keyof typeof EventTypes];

/**
 * The event types an endpoint can enable (`enabledEvents`), in their canonical order: the order
 * they are stored, answered, documented and named in the error message.
 */
export const SUBSCRIBABLE_EVENTS = [
  EventTypes.UserCreated,
  EventTypes.SessionResult,
  EventTypes.PrivacyUpdated,
  EventTypes.Deleted,
] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];

/** What an endpoint created without `enabledEvents` takes: the spec's two events. */
export const DEFAULT_EVENTS: readonly SubscribableEvent[] = [
  EventTypes.UserCreated,
  EventTypes.SessionResult,
];

/** The event types an endpoint takes only when it asks for them. */
export const OPT_IN_EVENTS: readonly SubscribableEvent[] = SUBSCRIBABLE_EVENTS.filter(
  (type) => !DEFAULT_EVENTS.includes(type),
);

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

/** `user.privacy.updated` object (docs/webhooks.md). */
export interface PrivacyUpdatedPayload {
  groupID: number;
  userIdentifier: string;
  privacyLevel: number;
  previousPrivacyLevel: number;
  timestamp: string;
}

/**
 * `user.deleted` object minus the external ID: after an erasure no row may hold it in clear, so
 * it is kept encrypted in `encrypted_pii` (as the email of `user.created`) until delivered.
 */
export interface UserDeletedPayload {
  groupID: number;
  timestamp: string;
}

/**
 * The fields of each event type kept encrypted in `encrypted_pii` rather than in the payload.
 * Retention clears them once delivered (docs/privacy.md); a redelivery afterwards carries them as
 * `null`, so the receiver sees the field existed and is gone.
 */
export const EVENT_PII_FIELDS: Readonly<Partial<Record<EventType, readonly string[]>>> = {
  [EventTypes.UserCreated]: ['email'],
  [EventTypes.Deleted]: ['userIdentifier'],
};

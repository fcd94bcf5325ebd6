"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EVENT_PII_FIELDS = exports.OPT_IN_EVENTS = exports.DEFAULT_EVENTS = exports.SUBSCRIBABLE_EVENTS = exports.DELIVERIES_CHANNEL = exports.EventTypes = void 0;
/**
 * Event types and payloads (docs/webhooks.md). Events are written to the `events` outbox in the same
 * transaction as the change that caused them; the webhooks module delivers them.
 */
exports.EventTypes = {
    UserCreated: 'user.created',
    SessionResult: 'user.session.result',
    /** A participant's privacy level changed (docs/privacy.md, docs/webhooks.md); for endpoints that enable it. */
    PrivacyUpdated: 'user.privacy.updated',
    /** A participant was erased; one per group they belonged to. */
    Deleted: 'user.deleted',
    /** Sent by POST /webhooks/{groupID}/{webhookID}/test to that endpoint only. */
    Test: 'webhook.test',
};
/** PostgreSQL NOTIFY channel: "new deliveries were committed". */
exports.DELIVERIES_CHANNEL = 'webhook_deliveries';
/**
 * The event types an endpoint can enable (`enabledEvents`), in their canonical order: the order
 * they are stored, answered, documented and named in the error message.
 */
exports.SUBSCRIBABLE_EVENTS = [
    exports.EventTypes.UserCreated,
    exports.EventTypes.SessionResult,
    exports.EventTypes.PrivacyUpdated,
    exports.EventTypes.Deleted,
];
/** What an endpoint created without `enabledEvents` takes: the spec's two events. */
exports.DEFAULT_EVENTS = [
    exports.EventTypes.UserCreated,
    exports.EventTypes.SessionResult,
];
/** The event types an endpoint takes only when it asks for them. */
exports.OPT_IN_EVENTS = exports.SUBSCRIBABLE_EVENTS.filter((type) => !exports.DEFAULT_EVENTS.includes(type));
/**
 * The fields of each event type kept encrypted in `encrypted_pii` rather than in the payload.
 * Retention clears them once delivered (docs/privacy.md); a redelivery afterwards carries them as
 * `null`, so the receiver sees the field existed and is gone.
 */
exports.EVENT_PII_FIELDS = {
    [exports.EventTypes.UserCreated]: ['email'],
    [exports.EventTypes.Deleted]: ['userIdentifier'],
};
//# sourceMappingURL=events.js.map
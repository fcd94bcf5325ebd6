"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CLEAR_DELIVERED_PII = exports.EventsRepository = void 0;
const common_1 = require("@nestjs/common");
const ids_1 = require("../../common/ids");
const pii_cipher_1 = require("../../common/crypto/pii-cipher");
const trace_context_1 = require("../../common/telemetry/trace-context");
const database_1 = require("../../database/database");
const events_1 = require("./events");
/**
 * The event; the outbox, one delivery per enabled endpoint of the group that takes this event
 * type; and a NOTIFY, delivered at commit, waking the workers. Prepared once per connection (every
 * new participant's session writes one).
 */
const INSERT_EVENT = (0, database_1.statement)('events-insert', `WITH event AS (
     INSERT INTO events (id, enterprise_id, group_id, type, payload, encrypted_pii, trace_context)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     RETURNING id
   ), outbox AS (
     INSERT INTO webhook_deliveries (event_id, endpoint_id)
     SELECT event.id, endpoint.id
       FROM event, webhook_endpoints endpoint
      WHERE endpoint.group_id = $3 AND endpoint.status = 'enabled'
        AND $4 = ANY (endpoint.enabled_events)
   )
   SELECT pg_notify('${events_1.DELIVERIES_CHANNEL}', '')`);
/**
 * The outbox (docs/webhooks.md): events are written here, in the transaction of the change that
 * caused them, with one delivery per endpoint that takes them, and with the trace context of the
 * request that wrote them, which their deliveries' spans join (docs/operations.md, "Traces"). The only writer of `events`
 * besides erasure and retention, which call {@link forgetParticipant} and
 * {@link clearDeliveredPii} here.
 */
let EventsRepository = class EventsRepository {
    db;
    cipher;
    constructor(db, cipher) {
        this.db = db;
        this.cipher = cipher;
    }
    async insert(event, sql = this.db) {
        const id = (0, ids_1.newEventId)();
        // One round trip (docs/webhooks.md, "How delivery works"): the event; the outbox, one delivery
        // per enabled endpoint of the group that takes this event type; and a NOTIFY, delivered at
        // commit, waking the workers. A data-modifying CTE always runs to completion, and the
        // deliveries' foreign key sees the event inserted by the same statement.
        await sql.rows(INSERT_EVENT, [
            id,
            event.enterpriseId,
            event.groupId,
            event.type,
            JSON.stringify(event.payload),
            event.pii ? this.cipher.encrypt(JSON.stringify(event.pii)) : null,
            (0, trace_context_1.traceContextParam)(),
        ]);
        return id;
    }
    /** A `webhook.test` event delivered to one endpoint only. */
    async insertTest(enterpriseId, groupId, endpointId, sql = this.db) {
        const id = (0, ids_1.newEventId)();
        await sql.rows(`WITH event AS (
         INSERT INTO events (id, enterprise_id, group_id, type, payload, trace_context)
         VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING id
       ), outbox AS (
         INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT event.id, $7 FROM event
       )
       SELECT pg_notify('${events_1.DELIVERIES_CHANNEL}', '')`, [
            id,
            enterpriseId,
            groupId,
            events_1.EventTypes.Test,
            JSON.stringify({ groupID: groupId, webhookID: endpointId }),
            (0, trace_context_1.traceContextParam)(),
            endpointId,
        ]);
        return id;
    }
    /**
     * Erasure (docs/privacy.md): deletes the enterprise's events that name the participant (their
     * `user.created`, `user.session.result` and `user.privacy.updated`, with any pending deliveries
     * and the delivery log), so no payload keeps their external ID or email.
     */
    async forgetParticipant(enterpriseId, externalId, sql) {
        await sql.rows(`DELETE FROM events
        WHERE enterprise_id = $1
          AND (payload->>'userIdentifier' = $2 OR payload->>'externalUserID' = $2)`, [enterpriseId, externalId]);
    }
    /**
     * Retention (docs/data-at-rest.md): clears the personal data of up to `limit` events none of
     * whose deliveries is still pending (each delivered, failed for good or cancelled — or the event
     * had no endpoint), across tenants (bounded, `FOR UPDATE SKIP LOCKED`); returns how many. A
     * delivery redelivered later is sent without it (DeliveryService.envelope).
     */
    async clearDeliveredPii(limit) {
        const rows = await this.db.rows(exports.CLEAR_DELIVERED_PII, [limit]);
        return rows.length;
    }
};
exports.EventsRepository = EventsRepository;
exports.EventsRepository = EventsRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database,
        pii_cipher_1.PiiCipher])
], EventsRepository);
/**
 * See EventsRepository.clearDeliveredPii. "No pending delivery" is asked as `NOT ('pending' = ANY
 * (the event's delivery statuses))`, not as `NOT EXISTS (… status = 'pending')`: PostgreSQL turns
 * the NOT EXISTS into an anti-join, and while its statistics say few deliveries are pending (stale
 * during a backlog: a receiver down, a worker catching up) it compared every event with every
 * pending delivery. Measured: 340 ms for one batch of 1,000 events against 4,000 pending
 * deliveries, 25 such batches in one bench run, and it grows with their product. This form stays a
 * lookup of each event's few deliveries in `webhook_deliveries_event_endpoint_idx`, whatever the
 * statistics: 8 ms for the same batch (docs/performance.md, "Fourth pass").
 */
exports.CLEAR_DELIVERED_PII = `WITH due AS (
     SELECT e.id FROM events e
      WHERE e.encrypted_pii IS NOT NULL
        AND NOT ('pending' = ANY (SELECT d.status FROM webhook_deliveries d
                                   WHERE d.event_id = e.id))
      ORDER BY e.created_at
      LIMIT $1
      FOR UPDATE OF e SKIP LOCKED)
   UPDATE events e SET encrypted_pii = NULL FROM due WHERE e.id = due.id
   RETURNING e.id`;
//# sourceMappingURL=events.repository.js.map
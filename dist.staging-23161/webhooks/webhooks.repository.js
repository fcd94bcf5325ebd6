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
exports.WebhooksRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
const entity_columns_1 = require("../database/entity-columns");
const events_1 = require("./events/events");
const webhook_endpoint_entity_1 = require("./webhook-endpoint.entity");
const ENDPOINT = (0, entity_columns_1.columnsOf)(webhook_endpoint_entity_1.WebhookEndpointEntity, [
    'id',
    'groupId',
    'url',
    'description',
    'status',
    'enabledEvents',
]);
/** Webhook endpoints' and their deliveries' SQL, always scoped by enterprise and group. */
let WebhooksRepository = class WebhooksRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    async listForGroup(enterpriseId, groupId) {
        return this.db.rows(`SELECT ${ENDPOINT.select()} FROM webhook_endpoints
        WHERE enterprise_id = $1 AND group_id = $2 ORDER BY created_at, id`, [enterpriseId, groupId]);
    }
    async find(enterpriseId, groupId, webhookId) {
        const [endpoint] = await this.db.rows(`SELECT ${ENDPOINT.select()} FROM webhook_endpoints
        WHERE id = $1 AND enterprise_id = $2 AND group_id = $3`, [webhookId, enterpriseId, groupId]);
        return endpoint ?? null;
    }
    async insert(values) {
        const [endpoint] = await this.db.rows(`INSERT INTO webhook_endpoints
         (id, enterprise_id, group_id, url, description, enabled_events, secret_ciphertext)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${ENDPOINT.select()}`, [
            values.id,
            values.enterpriseId,
            values.groupId,
            values.url,
            values.description,
            values.enabledEvents,
            values.secretCiphertext,
        ]);
        return endpoint;
    }
    /**
     * Changes the given fields (null = keep). Re-enabling clears the failure streak; disabling
     * cancels the endpoint's pending deliveries.
     */
    async update(enterpriseId, groupId, webhookId, changes) {
        const [endpoint] = await this.db.rows(`WITH updated AS (
         UPDATE webhook_endpoints
            SET url = coalesce($4, url),
                description = coalesce($5, description),
                status = coalesce($6, status),
                enabled_events = coalesce($7::text[], enabled_events),
                failing_since = CASE WHEN $6 = 'enabled' THEN NULL ELSE failing_since END,
                updated_at = now()
          WHERE id = $1 AND enterprise_id = $2 AND group_id = $3
        RETURNING ${ENDPOINT.select()}),
       cancelled AS (
         UPDATE webhook_deliveries SET status = 'cancelled', locked_until = NULL
          WHERE endpoint_id = (SELECT id FROM updated) AND $6 = 'disabled' AND status = 'pending')
       SELECT * FROM updated`, [
            webhookId,
            enterpriseId,
            groupId,
            changes.url,
            changes.description,
            changes.status,
            changes.enabledEvents,
        ]);
        return endpoint ?? null;
    }
    /** Deletes the endpoint; its deliveries (pending ones included) go with it. */
    async delete(enterpriseId, groupId, webhookId) {
        const rows = await this.db.rows(`DELETE FROM webhook_endpoints WHERE id = $1 AND enterprise_id = $2 AND group_id = $3
       RETURNING id`, [webhookId, enterpriseId, groupId]);
        return rows.length > 0;
    }
    /** New secret; the current one stays valid (and signs too) until `previousValidUntil`. */
    async rotateSecret(enterpriseId, groupId, webhookId, secretCiphertext, previousValidUntil) {
        const [endpoint] = await this.db.rows(`UPDATE webhook_endpoints
          SET previous_secret_ciphertext = secret_ciphertext,
              previous_secret_expires_at = $5,
              secret_ciphertext = $4,
              updated_at = now()
        WHERE id = $1 AND enterprise_id = $2 AND group_id = $3
      RETURNING ${ENDPOINT.select()}`, [webhookId, enterpriseId, groupId, secretCiphertext, previousValidUntil]);
        return endpoint ?? null;
    }
    /** The endpoint's deliveries, newest first, with their attempts. */
    async listDeliveries(enterpriseId, endpointId, limit) {
        return this.db.rows(`SELECT d.id, d.event_id AS "eventId", e.type AS "eventType", d.status, d.attempts,
              d.next_attempt_at AS "nextAttemptAt", d.created_at AS "createdAt",
              coalesce((SELECT json_agg(json_build_object(
                         'startedAt', a.started_at, 'durationMs', a.duration_ms,
                         'statusCode', a.status_code, 'error', a.error) ORDER BY a.started_at, a.id)
                          FROM delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS "attemptLog"
         FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
         JOIN events e ON e.id = d.event_id
        WHERE d.endpoint_id = $1 AND w.enterprise_id = $2
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT $3`, [endpointId, enterpriseId, limit]);
    }
    /**
     * Makes a delivery of this endpoint due now again (and takeable by the next sweep); false when
     * there is no such delivery. A worker's live lease is kept: a delivery being sent is not sent
     * twice at once, and its attempt's outcome decides what happens next.
     */
    async redeliver(enterpriseId, endpointId, deliveryId) {
        const rows = await this.db.rows(`WITH due AS (
         UPDATE webhook_deliveries d
            SET status = 'pending', next_attempt_at = now(), queued_at = NULL
           FROM webhook_endpoints w
          WHERE d.id = $1 AND d.endpoint_id = $2 AND w.id = d.endpoint_id AND w.enterprise_id = $3
        RETURNING d.id)
       SELECT id, pg_notify('${events_1.DELIVERIES_CHANNEL}', '') FROM due`, [deliveryId, endpointId, enterpriseId]);
        return rows.length > 0;
    }
    /**
     * Replay (docs/webhooks.md): a new pending delivery to this endpoint of every event of its group and
     * enterprise created in [since, until) whose type the endpoint enables, in one statement (so
     * in one transaction), then NOTIFY at commit as the outbox write does. Nothing is written when
     * the window holds more than `max` such events; the answer says how many it holds (up to
     * `max + 1`) and how many deliveries were made. Null when the endpoint is not this
     * enterprise's and group's, or is disabled.
     */
    async replay(enterpriseId, groupId, endpointId, window, max) {
        const [row] = await this.db.rows(`WITH endpoint AS (
         SELECT id, enabled_events FROM webhook_endpoints
          WHERE id = $3 AND enterprise_id = $1 AND group_id = $2 AND status = 'enabled'),
       candidates AS (
         SELECT e.id, e.created_at FROM events e, endpoint w
          WHERE e.enterprise_id = $1 AND e.group_id = $2 AND e.type = ANY (w.enabled_events)
            AND e.created_at >= $4 AND e.created_at < $5
          ORDER BY e.created_at, e.id
          LIMIT $6 + 1),
       counted AS (SELECT count(*)::int AS n FROM candidates),
       inserted AS (
         INSERT INTO webhook_deliveries (event_id, endpoint_id, replay)
         SELECT c.id, $3, true FROM candidates c, counted WHERE counted.n <= $6
          ORDER BY c.created_at, c.id
         RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM endpoint) AS found,
              (SELECT n FROM counted) AS "inWindow",
              (SELECT count(*)::int FROM inserted) AS replayed,
              CASE WHEN (SELECT count(*) FROM inserted) > 0
                   THEN pg_notify('${events_1.DELIVERIES_CHANNEL}', '') END AS notified`, [enterpriseId, groupId, endpointId, window.since, window.until, max]);
        return row.found ? { inWindow: row.inWindow, replayed: row.replayed } : null;
    }
};
exports.WebhooksRepository = WebhooksRepository;
exports.WebhooksRepository = WebhooksRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], WebhooksRepository);
//# sourceMappingURL=webhooks.repository.js.map
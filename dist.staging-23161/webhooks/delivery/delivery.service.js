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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
var DeliveryService_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.DeliveryService = void 0;
const common_1 = require("@nestjs/common");
const lru_cache_1 = require("lru-cache");
const pii_cipher_1 = require("../../common/crypto/pii-cipher");
const sealed_reads_1 = require("../../common/crypto/sealed-reads");
const config_module_1 = require("../../config/config.module");
const delivery_errors_1 = require("../delivery-errors");
const events_1 = require("../events/events");
const safe_http_1 = require("../safe-http");
const webhook_queue_1 = require("../webhook-queue");
const webhook_signer_1 = require("../webhook-signer");
const delivery_lease_repository_1 = require("./delivery-lease.repository");
const delivery_measurements_1 = require("./delivery-measurements");
const retry_schedule_1 = require("./retry-schedule");
const EXCERPT_CHARS = 2_000;
/** Endpoints whose opened signing secret a worker keeps (see openSecret). */
const OPENED_SECRETS = 1_000;
/**
 * Delivery attempts (docs/webhooks.md): build the event envelope, sign it afresh, POST it through
 * the SSRF guard on the endpoint's keep-alive connections, and decide: delivered (2xx), endpoint
 * disabled (410), retry later (anything else), or failed (schedule exhausted). Leasing and
 * recording happen in batches (DeliveryPump, finishBatch).
 */
let DeliveryService = DeliveryService_1 = class DeliveryService {
    deliveries;
    cipher;
    config;
    measurements;
    logger = new common_1.Logger(DeliveryService_1.name);
    pools;
    /** Opened signing secrets, by their ciphertext (openSecret). */
    openedSecrets = new lru_cache_1.LRUCache({ max: OPENED_SECRETS });
    constructor(deliveries, cipher, config, measurements) {
        this.deliveries = deliveries;
        this.cipher = cipher;
        this.config = config;
        this.measurements = measurements;
        this.pools = new safe_http_1.EndpointPools({
            connectionsPerOrigin: webhook_queue_1.DELIVERY_CONCURRENCY,
            timeoutMs: config.webhooks.timeoutMs,
            allowPrivate: config.webhooks.allowPrivateUrls,
        });
    }
    /**
     * The envelope, the same for every event type. An event's personal data is cleared once all
     * its deliveries are final (retention, docs/data-at-rest.md): an event redelivered after that carries
     * those fields as `null` (`"email": null` for `user.created`, `"userIdentifier": null` for
     * `user.deleted`), so the receiver sees the field and knows it is gone. Personal data the keys
     * cannot open is sent the same way (docs/data-at-rest.md, "Data the keys cannot open").
     */
    envelope(delivery) {
        const opened = delivery.eventPii
            ? (0, sealed_reads_1.openSealed)(this.cipher, 'events.encrypted_pii', delivery.eventPii)
            : null;
        const pii = opened
            ? JSON.parse(opened)
            : Object.fromEntries((events_1.EVENT_PII_FIELDS[delivery.eventType] ?? []).map((field) => [field, null]));
        return JSON.stringify({
            id: delivery.eventId,
            object: 'event',
            type: delivery.eventType,
            created: delivery.eventCreatedAt.toISOString(),
            data: { object: { ...delivery.eventPayload, ...pii } },
        });
    }
    /**
     * The secrets to sign with. One the keys cannot open is left out; when that is the current one
     * the attempt fails as `internal error` (nothing is sent) and is retried on the schedule
     * (docs/data-at-rest.md, "Data the keys cannot open": rotate the endpoint's secret).
     */
    secrets(delivery) {
        const secrets = [this.openSecret(delivery.secretCiphertext)];
        if (delivery.previousSecretCiphertext &&
            delivery.previousSecretExpiresAt &&
            delivery.previousSecretExpiresAt.getTime() > Date.now()) {
            const previous = (0, sealed_reads_1.openSealed)(this.cipher, 'webhook_endpoints.previous_secret_ciphertext', delivery.previousSecretCiphertext);
            if (previous !== null)
                secrets.push(previous);
        }
        return secrets;
    }
    /**
     * An endpoint's current signing secret, opened once per worker rather than once per delivery
     * (docs/performance.md, "Fifth pass"). Keyed by the ciphertext, so a rotated secret or one
     * re-encrypted under a new data key is opened afresh; a secret that cannot be opened throws
     * here every time, as before. Keeping opened secrets in memory exposes nothing the worker's
     * data key, also in its memory, does not already open.
     */
    openSecret(ciphertext) {
        let secret = this.openedSecrets.get(ciphertext);
        if (secret === undefined) {
            secret = this.cipher.decrypt(ciphertext);
            this.openedSecrets.set(ciphertext, secret);
        }
        return secret;
    }
    /**
     * Sends one leased delivery and answers how it ended; nothing is written here (the pump writes
     * outcomes in batches, finishBatch). Never throws.
     */
    async send(delivery) {
        const deliveryId = delivery.id;
        if (delivery.endpointStatus !== 'enabled') {
            return {
                delivery,
                result: 'cancelled',
                outcome: {
                    deliveryId,
                    status: 'cancelled',
                    statusCode: null,
                    error: 'endpoint disabled',
                    countsAsAttempt: false,
                },
            };
        }
        const startedAt = new Date();
        let statusCode = null;
        let error = null;
        /** Why it failed, in detail, for the log only (docs/webhooks.md). */
        let reason;
        let responseExcerpt = null;
        let retryAfterMs = null;
        try {
            const body = this.envelope(delivery);
            const response = await (0, safe_http_1.postJson)(delivery.url, body, (0, webhook_signer_1.signatureHeaders)(delivery.eventId, body, this.secrets(delivery), startedAt), {
                timeoutMs: this.config.webhooks.timeoutMs,
                allowPrivate: this.config.webhooks.allowPrivateUrls,
                pool: this.pools.for(delivery.url),
            });
            statusCode = response.statusCode;
            responseExcerpt = response.body.slice(0, EXCERPT_CHARS);
            retryAfterMs = (0, retry_schedule_1.parseRetryAfter)(response.headers['retry-after'], Date.now());
            reason = `HTTP ${statusCode}`;
        }
        catch (caught) {
            // Stored and shown: a fixed text (docs/webhooks.md). Logged: the detail, for operators.
            error = (0, delivery_errors_1.deliveryErrorFor)(caught, {
                privateAddressesRefused: !this.config.webhooks.allowPrivateUrls,
            });
            reason = `${error} (${(0, delivery_errors_1.deliveryErrorDetail)(caught)})`;
        }
        const attempt = {
            startedAt,
            durationMs: Date.now() - startedAt.getTime(),
            statusCode,
            error,
            responseExcerpt,
        };
        const base = { deliveryId, statusCode, countsAsAttempt: true, attempt };
        if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
            this.measurements.attempted('delivered', delivery.createdAt);
            return {
                delivery,
                result: 'delivered',
                outcome: { ...base, status: 'delivered', error: null },
            };
        }
        if (statusCode === 410) {
            this.failed(delivery, reason, 'gone', null);
            return {
                delivery,
                result: 'gone',
                outcome: { ...base, status: 'failed', error: 'endpoint answered 410 Gone' },
            };
        }
        const delay = (0, retry_schedule_1.nextRetryDelay)(this.config.webhooks.retryScheduleMs, delivery.attempts + 1, retryAfterMs);
        const nextAttemptAt = delay === null ? null : new Date(Date.now() + delay);
        this.failed(delivery, reason, nextAttemptAt ? 'retry' : 'failed', nextAttemptAt);
        return {
            delivery,
            result: 'failed',
            outcome: {
                ...base,
                status: nextAttemptAt ? 'pending' : 'failed',
                error: error ?? `endpoint answered ${statusCode}`,
                nextAttemptAt: nextAttemptAt ?? undefined,
            },
        };
    }
    /**
     * A failed attempt: counted, and one warn line with the reason in detail (the deliveries API
     * shows only a fixed text), what happens next and when. It names the delivery, the endpoint and
     * the URL's host — never its path or query, which may carry the receiver's own token.
     */
    failed(delivery, reason, outcome, nextAttemptAt) {
        this.measurements.attempted(outcome, delivery.createdAt);
        let host = '?';
        try {
            host = new URL(delivery.url).host;
        }
        catch {
            // An unparseable URL: its text stays out of the log.
        }
        const next = outcome === 'retry'
            ? `next attempt at ${nextAttemptAt?.toISOString()}`
            : outcome === 'gone'
                ? 'the endpoint is disabled'
                : 'no retry left: the delivery has failed';
        this.logger.warn({
            deliveryId: delivery.id,
            endpointId: delivery.endpointId,
            attempt: delivery.attempts + 1,
            outcome,
            nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
        }, `Webhook delivery ${delivery.id} to endpoint ${delivery.endpointId} (host ${host}), ` +
            `attempt ${delivery.attempts + 1}, failed: ${reason}; ${next}`);
    }
    /**
     * Records a batch of sent deliveries: every outcome and attempt in one statement, then the
     * endpoints' failure streaks (one statement each way). An endpoint that answered 410, or whose
     * streak has lasted WEBHOOK_DISABLE_AFTER_HOURS, is disabled (its pending deliveries cancelled).
     */
    async finishBatch(sent, leaseMs) {
        if (sent.length === 0)
            return;
        await this.deliveries.finishMany(sent.map((entry) => entry.outcome), leaseMs);
        const endpoints = (result, only) => [
            ...new Set(sent
                .filter((entry) => entry.result === result && (only?.(entry) ?? true))
                .map((entry) => entry.delivery.endpointId)),
        ];
        // Only an endpoint on a failure streak has one to end.
        await this.deliveries.endpointsSucceeded(endpoints('delivered', (entry) => entry.delivery.failingSince !== null));
        const expired = await this.deliveries.endpointsFailed(endpoints('failed'), this.config.webhooks.disableAfterMs);
        for (const endpointId of endpoints('gone')) {
            await this.deliveries.disableEndpoint(endpointId);
            this.logger.warn(`Webhook endpoint ${endpointId} answered 410 and was disabled`);
        }
        for (const endpointId of expired) {
            await this.deliveries.disableEndpoint(endpointId);
            this.logger.warn(`Webhook endpoint ${endpointId} failed continuously and was disabled`);
        }
    }
    /**
     * The keep-alive connections close last: Nest runs every module's onModuleDestroy before the
     * beforeApplicationShutdown in which the pump lets its sends finish (DeliveryProcessor), so
     * closing them there cut the sends in flight at a SIGTERM: each became a failed attempt
     * ("connection reset") and was sent again later, though the receiver had it.
     */
    async onApplicationShutdown() {
        await this.pools.destroy();
    }
};
exports.DeliveryService = DeliveryService;
exports.DeliveryService = DeliveryService = DeliveryService_1 = __decorate([
    (0, common_1.Injectable)(),
    __param(2, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [delivery_lease_repository_1.DeliveryLeaseRepository,
        pii_cipher_1.PiiCipher, Object, delivery_measurements_1.DeliveryMeasurements])
], DeliveryService);
//# sourceMappingURL=delivery.service.js.map
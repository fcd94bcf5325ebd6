import { Inject, Injectable, Logger } from '@nestjs/common';
import { PiiCipher } from '../../common/crypto/pii-cipher';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { EVENT_PII_FIELDS, type EventType } from '../../events/events';
import { postJson } from '../safe-http';
import { signatureHeaders } from '../webhook-signer';
import { ClaimedDelivery, DeliveryLeaseRepository } from './delivery-lease.repository';
import { nextRetryDelay, parseRetryAfter } from './retry-schedule';

const EXCERPT_CHARS = 2_000;

/**
 * One delivery attempt (DESIGN §9): lease the row, build the event envelope, sign it afresh,
 * POST it through the SSRF guard, log the attempt, and decide: delivered (2xx), endpoint disabled
 * (410), retry later (anything else), or failed (schedule exhausted).
 */
@Injectable()
export class DeliveryService {
  private readonly logger = new Logger(DeliveryService.name);
  private readonly leaseMs: number;

  constructor(
    private readonly deliveries: DeliveryLeaseRepository,
    private readonly cipher: PiiCipher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.leaseMs = config.webhooks.timeoutMs + 10_000;
  }

  /**
   * The envelope, the same for every event type. An event's personal data is cleared once all
   * its deliveries are final (retention, DESIGN §14): an event redelivered after that carries
   * those fields as `null` (`"email": null` for `user.created`, `"userIdentifier": null` for
   * `user.deleted`), so the receiver sees the field and knows it is gone.
   */
  envelope(delivery: ClaimedDelivery): string {
    const pii = delivery.eventPii
      ? (JSON.parse(this.cipher.decrypt(delivery.eventPii)) as object)
      : Object.fromEntries(
          (EVENT_PII_FIELDS[delivery.eventType as EventType] ?? []).map((field) => [field, null]),
        );
    return JSON.stringify({
      id: delivery.eventId,
      object: 'event',
      type: delivery.eventType,
      created: delivery.eventCreatedAt.toISOString(),
      data: { object: { ...delivery.eventPayload, ...pii } },
    });
  }

  private secrets(delivery: ClaimedDelivery): string[] {
    const secrets = [this.cipher.decrypt(delivery.secretCiphertext)];
    if (
      delivery.previousSecretCiphertext &&
      delivery.previousSecretExpiresAt &&
      delivery.previousSecretExpiresAt.getTime() > Date.now()
    ) {
      secrets.push(this.cipher.decrypt(delivery.previousSecretCiphertext));
    }
    return secrets;
  }

  async attempt(deliveryId: string): Promise<void> {
    const delivery = await this.deliveries.claim(deliveryId, this.leaseMs);
    if (!delivery) return; // not due, done, or another worker has it
    await this.send(delivery);
  }

  /**
   * After its own job, a worker slot keeps sending whatever else is due (oldest first, leased
   * like any attempt) for up to `max` deliveries, skipping Bull's per-job bookkeeping (measured:
   * 0.22 → 0.27 of the raw POST loop, bench/README.md). The jobs those deliveries had in the queue
   * then find nothing to do.
   */
  async drain(max: number, shouldStop: () => boolean): Promise<number> {
    let sent = 0;
    while (sent < max && !shouldStop()) {
      const delivery = await this.deliveries.claimNextDue(this.leaseMs);
      if (!delivery) break;
      await this.send(delivery);
      sent += 1;
    }
    return sent;
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    const deliveryId = delivery.id;
    if (delivery.endpointStatus !== 'enabled') {
      await this.deliveries.finish(deliveryId, {
        status: 'cancelled',
        statusCode: null,
        error: 'endpoint disabled',
        countsAsAttempt: false,
      });
      return;
    }
    const body = this.envelope(delivery);
    const startedAt = new Date();
    let statusCode: number | null = null;
    let error: string | null = null;
    let responseExcerpt: string | null = null;
    let retryAfterMs: number | null = null;
    try {
      const response = await postJson(
        delivery.url,
        body,
        signatureHeaders(delivery.eventId, body, this.secrets(delivery), startedAt),
        {
          timeoutMs: this.config.webhooks.timeoutMs,
          allowPrivate: this.config.webhooks.allowPrivateUrls,
        },
      );
      statusCode = response.statusCode;
      responseExcerpt = response.body.slice(0, EXCERPT_CHARS);
      retryAfterMs = parseRetryAfter(response.headers['retry-after'], Date.now());
    } catch (caught) {
      error = (caught as Error).message.slice(0, 500);
    }
    const attempt = {
      startedAt,
      durationMs: Date.now() - startedAt.getTime(),
      statusCode,
      error,
      responseExcerpt,
    };

    const attemptsMade = delivery.attempts + 1;
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      await this.deliveries.finish(
        deliveryId,
        { status: 'delivered', statusCode, error: null, countsAsAttempt: true },
        attempt,
      );
      // Only an endpoint on a failure streak has one to end.
      if (delivery.failingSince) await this.deliveries.endpointSucceeded(delivery.endpointId);
      return;
    }
    if (statusCode === 410) {
      await this.deliveries.finish(
        deliveryId,
        {
          status: 'failed',
          statusCode,
          error: 'endpoint answered 410 Gone',
          countsAsAttempt: true,
        },
        attempt,
      );
      await this.deliveries.disableEndpoint(delivery.endpointId);
      this.logger.warn(`Webhook endpoint ${delivery.endpointId} answered 410 and was disabled`);
      return;
    }
    const delay = nextRetryDelay(this.config.webhooks.retryScheduleMs, attemptsMade, retryAfterMs);
    await this.deliveries.finish(
      deliveryId,
      {
        status: delay === null ? 'failed' : 'pending',
        statusCode,
        error: error ?? `endpoint answered ${statusCode}`,
        nextAttemptAt: delay === null ? undefined : new Date(Date.now() + delay),
        countsAsAttempt: true,
      },
      attempt,
    );
    if (
      await this.deliveries.endpointFailed(delivery.endpointId, this.config.webhooks.disableAfterMs)
    ) {
      await this.deliveries.disableEndpoint(delivery.endpointId);
      this.logger.warn(
        `Webhook endpoint ${delivery.endpointId} failed continuously and was disabled`,
      );
    }
  }
}

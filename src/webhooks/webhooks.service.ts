import { Inject, Injectable } from '@nestjs/common';
import { PiiCipher } from '../common/crypto/pii-cipher';
import { ApiError } from '../common/errors/api-error';
import { newWebhookId, WEBHOOK_ID_PATTERN } from '../common/ids';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Database } from '../database/database';
import { DEFAULT_EVENTS } from './events/events';
import { EventsRepository } from './events/events.repository';
import { GroupErrors } from '../groups/groups.errors';
import { GroupAccess } from '../groups/group-access';
import {
  canonicalEvents,
  DeliveryDto,
  ReplayResultDto,
  ReplayWebhookDto,
  UpdateWebhookDto,
  WebhookDto,
  WebhookWithSecretDto,
} from './dto/webhook.dto';
import { isAllowedWebhookUrl } from './webhook-url';
import { newWebhookSecret } from './webhook-signer';
import { REPLAY_MAX_EVENTS, WebhookErrors } from './webhooks.errors';
import { EndpointRecord, WebhooksRepository } from './webhooks.repository';

/** The old secret keeps signing (and verifying) this long after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const DELIVERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DELIVERIES_LISTED = 100;

const toDto = (endpoint: EndpointRecord): WebhookDto => ({
  id: endpoint.id,
  description: endpoint.description,
  object: 'webhook_endpoint',
  status: endpoint.status,
  url: endpoint.url,
  enabledEvents: endpoint.enabledEvents,
});

/** Webhook endpoints per group (docs/webhooks.md); every call is scoped by the calling enterprise. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly db: Database,
    private readonly endpoints: WebhooksRepository,
    private readonly groups: GroupAccess,
    private readonly events: EventsRepository,
    private readonly cipher: PiiCipher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(enterpriseId: string, groupId: number): Promise<WebhookDto[]> {
    await this.requireGroup(enterpriseId, groupId);
    return (await this.endpoints.listForGroup(enterpriseId, groupId)).map(toDto);
  }

  async create(
    enterpriseId: string,
    groupId: number,
    request: { url: string; description: string; enabledEvents?: string[] },
  ): Promise<WebhookWithSecretDto> {
    this.assertUrlAllowed(request.url);
    await this.requireGroup(enterpriseId, groupId);
    const secret = newWebhookSecret();
    const endpoint = await this.endpoints.insert({
      id: newWebhookId(),
      enterpriseId,
      groupId,
      url: request.url,
      description: request.description,
      enabledEvents: canonicalEvents(request.enabledEvents ?? DEFAULT_EVENTS),
      secretCiphertext: this.cipher.encrypt(secret),
    });
    return { ...toDto(endpoint), secret };
  }

  async update(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
    changes: UpdateWebhookDto,
  ): Promise<WebhookDto> {
    if (changes.url !== undefined) this.assertUrlAllowed(changes.url);
    await this.requireGroup(enterpriseId, groupId);
    const endpoint = WEBHOOK_ID_PATTERN.test(webhookId)
      ? await this.endpoints.update(enterpriseId, groupId, webhookId, {
          url: changes.url ?? null,
          description: changes.description ?? null,
          status: changes.status ?? null,
          enabledEvents: changes.enabledEvents ? canonicalEvents(changes.enabledEvents) : null,
        })
      : null;
    if (!endpoint) throw ApiError.badRequest(WebhookErrors.NotFound);
    return toDto(endpoint);
  }

  async remove(enterpriseId: string, groupId: number, webhookId: string): Promise<void> {
    await this.requireGroup(enterpriseId, groupId);
    const deleted =
      WEBHOOK_ID_PATTERN.test(webhookId) &&
      (await this.endpoints.delete(enterpriseId, groupId, webhookId));
    if (!deleted) throw ApiError.badRequest(WebhookErrors.NotFound);
  }

  async rotateSecret(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
  ): Promise<WebhookWithSecretDto> {
    await this.requireGroup(enterpriseId, groupId);
    const secret = newWebhookSecret();
    const endpoint = WEBHOOK_ID_PATTERN.test(webhookId)
      ? await this.endpoints.rotateSecret(
          enterpriseId,
          groupId,
          webhookId,
          this.cipher.encrypt(secret),
          new Date(Date.now() + ROTATION_OVERLAP_MS),
        )
      : null;
    if (!endpoint) throw ApiError.badRequest(WebhookErrors.NotFound);
    return { ...toDto(endpoint), secret };
  }

  /** Sends a `webhook.test` event to this endpoint only; answers the event id. */
  async sendTest(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
  ): Promise<{ eventId: string }> {
    const endpoint = await this.requireEndpoint(enterpriseId, groupId, webhookId);
    const eventId = await this.db.transaction((sql) =>
      this.events.insertTest(enterpriseId, groupId, endpoint.id, sql),
    );
    return { eventId };
  }

  async listDeliveries(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
  ): Promise<DeliveryDto[]> {
    const endpoint = await this.requireEndpoint(enterpriseId, groupId, webhookId);
    const deliveries = await this.endpoints.listDeliveries(
      enterpriseId,
      endpoint.id,
      DELIVERIES_LISTED,
    );
    return deliveries.map((delivery) => ({
      id: delivery.id,
      eventId: delivery.eventId,
      eventType: delivery.eventType,
      status: delivery.status,
      attempts: delivery.attempts,
      nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
      createdAt: delivery.createdAt.toISOString(),
      attemptLog: delivery.attemptLog.map((attempt) => ({
        ...attempt,
        startedAt: new Date(attempt.startedAt).toISOString(),
      })),
    }));
  }

  async redeliver(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
    deliveryId: string,
  ): Promise<void> {
    const endpoint = await this.requireEndpoint(enterpriseId, groupId, webhookId);
    const found =
      DELIVERY_ID.test(deliveryId) &&
      (await this.endpoints.redeliver(enterpriseId, endpoint.id, deliveryId));
    if (!found) throw ApiError.badRequest(WebhookErrors.DeliveryNotFound);
  }

  /**
   * Replays the window [since, until) of the group's events to this endpoint as new deliveries
   * (docs/webhooks.md): only the types it enables, at most REPLAY_MAX_EVENTS, all or nothing. A disabled
   * endpoint is refused (409) rather than given deliveries that would be cancelled at once.
   */
  async replay(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
    request: ReplayWebhookDto,
  ): Promise<ReplayResultDto> {
    const now = new Date();
    const since = new Date(request.since);
    const until = request.until === undefined ? now : new Date(request.until);
    if (since.getTime() > now.getTime()) throw ApiError.badRequest(WebhookErrors.SinceInFuture);
    if (until.getTime() <= since.getTime()) {
      throw ApiError.badRequest(WebhookErrors.UntilNotAfterSince);
    }
    const endpoint = await this.requireEndpoint(enterpriseId, groupId, webhookId);
    if (endpoint.status !== 'enabled') {
      throw new ApiError(409, WebhookErrors.ReplayDisabledEndpoint);
    }
    const outcome = await this.endpoints.replay(
      enterpriseId,
      groupId,
      endpoint.id,
      { since, until },
      REPLAY_MAX_EVENTS,
    );
    // Disabled (or deleted) between the two statements.
    if (!outcome) throw new ApiError(409, WebhookErrors.ReplayDisabledEndpoint);
    if (outcome.inWindow > REPLAY_MAX_EVENTS) {
      throw ApiError.badRequest(WebhookErrors.ReplayTooLarge);
    }
    return { replayed: outcome.replayed };
  }

  private assertUrlAllowed(url: string): void {
    if (!isAllowedWebhookUrl(url, this.config.webhooks.allowPrivateUrls)) {
      throw ApiError.badRequest(WebhookErrors.InvalidUrl);
    }
  }

  private async requireGroup(enterpriseId: string, groupId: number): Promise<void> {
    if (!(await this.groups.existsForEnterprise(enterpriseId, groupId))) {
      throw ApiError.badRequest(GroupErrors.NotFound);
    }
  }

  private async requireEndpoint(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
  ): Promise<EndpointRecord> {
    await this.requireGroup(enterpriseId, groupId);
    const endpoint = WEBHOOK_ID_PATTERN.test(webhookId)
      ? await this.endpoints.find(enterpriseId, groupId, webhookId)
      : null;
    if (!endpoint) throw ApiError.badRequest(WebhookErrors.NotFound);
    return endpoint;
  }
}

import { IdempotencyKeyEntity } from '../common/idempotency/idempotency-key.entity';
import { ApiKeyEntity } from '../enterprises/api-key.entity';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';
import { EventEntity } from '../events/event.entity';
import { GroupEntity } from '../groups/group.entity';
import { EmailMessageEntity } from '../interact/email-message.entity';
import { MembershipEntity } from '../participants/membership.entity';
import { ParticipantEntity } from '../participants/participant.entity';
import {
  GroupFeatureHistogramEntity,
  GroupWordCountEntity,
  SessionFeatureEntity,
  SessionWordCountEntity,
} from '../sessions/result-inputs.entities';
import { SessionEntity } from '../sessions/session.entity';
import {
  DeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookEndpointEntity,
} from '../webhooks/webhook.entities';

/** Every entity, for TypeORM (the schema itself is owned by migrations/). */
export const ENTITIES = [
  EnterpriseEntity,
  ApiKeyEntity,
  GroupEntity,
  ParticipantEntity,
  MembershipEntity,
  SessionEntity,
  SessionFeatureEntity,
  SessionWordCountEntity,
  GroupWordCountEntity,
  GroupFeatureHistogramEntity,
  EventEntity,
  IdempotencyKeyEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  DeliveryAttemptEntity,
  EmailMessageEntity,
];

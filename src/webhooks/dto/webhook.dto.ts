import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  isString,
  maxLength,
  oneOf,
  required,
  Rules,
  satisfies,
} from '../../common/validation/rules';
import { WebhookErrors } from '../webhooks.errors';

export const WEBHOOK_EVENTS = ['user.created', 'user.session.result'] as const;
const DESCRIPTION_MAX = 500;
const URL_MAX = 2048;

/** Syntax only here; the service applies the SSRF rules (they depend on configuration). */
const looksLikeHttpUrl = (value: string): boolean => {
  if (value.length > URL_MAX) return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The Webhook resource, fields in the spec's order. */
export class WebhookDto {
  @ApiProperty({ example: 'we_4fJ9kQ2mZ8xW1vB7nR3tY6uP' })
  id!: string;

  @ApiProperty({ example: 'Production receiver' })
  description!: string;

  @ApiProperty({ example: 'webhook_endpoint', enum: ['webhook_endpoint'] })
  object!: 'webhook_endpoint';

  @ApiProperty({ example: 'enabled', enum: ['enabled', 'disabled'] })
  status!: 'enabled' | 'disabled';

  @ApiProperty({ example: 'https://hooks.example.com/checkin' })
  url!: string;

  @ApiProperty({ example: [...WEBHOOK_EVENTS], type: [String], enum: WEBHOOK_EVENTS })
  enabledEvents!: string[];
}

export class WebhookWithSecretDto extends WebhookDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Signing secret (Standard Webhooks). Shown on creation and rotation only.',
  })
  secret!: string;
}

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://hooks.example.com/checkin' })
  @Rules(
    required(WebhookErrors.UrlMissing),
    isString(WebhookErrors.UrlNotString),
    satisfies(looksLikeHttpUrl, WebhookErrors.InvalidUrl),
  )
  url!: string;

  @ApiProperty({ example: 'Production receiver', maxLength: DESCRIPTION_MAX })
  @Rules(
    required(WebhookErrors.DescriptionMissing),
    isString(WebhookErrors.DescriptionNotString),
    maxLength(DESCRIPTION_MAX, WebhookErrors.DescriptionTooLong),
  )
  description!: string;
}

/** Every field optional; the ones sent change. */
export class UpdateWebhookDto {
  @ApiPropertyOptional({ example: 'https://hooks.example.com/v2' })
  @Rules(
    isString(WebhookErrors.UrlNotString),
    satisfies(looksLikeHttpUrl, WebhookErrors.InvalidUrl),
  )
  url?: string;

  @ApiPropertyOptional({ example: 'New receiver', maxLength: DESCRIPTION_MAX })
  @Rules(
    isString(WebhookErrors.DescriptionNotString),
    maxLength(DESCRIPTION_MAX, WebhookErrors.DescriptionTooLong),
  )
  description?: string;

  @ApiPropertyOptional({
    enum: ['enabled', 'disabled'],
    description:
      'Re-enable an endpoint that was disabled (by you, by a 410, or after 5 days of failures).',
  })
  @Rules(oneOf(['enabled', 'disabled'], WebhookErrors.StatusInvalid))
  status?: 'enabled' | 'disabled';
}

export class DeliveryAttemptDto {
  @ApiProperty({ example: '2026-11-22T09:42:10.120Z' })
  startedAt!: string;

  @ApiProperty({ example: 84 })
  durationMs!: number;

  @ApiProperty({ example: 200, nullable: true, type: Number })
  statusCode!: number | null;

  @ApiProperty({ example: null, nullable: true, type: String })
  error!: string | null;
}

export class DeliveryDto {
  @ApiProperty({ example: '0b6c1d1e-5f0a-4a63-a6a5-0f2c1b1f2e3d' })
  id!: string;

  @ApiProperty({ example: 'evt_…' })
  eventId!: string;

  @ApiProperty({ example: 'user.created' })
  eventType!: string;

  @ApiProperty({ example: 'delivered', enum: ['pending', 'delivered', 'failed', 'cancelled'] })
  status!: string;

  @ApiProperty({ example: 1 })
  attempts!: number;

  @ApiProperty({ example: null, nullable: true, type: String })
  nextAttemptAt!: string | null;

  @ApiProperty({ example: '2026-11-22T09:42:10.000Z' })
  createdAt!: string;

  @ApiProperty({ type: [DeliveryAttemptDto] })
  attemptLog!: DeliveryAttemptDto[];
}

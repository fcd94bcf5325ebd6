import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { EXAMPLE_IDS } from '../../common/swagger/examples';
import {
  FreeText,
  hasControlCharacter,
  holds,
  isString,
  maxLength,
  oneOf,
  required,
  Rules,
  satisfies,
} from '../../common/validation/rules';
import {
  DEFAULT_EVENTS,
  EventTypes,
  SUBSCRIBABLE_EVENTS,
  SubscribableEvent,
} from '../events/events';
import { DELIVERY_ERRORS, type DeliveryError } from '../delivery-errors';
import { WebhookErrors } from '../webhooks.errors';

/** `a`, `b`, `c`: event types as code, for the OpenAPI descriptions. */
export const codeList = (types: readonly string[]): string =>
  types.map((type) => `\`${type}\``).join(', ');

/** `a`, `b` and `c`: the same in a sentence. */
export const codeProse = (types: readonly string[]): string =>
  types.length < 2
    ? codeList(types)
    : `${codeList(types.slice(0, -1))} and ${codeList(types.slice(-1))}`;

const isEventList = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((type) => (SUBSCRIBABLE_EVENTS as readonly unknown[]).includes(type));

/** Duplicates collapsed, in the canonical order: what is stored and answered. */
export const canonicalEvents = (types: readonly string[]): SubscribableEvent[] =>
  SUBSCRIBABLE_EVENTS.filter((type) => types.includes(type));

const ENABLED_EVENTS_DOC: ApiPropertyOptions = {
  type: [String],
  enum: [...SUBSCRIBABLE_EVENTS],
  minItems: 1,
  description:
    `The event types this endpoint receives: a non-empty list of ${codeList(SUBSCRIBABLE_EVENTS)} ` +
    '(duplicates collapse; stored in that order).',
};
const DESCRIPTION_MAX = 500;
const URL_MAX = 2048;

/**
 * Syntax only here; the service applies the SSRF rules (they depend on configuration). The URL
 * parser would drop or percent-encode control characters: refuse them instead.
 */
const looksLikeHttpUrl = (value: string): boolean => {
  if (value.length > URL_MAX || hasControlCharacter(value)) return false;
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

  @ApiProperty({
    example: [...DEFAULT_EVENTS],
    type: [String],
    enum: SUBSCRIBABLE_EVENTS,
    description: 'The event types the endpoint receives, in canonical order.',
  })
  enabledEvents!: string[];
}

export class WebhookWithSecretDto extends WebhookDto {
  @ApiProperty({
    example: 'whsec_W7Nn4t/Egfc7UgL+V4EXWyL5B2eTz8XBD96MlB9qxis=',
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
  @FreeText()
  @Rules(
    required(WebhookErrors.DescriptionMissing),
    isString(WebhookErrors.DescriptionNotString),
    maxLength(DESCRIPTION_MAX, WebhookErrors.DescriptionTooLong),
  )
  description!: string;

  /** Checked after the spec's fields; absent = the spec's two events. */
  @ApiPropertyOptional({
    ...ENABLED_EVENTS_DOC,
    example: [EventTypes.UserCreated, EventTypes.PrivacyUpdated, EventTypes.Deleted],
    default: [...DEFAULT_EVENTS],
  })
  @Rules(holds(isEventList, WebhookErrors.EnabledEventsInvalid))
  enabledEvents?: string[];
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
  @FreeText()
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

  /** Absent = unchanged. */
  @ApiPropertyOptional({ ...ENABLED_EVENTS_DOC, example: [EventTypes.PrivacyUpdated] })
  @Rules(holds(isEventList, WebhookErrors.EnabledEventsInvalid))
  enabledEvents?: string[];
}

/**
 * An ISO-8601 date (`2026-11-01`, read as UTC midnight) or date-time with a time zone (`Z` or
 * `±hh:mm`): a date-time without one would depend on the server's zone.
 */
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;
export const isIsoInstant = (value: string): boolean => {
  const parts = ISO_INSTANT.exec(value);
  if (!parts || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const [hour, minute, second] = [
    Number(parts[4] ?? 0),
    Number(parts[5] ?? 0),
    Number(parts[6] ?? 0),
  ];
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
};

export class ReplayWebhookDto {
  @ApiProperty({
    example: '2026-11-20T00:00:00Z',
    description:
      'Start of the window, included: an ISO-8601 date (UTC midnight) or date-time with a time ' +
      'zone; not in the future.',
  })
  @Rules(
    required(WebhookErrors.SinceMissing),
    isString(WebhookErrors.SinceNotString),
    satisfies(isIsoInstant, WebhookErrors.SinceInvalid),
  )
  since!: string;

  @ApiPropertyOptional({
    example: '2026-11-21T00:00:00Z',
    description: 'End of the window, excluded; later than `since`. Default: now.',
  })
  @Rules(
    isString(WebhookErrors.UntilNotString),
    satisfies(isIsoInstant, WebhookErrors.UntilInvalid),
  )
  until?: string;
}

export class ReplayResultDto {
  @ApiProperty({
    example: 42,
    description: 'How many new deliveries were created (one per event replayed).',
  })
  replayed!: number;
}

export class DeliveryAttemptDto {
  @ApiProperty({ example: '2026-11-22T09:42:10.120Z' })
  startedAt!: string;

  @ApiProperty({ example: 84 })
  durationMs!: number;

  @ApiProperty({ example: 200, nullable: true, type: Number })
  statusCode!: number | null;

  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    enum: [...DELIVERY_ERRORS, null],
    description:
      'Why the attempt got no HTTP answer (null when it got one: see `statusCode`). One of a ' +
      'fixed set of texts; it never names the address the URL resolved to.',
  })
  error!: DeliveryError | null;
}

export class DeliveryDto {
  @ApiProperty({ example: '0b6c1d1e-5f0a-4a63-a6a5-0f2c1b1f2e3d' })
  id!: string;

  @ApiProperty({ example: EXAMPLE_IDS.eventId })
  eventId!: string;

  @ApiProperty({ example: EventTypes.UserCreated })
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

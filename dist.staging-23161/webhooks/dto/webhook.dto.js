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
exports.DeliveryDto = exports.DeliveryAttemptDto = exports.ReplayResultDto = exports.ReplayWebhookDto = exports.isIsoInstant = exports.UpdateWebhookDto = exports.CreateWebhookDto = exports.WebhookWithSecretDto = exports.WebhookDto = exports.canonicalEvents = exports.codeProse = exports.codeList = void 0;
const swagger_1 = require("@nestjs/swagger");
const examples_1 = require("../../common/swagger/examples");
const rules_1 = require("../../common/validation/rules");
const events_1 = require("../events/events");
const delivery_errors_1 = require("../delivery-errors");
const webhooks_errors_1 = require("../webhooks.errors");
/** `a`, `b`, `c`: event types as code, for the OpenAPI descriptions. */
const codeList = (types) => types.map((type) => `\`${type}\``).join(', ');
exports.codeList = codeList;
/** `a`, `b` and `c`: the same in a sentence. */
const codeProse = (types) => types.length < 2
    ? (0, exports.codeList)(types)
    : `${(0, exports.codeList)(types.slice(0, -1))} and ${(0, exports.codeList)(types.slice(-1))}`;
exports.codeProse = codeProse;
const isEventList = (value) => Array.isArray(value) &&
    value.length > 0 &&
    value.every((type) => events_1.SUBSCRIBABLE_EVENTS.includes(type));
/** Duplicates collapsed, in the canonical order: what is stored and answered. */
const canonicalEvents = (types) => events_1.SUBSCRIBABLE_EVENTS.filter((type) => types.includes(type));
exports.canonicalEvents = canonicalEvents;
const ENABLED_EVENTS_DOC = {
    type: [String],
    enum: [...events_1.SUBSCRIBABLE_EVENTS],
    minItems: 1,
    description: `The event types this endpoint receives: a non-empty list of ${(0, exports.codeList)(events_1.SUBSCRIBABLE_EVENTS)} ` +
        '(duplicates collapse; stored in that order).',
};
const DESCRIPTION_MAX = 500;
const URL_MAX = 2048;
/**
 * Syntax only here; the service applies the SSRF rules (they depend on configuration). The URL
 * parser would drop or percent-encode control characters: refuse them instead.
 */
const looksLikeHttpUrl = (value) => {
    if (value.length > URL_MAX || (0, rules_1.hasControlCharacter)(value))
        return false;
    try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
    }
    catch {
        return false;
    }
};
/** The Webhook resource, fields in the spec's order. */
class WebhookDto {
    id;
    description;
    object;
    status;
    url;
    enabledEvents;
}
exports.WebhookDto = WebhookDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'we_4fJ9kQ2mZ8xW1vB7nR3tY6uP' }),
    __metadata("design:type", String)
], WebhookDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'Production receiver' }),
    __metadata("design:type", String)
], WebhookDto.prototype, "description", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'webhook_endpoint', enum: ['webhook_endpoint'] }),
    __metadata("design:type", String)
], WebhookDto.prototype, "object", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'enabled', enum: ['enabled', 'disabled'] }),
    __metadata("design:type", String)
], WebhookDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'https://hooks.example.com/checkin' }),
    __metadata("design:type", String)
], WebhookDto.prototype, "url", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: [...events_1.DEFAULT_EVENTS],
        type: [String],
        enum: events_1.SUBSCRIBABLE_EVENTS,
        description: 'The event types the endpoint receives, in canonical order.',
    }),
    __metadata("design:type", Array)
], WebhookDto.prototype, "enabledEvents", void 0);
class WebhookWithSecretDto extends WebhookDto {
    secret;
}
exports.WebhookWithSecretDto = WebhookWithSecretDto;
__decorate([
    (0, swagger_1.ApiProperty)({
        example: 'whsec_W7Nn4t/Egfc7UgL+V4EXWyL5B2eTz8XBD96MlB9qxis=',
        description: 'Signing secret (Standard Webhooks). Shown on creation and rotation only.',
    }),
    __metadata("design:type", String)
], WebhookWithSecretDto.prototype, "secret", void 0);
class CreateWebhookDto {
    url;
    description;
    /** Checked after the spec's fields; absent = the spec's two events. */
    enabledEvents;
}
exports.CreateWebhookDto = CreateWebhookDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'https://hooks.example.com/checkin' }),
    (0, rules_1.Rules)((0, rules_1.required)(webhooks_errors_1.WebhookErrors.UrlMissing), (0, rules_1.isString)(webhooks_errors_1.WebhookErrors.UrlNotString), (0, rules_1.satisfies)(looksLikeHttpUrl, webhooks_errors_1.WebhookErrors.InvalidUrl)),
    __metadata("design:type", String)
], CreateWebhookDto.prototype, "url", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'Production receiver', maxLength: DESCRIPTION_MAX }),
    (0, rules_1.FreeText)(),
    (0, rules_1.Rules)((0, rules_1.required)(webhooks_errors_1.WebhookErrors.DescriptionMissing), (0, rules_1.isString)(webhooks_errors_1.WebhookErrors.DescriptionNotString), (0, rules_1.maxLength)(DESCRIPTION_MAX, webhooks_errors_1.WebhookErrors.DescriptionTooLong)),
    __metadata("design:type", String)
], CreateWebhookDto.prototype, "description", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        ...ENABLED_EVENTS_DOC,
        example: [events_1.EventTypes.UserCreated, events_1.EventTypes.PrivacyUpdated, events_1.EventTypes.Deleted],
        default: [...events_1.DEFAULT_EVENTS],
    }),
    (0, rules_1.Rules)((0, rules_1.holds)(isEventList, webhooks_errors_1.WebhookErrors.EnabledEventsInvalid)),
    __metadata("design:type", Array)
], CreateWebhookDto.prototype, "enabledEvents", void 0);
/** Every field optional; the ones sent change. */
class UpdateWebhookDto {
    url;
    description;
    status;
    /** Absent = unchanged. */
    enabledEvents;
}
exports.UpdateWebhookDto = UpdateWebhookDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ example: 'https://hooks.example.com/v2' }),
    (0, rules_1.Rules)((0, rules_1.isString)(webhooks_errors_1.WebhookErrors.UrlNotString), (0, rules_1.satisfies)(looksLikeHttpUrl, webhooks_errors_1.WebhookErrors.InvalidUrl)),
    __metadata("design:type", String)
], UpdateWebhookDto.prototype, "url", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ example: 'New receiver', maxLength: DESCRIPTION_MAX }),
    (0, rules_1.FreeText)(),
    (0, rules_1.Rules)((0, rules_1.isString)(webhooks_errors_1.WebhookErrors.DescriptionNotString), (0, rules_1.maxLength)(DESCRIPTION_MAX, webhooks_errors_1.WebhookErrors.DescriptionTooLong)),
    __metadata("design:type", String)
], UpdateWebhookDto.prototype, "description", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        enum: ['enabled', 'disabled'],
        description: 'Re-enable an endpoint that was disabled (by you, by a 410, or after 5 days of failures).',
    }),
    (0, rules_1.Rules)((0, rules_1.oneOf)(['enabled', 'disabled'], webhooks_errors_1.WebhookErrors.StatusInvalid)),
    __metadata("design:type", String)
], UpdateWebhookDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ ...ENABLED_EVENTS_DOC, example: [events_1.EventTypes.PrivacyUpdated] }),
    (0, rules_1.Rules)((0, rules_1.holds)(isEventList, webhooks_errors_1.WebhookErrors.EnabledEventsInvalid)),
    __metadata("design:type", Array)
], UpdateWebhookDto.prototype, "enabledEvents", void 0);
/**
 * An ISO-8601 date (`2026-11-01`, read as UTC midnight) or date-time with a time zone (`Z` or
 * `±hh:mm`): a date-time without one would depend on the server's zone.
 */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;
const isIsoInstant = (value) => {
    const parts = ISO_INSTANT.exec(value);
    if (!parts || Number.isNaN(Date.parse(value)))
        return false;
    const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    const [hour, minute, second] = [
        Number(parts[4] ?? 0),
        Number(parts[5] ?? 0),
        Number(parts[6] ?? 0),
    ];
    return (date.getUTCFullYear() === year &&
        date.getUTCMonth() === month - 1 &&
        date.getUTCDate() === day &&
        hour < 24 &&
        minute < 60 &&
        second < 60);
};
exports.isIsoInstant = isIsoInstant;
class ReplayWebhookDto {
    since;
    until;
}
exports.ReplayWebhookDto = ReplayWebhookDto;
__decorate([
    (0, swagger_1.ApiProperty)({
        example: '2026-11-20T00:00:00Z',
        description: 'Start of the window, included: an ISO-8601 date (UTC midnight) or date-time with a time ' +
            'zone; not in the future.',
    }),
    (0, rules_1.Rules)((0, rules_1.required)(webhooks_errors_1.WebhookErrors.SinceMissing), (0, rules_1.isString)(webhooks_errors_1.WebhookErrors.SinceNotString), (0, rules_1.satisfies)(exports.isIsoInstant, webhooks_errors_1.WebhookErrors.SinceInvalid)),
    __metadata("design:type", String)
], ReplayWebhookDto.prototype, "since", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        example: '2026-11-21T00:00:00Z',
        description: 'End of the window, excluded; later than `since`. Default: now.',
    }),
    (0, rules_1.Rules)((0, rules_1.isString)(webhooks_errors_1.WebhookErrors.UntilNotString), (0, rules_1.satisfies)(exports.isIsoInstant, webhooks_errors_1.WebhookErrors.UntilInvalid)),
    __metadata("design:type", String)
], ReplayWebhookDto.prototype, "until", void 0);
class ReplayResultDto {
    replayed;
}
exports.ReplayResultDto = ReplayResultDto;
__decorate([
    (0, swagger_1.ApiProperty)({
        example: 42,
        description: 'How many new deliveries were created (one per event replayed).',
    }),
    __metadata("design:type", Number)
], ReplayResultDto.prototype, "replayed", void 0);
class DeliveryAttemptDto {
    startedAt;
    durationMs;
    statusCode;
    error;
}
exports.DeliveryAttemptDto = DeliveryAttemptDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: '2026-11-22T09:42:10.120Z' }),
    __metadata("design:type", String)
], DeliveryAttemptDto.prototype, "startedAt", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 84 }),
    __metadata("design:type", Number)
], DeliveryAttemptDto.prototype, "durationMs", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 200, nullable: true, type: Number }),
    __metadata("design:type", Object)
], DeliveryAttemptDto.prototype, "statusCode", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: null,
        nullable: true,
        type: String,
        enum: [...delivery_errors_1.DELIVERY_ERRORS, null],
        description: 'Why the attempt got no HTTP answer (null when it got one: see `statusCode`). One of a ' +
            'fixed set of texts; it never names the address the URL resolved to.',
    }),
    __metadata("design:type", Object)
], DeliveryAttemptDto.prototype, "error", void 0);
class DeliveryDto {
    id;
    eventId;
    eventType;
    status;
    attempts;
    nextAttemptAt;
    createdAt;
    attemptLog;
}
exports.DeliveryDto = DeliveryDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: '0b6c1d1e-5f0a-4a63-a6a5-0f2c1b1f2e3d' }),
    __metadata("design:type", String)
], DeliveryDto.prototype, "id", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: examples_1.EXAMPLE_IDS.eventId }),
    __metadata("design:type", String)
], DeliveryDto.prototype, "eventId", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: events_1.EventTypes.UserCreated }),
    __metadata("design:type", String)
], DeliveryDto.prototype, "eventType", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'delivered', enum: ['pending', 'delivered', 'failed', 'cancelled'] }),
    __metadata("design:type", String)
], DeliveryDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 1 }),
    __metadata("design:type", Number)
], DeliveryDto.prototype, "attempts", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: null, nullable: true, type: String }),
    __metadata("design:type", Object)
], DeliveryDto.prototype, "nextAttemptAt", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: '2026-11-22T09:42:10.000Z' }),
    __metadata("design:type", String)
], DeliveryDto.prototype, "createdAt", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: [DeliveryAttemptDto] }),
    __metadata("design:type", Array)
], DeliveryDto.prototype, "attemptLog", void 0);
//# sourceMappingURL=webhook.dto.js.map
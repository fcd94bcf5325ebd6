"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WebhookErrors = exports.REPLAY_MAX_EVENTS = void 0;
/** Webhooks' client-facing messages: the spec's strings byte for byte, then this module's own. */
const common_errors_1 = require("../common/errors/common.errors");
const events_1 = require("./events/events");
/** At most this many events per replay call (docs/webhooks.md: replay is bounded). */
exports.REPLAY_MAX_EVENTS = 10_000;
exports.WebhookErrors = {
    WebhookIdMissing: (0, common_errors_1.missingPathParameter)('webhookID'),
    NotFound: 'Webhook not found',
    InvalidUrl: 'Invalid URL',
    UrlMissing: (0, common_errors_1.missingBodyParameter)('url'),
    UrlNotString: (0, common_errors_1.mustBeString)('url'),
    DescriptionMissing: (0, common_errors_1.missingBodyParameter)('description'),
    DescriptionNotString: (0, common_errors_1.mustBeString)('description'),
    DescriptionTooLong: 'description must be at most 500 characters',
    StatusInvalid: "status must be 'enabled' or 'disabled'",
    DeliveryNotFound: 'Delivery not found',
    EnabledEventsInvalid: `Invalid enabledEvents. Should be an array with elements in [${events_1.SUBSCRIBABLE_EVENTS.map((type) => `'${type}'`).join(', ')}].`,
    SinceMissing: (0, common_errors_1.missingBodyParameter)('since'),
    SinceNotString: (0, common_errors_1.mustBeString)('since'),
    SinceInvalid: 'since must be an ISO-8601 date or date-time with a time zone',
    UntilNotString: (0, common_errors_1.mustBeString)('until'),
    UntilInvalid: 'until must be an ISO-8601 date or date-time with a time zone',
    SinceInFuture: 'since must not be in the future',
    UntilNotAfterSince: 'until must be later than since',
    ReplayTooLarge: `The replay window holds more than ${exports.REPLAY_MAX_EVENTS} events; narrow since/until`,
    ReplayDisabledEndpoint: 'This webhook is disabled; re-enable it with PUT {"status": "enabled"} before replaying',
};
//# sourceMappingURL=webhooks.errors.js.map
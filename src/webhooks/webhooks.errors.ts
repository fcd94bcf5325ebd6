/** Webhooks' client-facing messages: the spec's strings byte for byte, then this module's own. */
import {
  missingBodyParameter,
  missingPathParameter,
  mustBeString,
} from '../common/errors/common.errors';
import { SUBSCRIBABLE_EVENTS } from './events/events';

/** At most this many events per replay call (docs/webhooks.md: replay is bounded). */
export const REPLAY_MAX_EVENTS = 10_000;

export const WebhookErrors = {
  WebhookIdMissing: missingPathParameter('webhookID'),
  NotFound: 'Webhook not found',
  InvalidUrl: 'Invalid URL',
  UrlMissing: missingBodyParameter('url'),
  UrlNotString: mustBeString('url'),
  DescriptionMissing: missingBodyParameter('description'),
  DescriptionNotString: mustBeString('description'),
  DescriptionTooLong: 'description must be at most 500 characters',
  StatusInvalid: "status must be 'enabled' or 'disabled'",
  DeliveryNotFound: 'Delivery not found',
  EnabledEventsInvalid: `Invalid enabledEvents. Should be an array with elements in [${SUBSCRIBABLE_EVENTS.map((type) => `'${type}'`).join(', ')}].`,
  SinceMissing: missingBodyParameter('since'),
  SinceNotString: mustBeString('since'),
  SinceInvalid: 'since must be an ISO-8601 date or date-time with a time zone',
  UntilNotString: mustBeString('until'),
  UntilInvalid: 'until must be an ISO-8601 date or date-time with a time zone',
  SinceInFuture: 'since must not be in the future',
  UntilNotAfterSince: 'until must be later than since',
  ReplayTooLarge: `The replay window holds more than ${REPLAY_MAX_EVENTS} events; narrow since/until`,
  ReplayDisabledEndpoint:
    'This webhook is disabled; re-enable it with PUT {"status": "enabled"} before replaying',
} as const;

/** Webhooks' client-facing messages: the spec's strings byte for byte, then this module's own. */
import {
  missingBodyParameter,
  missingPathParameter,
  mustBeString,
} from '../common/errors/common.errors';

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
} as const;

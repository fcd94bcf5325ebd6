import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { MessageDto, SUCCESS } from '../common/http/message.dto';
import { ApiEndpointErrors, ApiErrorResponse } from '../common/swagger/api-errors.decorator';
import { EXAMPLE_IDS } from '../common/swagger/examples';
import { AbsentPathParameters, GroupIdParam, GroupIdPipe } from '../common/validation/path-params';
import { GroupErrors } from '../groups/groups.errors';
import {
  codeProse,
  CreateWebhookDto,
  DeliveryDto,
  ReplayResultDto,
  ReplayWebhookDto,
  UpdateWebhookDto,
  WebhookDto,
  WebhookWithSecretDto,
} from './dto/webhook.dto';
import { DEFAULT_EVENTS, OPT_IN_EVENTS } from './events/events';
import { REPLAY_MAX_EVENTS, WebhookErrors } from './webhooks.errors';
import { WebhooksService } from './webhooks.service';

const GROUP_PATH_ERRORS = [GroupErrors.GroupIdMissing, GroupErrors.GroupIdNotNumber];
const ENDPOINT_PATH_ERRORS = [...GROUP_PATH_ERRORS, WebhookErrors.WebhookIdMissing];

@ApiTags('Webhooks')
@Controller('webhooks')
// `GET|POST /webhooks/`, `PUT|DELETE /webhooks/12/` (the router ignores the trailing slash; the
// groupID present is checked first) and `PUT|DELETE /webhooks//we_…`.
@AbsentPathParameters(
  { method: 'GET', path: '', missing: 'groupID' },
  { method: 'POST', path: '', missing: 'groupID' },
  { method: 'PUT', path: ':groupID', missing: 'webhookID', checkFirst: [['groupID', GroupIdPipe]] },
  {
    method: 'DELETE',
    path: ':groupID',
    missing: 'webhookID',
    checkFirst: [['groupID', GroupIdPipe]],
  },
  { method: 'PUT', path: '//:webhookID', missing: 'groupID' },
  { method: 'DELETE', path: '//:webhookID', missing: 'groupID' },
)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get(':groupID')
  @ApiOperation({ summary: "The group's webhook endpoints" })
  @ApiOkResponse({ type: [WebhookDto] })
  @ApiEndpointErrors([...GROUP_PATH_ERRORS, GroupErrors.NotFound])
  list(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
  ): Promise<WebhookDto[]> {
    return this.webhooks.list(enterpriseId, groupId);
  }

  @Post(':groupID')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a webhook endpoint to a group',
    description:
      'New endpoints are `enabled` and receive the event types of `enabledEvents`: by default ' +
      `${codeProse(DEFAULT_EVENTS)}; ${codeProse(OPT_IN_EVENTS)} on request. ` +
      'The answer includes the signing `secret` (Standard Webhooks), shown only here and ' +
      'on rotation.',
  })
  @ApiOkResponse({ type: WebhookWithSecretDto })
  @ApiEndpointErrors([
    ...GROUP_PATH_ERRORS,
    WebhookErrors.UrlMissing,
    WebhookErrors.UrlNotString,
    WebhookErrors.InvalidUrl,
    WebhookErrors.DescriptionMissing,
    WebhookErrors.DescriptionNotString,
    WebhookErrors.DescriptionTooLong,
    WebhookErrors.EnabledEventsInvalid,
    GroupErrors.NotFound,
  ])
  create(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
    @Body() body: CreateWebhookDto,
  ): Promise<WebhookWithSecretDto> {
    return this.webhooks.create(enterpriseId, groupId, body);
  }

  @Put(':groupID/:webhookID')
  @ApiOperation({
    summary: "Change an endpoint's url, description, status or enabled events",
    description: 'Fields left out stay as they are.',
  })
  @ApiOkResponse({ type: WebhookDto })
  @ApiEndpointErrors([
    ...ENDPOINT_PATH_ERRORS,
    WebhookErrors.UrlNotString,
    WebhookErrors.InvalidUrl,
    WebhookErrors.DescriptionNotString,
    WebhookErrors.DescriptionTooLong,
    WebhookErrors.StatusInvalid,
    WebhookErrors.EnabledEventsInvalid,
    GroupErrors.NotFound,
    WebhookErrors.NotFound,
  ])
  update(
    @GroupIdParam() groupId: number,
    @Param('webhookID') webhookId: string,
    @EnterpriseId() enterpriseId: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookDto> {
    return this.webhooks.update(enterpriseId, groupId, webhookId, body);
  }

  @Delete(':groupID/:webhookID')
  @ApiOperation({ summary: 'Delete an endpoint (its pending deliveries stop)' })
  @ApiOkResponse({ type: MessageDto })
  @ApiEndpointErrors([...ENDPOINT_PATH_ERRORS, GroupErrors.NotFound, WebhookErrors.NotFound])
  async remove(
    @GroupIdParam() groupId: number,
    @Param('webhookID') webhookId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<MessageDto> {
    await this.webhooks.remove(enterpriseId, groupId, webhookId);
    return SUCCESS;
  }

  @Post(':groupID/:webhookID/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Issue a new signing secret; the old one keeps signing for 24 h',
  })
  @ApiOkResponse({ type: WebhookWithSecretDto })
  @ApiEndpointErrors([...ENDPOINT_PATH_ERRORS, GroupErrors.NotFound, WebhookErrors.NotFound])
  rotateSecret(
    @GroupIdParam() groupId: number,
    @Param('webhookID') webhookId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<WebhookWithSecretDto> {
    return this.webhooks.rotateSecret(enterpriseId, groupId, webhookId);
  }

  @Post(':groupID/:webhookID/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a `webhook.test` event to this endpoint' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      properties: { eventId: { type: 'string', example: EXAMPLE_IDS.eventId } },
    },
  })
  @ApiEndpointErrors([...ENDPOINT_PATH_ERRORS, GroupErrors.NotFound, WebhookErrors.NotFound])
  sendTest(
    @GroupIdParam() groupId: number,
    @Param('webhookID') webhookId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<{ eventId: string }> {
    return this.webhooks.sendTest(enterpriseId, groupId, webhookId);
  }

  @Get(':groupID/:webhookID/deliveries')
  @ApiOperation({ summary: "The endpoint's last 100 deliveries, newest first, with every attempt" })
  @ApiOkResponse({ type: [DeliveryDto] })
  @ApiEndpointErrors([...ENDPOINT_PATH_ERRORS, GroupErrors.NotFound, WebhookErrors.NotFound])
  listDeliveries(
    @GroupIdParam() groupId: number,
    @Param('webhookID') webhookId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<DeliveryDto[]> {
    return this.webhooks.listDeliveries(enterpriseId, groupId, webhookId);
  }

  @Post(':groupID/:webhookID/deliveries/:deliveryID/redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'Attempt a delivery again now' })
  @ApiOkResponse({ type: MessageDto })
  @ApiEndpointErrors([
    ...ENDPOINT_PATH_ERRORS,
    GroupErrors.NotFound,
    WebhookErrors.NotFound,
    WebhookErrors.DeliveryNotFound,
  ])
  async redeliver(
    @GroupIdParam() groupId: number,
    @Param('webhookID') webhookId: string,
    @Param('deliveryID') deliveryId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<MessageDto> {
    await this.webhooks.redeliver(enterpriseId, groupId, webhookId, deliveryId);
    return SUCCESS;
  }

  @Post(':groupID/:webhookID/replay')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send the events of a time window to this endpoint again',
    description:
      'Every event of the group created in [`since`, `until`) whose type the endpoint enables ' +
      'becomes a new delivery to this endpoint (same envelope and event id, so `webhook-id` is ' +
      'unchanged; personal data already cleared by retention is sent as `null`). At most ' +
      `${REPLAY_MAX_EVENTS} events per call: a larger window is refused and nothing is created. ` +
      'A disabled endpoint is refused with 409.',
  })
  @ApiOkResponse({ type: ReplayResultDto })
  @ApiEndpointErrors([
    ...ENDPOINT_PATH_ERRORS,
    WebhookErrors.SinceMissing,
    WebhookErrors.SinceNotString,
    WebhookErrors.SinceInvalid,
    WebhookErrors.UntilNotString,
    WebhookErrors.UntilInvalid,
    WebhookErrors.SinceInFuture,
    WebhookErrors.UntilNotAfterSince,
    GroupErrors.NotFound,
    WebhookErrors.NotFound,
    WebhookErrors.ReplayTooLarge,
  ])
  @ApiErrorResponse(409, 'The endpoint is disabled; nothing was created.', [
    WebhookErrors.ReplayDisabledEndpoint,
  ])
  replay(
    @GroupIdParam() groupId: number,
    @Param('webhookID') webhookId: string,
    @EnterpriseId() enterpriseId: string,
    @Body() body: ReplayWebhookDto,
  ): Promise<ReplayResultDto> {
    return this.webhooks.replay(enterpriseId, groupId, webhookId, body);
  }
}

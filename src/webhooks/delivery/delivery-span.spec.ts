/**
 * One delivery attempt as a span (delivery-span.ts, docs/operations.md "Traces"), on real spans in
 * memory: its name and attributes name the delivery, the attempt and the event only (never the
 * URL, the enterprise or the participant), its parent is the trace context stored with the event,
 * and how the attempt ended shows as its outcome, status code, retry flag and error status — an
 * error only for a failed or gone attempt, with the fixed text as its message.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { OutboxPropagator } from '../../common/telemetry/outbox-propagator';
import { SERVICE_TRACER } from '../../common/telemetry/trace-context';
import type { ClaimedDelivery, DeliveryOutcome } from './delivery-lease.repository';
import { sendInSpan } from './delivery-span';
import type { SentDelivery } from './delivery.service';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const EVENT_ID = `evt_${'a'.repeat(48)}`;
const DELIVERY_ID = '8f14e45f-ceea-467f-a8f8-1f0e0b2b5c3e';

const claimed = (overrides: Partial<ClaimedDelivery> = {}): ClaimedDelivery => ({
  id: DELIVERY_ID,
  attempts: 2,
  endpointId: 'we_000000000000000000000001',
  eventId: EVENT_ID,
  createdAt: new Date('2026-11-20T10:00:00Z'),
  url: 'https://hooks.example.com/in?token=receiver-secret',
  secretCiphertext: 'v2.k0.secret',
  previousSecretCiphertext: null,
  previousSecretExpiresAt: null,
  failingSince: null,
  endpointStatus: 'enabled',
  eventType: 'user.created',
  eventPayload: { groupID: 7, userIdentifier: `ok_${'b'.repeat(48)}` },
  eventPii: 'v2.k0.pii',
  eventCreatedAt: new Date('2026-11-20T10:00:00Z'),
  eventTraceContext: { traceparent: `00-${TRACE_ID}-${PARENT_SPAN_ID}-01` },
  ...overrides,
});

/** What DeliveryService.send answered for the delivery. */
const sent = (
  result: SentDelivery['result'],
  outcome: Pick<DeliveryOutcome, 'status' | 'statusCode' | 'error'>,
): SentDelivery => ({
  delivery: claimed(),
  result,
  outcome: { deliveryId: DELIVERY_ID, countsAsAttempt: result !== 'cancelled', ...outcome },
});

const BASE_ATTRIBUTES = {
  'webhook.delivery.id': DELIVERY_ID,
  'webhook.delivery.attempt': 3,
  'webhook.event.id': EVENT_ID,
  'webhook.event.type': 'user.created',
};

describe('sendInSpan: a delivery attempt as a span', () => {
  const memory = new InMemorySpanExporter();
  beforeAll(() =>
    new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).register({
      propagator: new OutboxPropagator(),
    }),
  );
  afterAll(() => {
    trace.disable();
    context.disable();
    propagation.disable();
  });
  afterEach(() => memory.reset());

  const spanOf = async (answer: SentDelivery, delivery = claimed()): Promise<ReadableSpan> => {
    expect(await sendInSpan(delivery, () => Promise.resolve(answer))).toBe(answer);
    const spans = memory.getFinishedSpans();
    expect(spans).toHaveLength(1);
    return spans[0];
  };

  it('delivered: named for the delivery, the attempt and the event, the status code, no error', async () => {
    const span = await spanOf(
      sent('delivered', { status: 'delivered', statusCode: 200, error: null }),
    );
    expect(span.name).toBe('webhook.delivery');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.instrumentationScope.name).toBe(SERVICE_TRACER);
    expect(span.attributes).toEqual({
      ...BASE_ATTRIBUTES,
      'webhook.delivery.outcome': 'delivered',
      'webhook.delivery.status_code': 200,
    });
    expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
    // Nothing of the endpoint or the participant.
    const everything = JSON.stringify([span.attributes, span.events, span.status, span.name]);
    for (const secret of ['hooks.example.com', 'receiver-secret', 'ok_', 'we_']) {
      expect(everything).not.toContain(secret);
    }
  });

  it('joins the trace of the request that wrote the event; without one, starts its own', async () => {
    const joined = await spanOf(
      sent('delivered', { status: 'delivered', statusCode: 204, error: null }),
    );
    expect(joined.spanContext().traceId).toBe(TRACE_ID);
    expect(joined.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    memory.reset();
    const own = await spanOf(
      sent('delivered', { status: 'delivered', statusCode: 204, error: null }),
      claimed({ eventTraceContext: null }),
    );
    expect(own.spanContext().traceId).not.toBe(TRACE_ID);
    expect(own.parentSpanContext).toBeUndefined();
  });

  it('a failure to be retried: the status code, the retry flag, an error with the fixed text', async () => {
    const span = await spanOf(
      sent('failed', { status: 'pending', statusCode: 503, error: 'endpoint answered 503' }),
    );
    expect(span.attributes).toEqual({
      ...BASE_ATTRIBUTES,
      'webhook.delivery.outcome': 'failed',
      'webhook.delivery.status_code': 503,
      'webhook.delivery.retry': true,
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'endpoint answered 503' });
  });

  it('no answer, and no retry left: no status code, no retry flag, an error', async () => {
    const span = await spanOf(
      sent('failed', { status: 'failed', statusCode: null, error: 'timeout' }),
    );
    expect(span.attributes).toEqual({ ...BASE_ATTRIBUTES, 'webhook.delivery.outcome': 'failed' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'timeout' });
  });

  it('410: gone, an error', async () => {
    const span = await spanOf(
      sent('gone', { status: 'failed', statusCode: 410, error: 'endpoint answered 410 Gone' }),
    );
    expect(span.attributes).toEqual({
      ...BASE_ATTRIBUTES,
      'webhook.delivery.outcome': 'gone',
      'webhook.delivery.status_code': 410,
    });
    expect(span.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'endpoint answered 410 Gone',
    });
  });

  it('cancelled (the endpoint was disabled): its outcome, and no error', async () => {
    const span = await spanOf(
      sent('cancelled', { status: 'cancelled', statusCode: null, error: 'endpoint disabled' }),
    );
    expect(span.attributes).toEqual({
      ...BASE_ATTRIBUTES,
      'webhook.delivery.outcome': 'cancelled',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
  });
});

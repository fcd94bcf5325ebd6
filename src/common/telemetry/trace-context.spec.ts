import {
  context,
  createTraceState,
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Context,
} from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OutboxPropagator } from './outbox-propagator';
import { contextFromStored, traceContextParam, traceContextToStore } from './trace-context';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

/** A context whose active span is the given (remote) span, as a request's handler has. */
const withSpan = (traceState?: string): Context =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    traceFlags: TraceFlags.SAMPLED,
    traceState: traceState === undefined ? undefined : createTraceState(traceState),
  });

describe('the trace context an outbox row stores (docs/operations.md, "Traces")', () => {
  describe('tracing off: no propagator registered', () => {
    it('stores nothing', () => {
      expect(traceContextToStore(withSpan())).toBeNull();
      expect(context.with(withSpan(), traceContextParam)).toBeNull();
    });
  });

  describe('tracing on', () => {
    // As tracing-sdk.ts registers it: a context manager, and our propagator.
    beforeAll(() => new NodeTracerProvider().register({ propagator: new OutboxPropagator() }));
    afterAll(() => {
      trace.disable();
      context.disable();
      propagation.disable();
    });

    it('stores the active span as W3C traceparent, with tracestate when there is one', () => {
      expect(traceContextToStore(withSpan())).toEqual({
        traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`,
      });
      expect(traceContextToStore(withSpan('vendor=abc,other=1'))).toEqual({
        traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`,
        tracestate: 'vendor=abc,other=1',
      });
    });

    it('as the jsonb parameter of the active context; null with no span active', () => {
      expect(context.with(withSpan(), traceContextParam)).toBe(
        `{"traceparent":"00-${TRACE_ID}-${SPAN_ID}-01"}`,
      );
      expect(traceContextParam()).toBeNull();
      expect(traceContextToStore(ROOT_CONTEXT)).toBeNull();
    });

    it('reads a stored context back as the remote parent it was', () => {
      const stored = traceContextToStore(withSpan('vendor=abc'));
      const parent = trace.getSpanContext(contextFromStored(JSON.parse(JSON.stringify(stored))));
      expect(parent).toMatchObject({
        traceId: TRACE_ID,
        spanId: SPAN_ID,
        traceFlags: TraceFlags.SAMPLED,
        isRemote: true,
      });
      expect(parent?.traceState?.serialize()).toBe('vendor=abc');
    });

    it.each([
      ['null (written with tracing off)', null],
      ['not an object', 'traceparent'],
      ['without traceparent', { tracestate: 'vendor=abc' }],
      ['a traceparent that is not text', { traceparent: 42 }],
      ['a malformed traceparent', { traceparent: '00-xyz-00f067aa0ba902b7-01' }],
      ['an all-zero trace id', { traceparent: `00-${'0'.repeat(32)}-${SPAN_ID}-01` }],
      ['version ff', { traceparent: `ff-${TRACE_ID}-${SPAN_ID}-01` }],
    ])('%s: no parent, the span starts its own trace', (_case, stored) => {
      expect(trace.getSpanContext(contextFromStored(stored))).toBeUndefined();
    });

    it('ignores a tracestate longer than W3C allows, keeping the parent', () => {
      const parent = trace.getSpanContext(
        contextFromStored({
          traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`,
          tracestate: `vendor=${'a'.repeat(600)}`,
        }),
      );
      expect(parent?.traceId).toBe(TRACE_ID);
      expect(parent?.traceState).toBeUndefined();
    });
  });
});

describe('OutboxPropagator: trace context does not cross the edge', () => {
  const propagator = new OutboxPropagator();

  it("takes no trace context from a request's headers", () => {
    const headers = { traceparent: `00-${TRACE_ID}-${SPAN_ID}-01` };
    const extracted = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    expect(trace.getSpanContext(extracted)).toBeUndefined();
  });

  it('puts none on an outgoing request', () => {
    const headers: Record<string, string> = {};
    propagator.inject(withSpan('vendor=abc'), headers, defaultTextMapSetter);
    expect(headers).toEqual({});
  });

  it('names the fields it propagates', () => {
    expect(propagator.fields()).toEqual(['traceparent', 'tracestate']);
  });
});

/**
 * The one propagator tracing-sdk.ts registers: W3C Trace Context (`traceparent`, `tracestate`),
 * read and written only through the outbox carrier (trace-context.ts). Every other carrier — an
 * incoming request's headers, an outgoing webhook's — is left alone, so the service's traces
 * start at its own edge: a client cannot choose our trace ids or attach our spans to its trace,
 * and a webhook receiver is not sent ours (docs/operations.md, "Traces"). Baggage is not
 * propagated at all.
 */
import type { Context, TextMapGetter, TextMapPropagator, TextMapSetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OUTBOX_CARRIER } from './trace-context';

export class OutboxPropagator implements TextMapPropagator {
  private readonly w3c = new W3CTraceContextPropagator();

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    if (setter === OUTBOX_CARRIER) this.w3c.inject(context, carrier, setter);
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    return getter === OUTBOX_CARRIER ? this.w3c.extract(context, carrier, getter) : context;
  }

  fields(): string[] {
    return this.w3c.fields();
  }
}

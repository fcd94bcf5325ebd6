import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';
import { keptAttributes, PrivateSpanExporter, urlOrigin } from './span-privacy';
import { SERVICE_TRACER } from './trace-context';

describe('what of a span leaves the process (docs/operations.md, "Traces")', () => {
  describe('keptAttributes', () => {
    it('keeps how the service worked: method, route, status, statement, our own', () => {
      const attributes: Attributes = {
        'http.request.method': 'GET',
        'http.route': '/participants/:externalID',
        'http.response.status_code': 200,
        'server.address': 'api.example.com',
        'server.port': 443,
        'db.system.name': 'postgresql',
        'db.query.text': 'SELECT 1 FROM participants WHERE external_id = $1',
        'webhook.delivery.attempt': 2,
        'email.type': 'checkinReminder',
      };
      expect(keptAttributes(attributes)).toEqual(attributes);
    });

    it('drops who asked and with what: path, query, addresses, user agent, values, the unknown', () => {
      expect(
        keptAttributes({
          'http.route': '/participants/:externalID',
          'url.path': '/participants/ok_0123',
          'url.query': 'email=ana%40example.com',
          'client.address': '203.0.113.7',
          'network.peer.address': '203.0.113.7',
          'network.peer.port': 51234,
          'user_agent.original': 'Mozilla/5.0',
          'db.postgresql.values': ['ana@example.com'],
          'http.request.header.x-api-key': ['ck_secret'],
          'some.future.attribute': 'anything',
        }),
      ).toEqual({ 'http.route': '/participants/:externalID' });
    });

    it("reduces an outbound request's URL to its origin", () => {
      expect(
        keptAttributes({ 'url.full': 'https://user:pass@hooks.example.com:8443/t/abc?token=x' }),
      ).toEqual({ 'url.full': 'https://hooks.example.com:8443' });
      expect(keptAttributes({ 'url.full': 'not a url' })).toEqual({});
    });
  });

  it.each([
    ['https://hooks.example.com/a?b=c', 'https://hooks.example.com'],
    ['http://127.0.0.1:4000/x', 'http://127.0.0.1:4000'],
    ['mailto:ana@example.com', undefined],
    ['', undefined],
    [42, undefined],
  ])('urlOrigin(%p) is %p', (value, origin) => {
    expect(urlOrigin(value)).toBe(origin);
  });

  describe('PrivateSpanExporter, on real spans', () => {
    const memory = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new PrivateSpanExporter(memory))],
    });
    afterEach(() => memory.reset());
    afterAll(() => provider.shutdown());

    const exported = (): ReadableSpan => {
      const [span] = memory.getFinishedSpans();
      return span;
    };

    it("an instrumentation's span: its attributes kept, its error's message and stack not", () => {
      const span = provider.getTracer('@opentelemetry/instrumentation-pg').startSpan('pg.query', {
        kind: SpanKind.CLIENT,
        attributes: { 'db.query.text': 'SELECT $1::uuid', 'db.postgresql.values': ['x'] },
      });
      const error = new Error('invalid input syntax for type uuid: "ana@example.com"');
      span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
      span.addLink({
        context: span.spanContext(),
        attributes: { 'url.path': '/participants/ok_1' },
      });
      span.end();

      const sent = exported();
      expect(sent.name).toBe('pg.query');
      expect(sent.kind).toBe(SpanKind.CLIENT);
      expect(sent.spanContext()).toEqual(span.spanContext());
      expect(sent.attributes).toEqual({ 'db.query.text': 'SELECT $1::uuid' });
      expect(sent.status).toEqual({ code: SpanStatusCode.ERROR });
      expect(sent.events.map((event) => [event.name, event.attributes])).toEqual([
        ['exception', { 'exception.type': 'Error' }],
      ]);
      expect(sent.links).toEqual([{ context: span.spanContext() }]);
      expect(JSON.stringify(sent.attributes) + JSON.stringify(sent.events)).not.toContain(
        'ana@example.com',
      );
    });

    it('our own span keeps its status message (a fixed text)', () => {
      const span = provider.getTracer(SERVICE_TRACER).startSpan('webhook.delivery');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'connection refused' });
      span.end();
      expect(exported().status).toEqual({
        code: SpanStatusCode.ERROR,
        message: 'connection refused',
      });
      expect(exported().instrumentationScope.name).toBe(SERVICE_TRACER);
    });
  });
});

import { deliveryErrorDetail, deliveryErrorFor } from './delivery-errors';
import { errors as undici } from 'undici';
import { BlockedAddressError, RequestTimeoutError } from './safe-http';

/** An error as Node's net, dns and tls raise them: a code, often a syscall, a detailed message. */
const nodeError = (code: string, message: string, syscall?: string) =>
  Object.assign(new Error(message), { code, syscall });

describe('delivery errors', () => {
  it.each([
    {
      label: 'BlockedAddressError',
      error: new BlockedAddressError('vm'),
      text: 'address not allowed',
    },
    {
      label: 'ERR_INVALID_URL',
      error: Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' }),
      text: 'address not allowed',
    },
    {
      label: 'ENOTFOUND',
      error: nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND vm.', 'getaddrinfo'),
      text: 'address not allowed',
    },
    {
      label: 'EAI_AGAIN',
      error: nodeError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN db.internal', 'getaddrinfo'),
      text: 'address not allowed',
    },
    {
      label: 'ECONNREFUSED',
      error: nodeError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.7:443', 'connect'),
      text: 'connection refused',
    },
    {
      label: 'ECONNRESET',
      error: nodeError('ECONNRESET', 'socket hang up'),
      text: 'connection reset',
    },
    { label: 'EPIPE', error: nodeError('EPIPE', 'write EPIPE', 'write'), text: 'connection reset' },
    { label: 'RequestTimeoutError', error: new RequestTimeoutError(15_000), text: 'timeout' },
    {
      label: 'ETIMEDOUT',
      error: nodeError('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.9:443', 'connect'),
      text: 'timeout',
    },
    {
      label: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      error: nodeError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
      text: 'TLS error',
    },
    {
      label: 'CERT_HAS_EXPIRED',
      error: nodeError('CERT_HAS_EXPIRED', 'certificate has expired'),
      text: 'TLS error',
    },
    {
      label: 'ERR_TLS_CERT_ALTNAME_INVALID',
      error: nodeError('ERR_TLS_CERT_ALTNAME_INVALID', 'Hostname/IP does not match…'),
      text: 'TLS error',
    },
    {
      label: 'EPROTO',
      error: nodeError('EPROTO', 'SSL routines:ssl3_get_record:wrong version number'),
      text: 'TLS error',
    },
    {
      label: 'HPE_INVALID_HEADER_TOKEN',
      error: nodeError('HPE_INVALID_HEADER_TOKEN', 'Parse Error: Invalid header value char'),
      text: 'invalid response',
    },
    // undici's own errors, as its classes raise them (safe-http sends with undici).
    {
      label: "undici's SocketError (the other side closed)",
      error: new undici.SocketError('other side closed'),
      text: 'connection reset',
    },
    {
      label: "undici's ConnectTimeoutError",
      error: new undici.ConnectTimeoutError(),
      text: 'timeout',
    },
    {
      label: "undici's HeadersTimeoutError",
      error: new undici.HeadersTimeoutError(),
      text: 'timeout',
    },
    { label: "undici's BodyTimeoutError", error: new undici.BodyTimeoutError(), text: 'timeout' },
    {
      label: "undici's ResponseContentLengthMismatchError",
      error: new undici.ResponseContentLengthMismatchError(),
      text: 'invalid response',
    },
    {
      label: "undici's HeadersOverflowError",
      error: new undici.HeadersOverflowError(),
      text: 'invalid response',
    },
    {
      label: 'EHOSTUNREACH',
      error: nodeError('EHOSTUNREACH', 'connect EHOSTUNREACH 10.1.2.3:443', 'connect'),
      text: 'connection failed',
    },
    {
      label: 'an Error without a code',
      error: new Error('Unsupported state or unable to authenticate data'),
      text: 'internal error',
    },
    { label: 'a string', error: 'not even an error', text: 'internal error' },
    { label: 'undefined', error: undefined, text: 'internal error' },
  ])('$label is $text', ({ error, text }) => {
    expect(deliveryErrorFor(error)).toBe(text);
  });

  it('with private addresses allowed (a laptop), a name that does not resolve says so', () => {
    const dns = nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND vm.', 'getaddrinfo');
    expect(deliveryErrorFor(dns, { privateAddressesRefused: false })).toBe('DNS lookup failed');
    expect(deliveryErrorFor(dns, { privateAddressesRefused: true })).toBe('address not allowed');
  });

  it('decides on the code, not on a message an endpoint could shape', () => {
    expect(deliveryErrorFor(new Error('connect ECONNREFUSED 10.0.0.7:443'))).toBe('internal error');
  });

  it('details an error for the log by code and message, on one line', () => {
    expect(deliveryErrorDetail(nodeError('ENOTFOUND', 'getaddrinfo ENOTFOUND vm.'))).toBe(
      'ENOTFOUND: getaddrinfo ENOTFOUND vm.',
    );
    expect(deliveryErrorDetail(new BlockedAddressError('vm'))).toBe(
      'BlockedAddressError: refused: vm resolves to a private or reserved address',
    );
    expect(deliveryErrorDetail(new Error('a\nb'))).toBe('Error: a b');
  });
});

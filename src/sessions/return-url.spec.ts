import fc from 'fast-check';
import { isAcceptableReturnUrl, normaliseReturnUrl } from './return-url';

describe('returnURL', () => {
  it.each([
    'https://example.com/done',
    'https://app.example.co.uk/checkin/return?x=1#y',
    'https://93.184.216.34/back',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/',
    'https://[::ffff:5db8:d822]/',
  ])('accepts %s as it is', (url) => {
    expect(isAcceptableReturnUrl(url)).toBe(true);
    expect(normaliseReturnUrl(url)).toBe(url);
  });

  it.each([
    ['https://app.example.com/ü✓', 'https://app.example.com/%C3%BC%E2%9C%93'],
    ['https://app.example.com/€', 'https://app.example.com/%E2%82%AC'],
    ['https://app.example.com/é?q=ä#ö', 'https://app.example.com/%C3%A9?q=%C3%A4#%C3%B6'],
    ['https://bücher.example/x', 'https://xn--bcher-kva.example/x'],
    ['HTTPS://App.Example.COM:443/a/../b', 'https://app.example.com/b'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/a b', 'https://example.com/a%20b'],
    ['  https://example.com/padded  ', 'https://example.com/padded'],
    ['https://[2606:2800:0220:0001::1]/', 'https://[2606:2800:220:1::1]/'],
  ])('stores %j normalised as %j', (input, href) => {
    expect(normaliseReturnUrl(input)).toBe(href);
    expect(normaliseReturnUrl(href)).toBe(href);
  });

  it.each([
    'http://example.com/done',
    'ftp://example.com',
    'javascript:alert(1)',
    'not a url',
    '',
    'https://localhost/x',
    'https://LOCALHOST./x',
    'https://app.localhost/x',
    'https://intranet/x',
    'https://user:pass@example.com/x',
    `https://example.com/${'x'.repeat(2100)}`,
    // Within the length limit as given, beyond it once percent-encoded.
    `https://example.com/${'€'.repeat(400)}`,
    // Control characters, which the URL parser would drop or encode without a word.
    'https://app.example.com/a\nb',
    'https://app.example.com/a\r\nSet-Cookie: x=1',
    'https://app.example.com/\tx',
    'https://app.example.com/\u0000',
    'https://app.example.com/\u007f',
    'https://app.example.com/done\n',
  ])('refuses %j', (url) => {
    expect(isAcceptableReturnUrl(url)).toBe(false);
    expect(normaliseReturnUrl(url)).toBeNull();
  });

  it.each([
    // loopback, unspecified, private, link-local, CGNAT
    '127.0.0.1',
    '127.1.2.3',
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    // IETF protocol assignments, documentation, 6to4 relay, benchmarking, reserved, broadcast
    '192.0.0.8',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '192.88.99.1',
    '198.18.0.1',
    '198.19.255.254',
    '240.0.0.1',
    '250.1.2.3',
    '255.255.255.254',
    '255.255.255.255',
    '224.0.0.1',
    // Other spellings of loopback and private addresses, which the URL parser reads as such
    '2130706433',
    '0x7f.1',
    '0300.0250.1.1',
  ])('refuses the IPv4 host %s', (host) => {
    expect(normaliseReturnUrl(`https://${host}/x`)).toBeNull();
  });

  it.each([
    '::',
    '::1',
    // IPv4-compatible (::/96), in both spellings
    '::127.0.0.1',
    '::7f00:1',
    '::8.8.8.8',
    '::808:808',
    '::2',
    // IPv4-mapped private and loopback addresses, in both spellings
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:192.168.1.1',
    '::ffff:198.18.0.1',
    // SIIT (::ffff:0:0/96), NAT64, 6to4, Teredo, documentation, benchmarking, ORCHIDv2, discard
    '::ffff:0:7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b::808:808',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    '2001::1',
    '2001:db8::1',
    '3fff::1',
    '2001:2::1',
    '2001:20::1',
    '100::1',
    // unique-local, link-local, site-local, multicast
    'fd00::1',
    'fc12::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
  ])('refuses the IPv6 host [%s]', (host) => {
    expect(normaliseReturnUrl(`https://[${host}]/x`)).toBeNull();
  });

  it('normalises every value it accepts into something a Location header can carry', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
          fc
            .tuple(fc.webUrl({ validSchemes: ['https'] }), fc.string({ unit: 'binary' }))
            .map(([url, tail]) => `${url}/${tail}`),
          fc.string({ unit: 'binary' }).map((tail) => `https://app.example.com/${tail}`),
        ),
        (value) => {
          const href = normaliseReturnUrl(value);
          if (href === null) return;
          expect(href).toMatch(/^https:\/\/[\x21-\x7e]+$/);
          expect(normaliseReturnUrl(href)).toBe(href);
          expect(() => new Headers({ location: href })).not.toThrow();
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

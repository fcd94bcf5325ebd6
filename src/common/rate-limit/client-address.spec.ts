import { clientAddress, fastifyTrustProxy } from './client-address';

describe('clientAddress', () => {
  it('is the request address, IPv6 taken as its /64 and IPv4-mapped addresses as IPv4', () => {
    expect(clientAddress({ ip: '203.0.113.7' })).toBe('203.0.113.7');
    expect(clientAddress({ ip: '2001:db8:1:2:aaaa::1' })).toBe('2001:db8:1:2::/64');
    expect(clientAddress({ ip: '2001:db8:1:2:bbbb::9' })).toBe('2001:db8:1:2::/64');
    expect(clientAddress({ ip: '::ffff:203.0.113.7' })).toBe('203.0.113.7');
    expect(clientAddress({ ip: '::1' })).toBe('::1');
  });
});

describe('fastifyTrustProxy', () => {
  it('passes off and address lists through', () => {
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
  });

  it('turns a number of proxies into a trust function over hops (Fastify 5 ignores numbers)', () => {
    const trust = fastifyTrustProxy(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2, 3].map((hop) => trust('10.0.0.1', hop))).toEqual([true, true, false, false]);
  });
});

import { isAllowedWebhookUrl, isPublicAddress } from './safe-http';

describe('SSRF guard', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '2001:db8::1',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:8.8.8.8'])(
    'accepts %s',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it.each([
    'https://127.0.0.1/hook',
    'https://2130706433/hook',
    'https://0177.0.0.1/hook',
    'https://0x7f.0.0.1/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://10.0.0.8/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://localhost/hook',
    'http://example.com/hook',
    'ftp://example.com/hook',
    'https://user:pass@example.com/hook',
    'not a url',
  ])('refuses to register %s when the guard is on', (url) =>
    expect(isAllowedWebhookUrl(url, false)).toBe(false),
  );

  it('accepts public https URLs, and local http ones only when private URLs are allowed', () => {
    expect(isAllowedWebhookUrl('https://hooks.example.com/in', false)).toBe(true);
    expect(isAllowedWebhookUrl('http://127.0.0.1:9999/in', true)).toBe(true);
    expect(isAllowedWebhookUrl('ftp://127.0.0.1/in', true)).toBe(false);
  });
});

describe('public addresses (common/net/public-address.ts, also the returnURL rule)', () => {
  it.each([
    '198.18.0.1',
    '198.19.255.255',
    '240.0.0.1',
    '192.0.2.1',
    '::7f00:1',
    '::127.0.0.1',
    '::8.8.8.8',
    '::808:808',
    '[::1]',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    'fe80::1%eth0',
    'example.com',
    '',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['[2606:2800:220:1:248:1893:25c8:1946]', '::ffff:808:808'])('accepts %s', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );
});

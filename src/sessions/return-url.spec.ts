import { isAcceptableReturnUrl } from './return-url';

describe('isAcceptableReturnUrl', () => {
  it.each([
    'https://example.com/done',
    'https://app.example.co.uk/checkin/return?x=1#y',
    'https://93.184.216.34/back',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/',
  ])('accepts %s', (url) => expect(isAcceptableReturnUrl(url)).toBe(true));

  it.each([
    'http://example.com/done',
    'ftp://example.com',
    'javascript:alert(1)',
    'not a url',
    'https://localhost/x',
    'https://LOCALHOST./x',
    'https://app.localhost/x',
    'https://127.0.0.1/x',
    'https://127.1.2.3/x',
    'https://10.0.0.1/x',
    'https://172.16.5.4/x',
    'https://192.168.1.1/x',
    'https://169.254.169.254/latest',
    'https://100.64.0.1/x',
    'https://0.0.0.0/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[fd00::1]/x',
    'https://[fe80::1]/x',
    'https://intranet/x',
    'https://user:pass@example.com/x',
    `https://example.com/${'x'.repeat(2100)}`,
  ])('refuses %s', (url) => expect(isAcceptableReturnUrl(url)).toBe(false));
});

import { pageHeaders } from './page-renderer';

describe('pageHeaders', () => {
  it('forbids caching, referrers, framing, scripts and foreign form targets', () => {
    expect(pageHeaders(null)).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'content-security-policy':
        "default-src 'none'; style-src 'self' 'unsafe-inline'; form-action 'self'; " +
        "base-uri 'none'; frame-ancestors 'none'",
    });
  });

  it("lets forms reach the analysis engine's origin (not its path)", () => {
    expect(
      pageHeaders('https://engine.example.com:8443/start?x=1')['content-security-policy'],
    ).toBe(
      "default-src 'none'; style-src 'self' 'unsafe-inline'; " +
        "form-action 'self' https://engine.example.com:8443; base-uri 'none'; frame-ancestors 'none'",
    );
  });
});

import { createHash } from 'node:crypto';
import { inlineStyleSources, isSwaggerUiPath, swaggerUiPolicy } from './swagger-ui-headers';

const hash = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('Swagger UI headers', () => {
  it('allows exactly the inline styles of the page, by hash', () => {
    const html =
      '<head><style>\n body { margin:0 }\n</style></head>' +
      '<svg style="position:absolute;width:0;height:0"></svg><script>alert(1)</script>' +
      "<style media='all'>.a{}</style>";
    expect(inlineStyleSources(html)).toEqual([
      "'unsafe-hashes'",
      hash('\n body { margin:0 }\n'),
      hash('.a{}'),
      hash('position:absolute;width:0;height:0'),
    ]);
    // Without a style attribute there is no 'unsafe-hashes'; an inline script is never allowed.
    expect(inlineStyleSources('<style>.a{}</style>')).toEqual([hash('.a{}')]);
    const policy = swaggerUiPolicy(html, 'https://checkin.example.com/base');
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain(hash('alert(1)'));
    expect(policy).toContain("connect-src 'self' https://checkin.example.com;");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it('covers the page and its assets, not the documents beside it', () => {
    for (const url of [
      '/docs',
      '/docs/',
      '/docs/index.html',
      '/docs/swagger-ui.css',
      '/docs?x=1',
    ]) {
      expect(isSwaggerUiPath(url, '/docs')).toBe(true);
    }
    for (const url of ['/docs-json', '/docs-yaml', '/documents', '/']) {
      expect(isSwaggerUiPath(url, '/docs')).toBe(false);
    }
  });
});

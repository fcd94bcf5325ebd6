/**
 * The Swagger UI (/docs) in a real headless Chromium (test/support/chromium.ts, driven
 * by playwright-core), under its own Content-Security-Policy (docs/security.md, "The API
 * documentation page"): it loads with no violation, "Authorize" with an API key and "Try it out"
 * work against the service, and an inline script injected into the page does not run.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp, TestApp, TestEnterprise } from './support/test-app';
import { launchChromium } from './support/chromium';

jest.setTimeout(60_000);

/** A TCP port free now (taken, then released): the app listens there, as its PUBLIC_BASE_URL. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
}

describe('Swagger UI in a real browser', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Console messages of the page, and CSP violations it reported. */
  let consoleLines: string[];

  beforeAll(async () => {
    browser = await launchChromium();
    const port = await freePort();
    // The document's server is PUBLIC_BASE_URL: "Try it out" sends its requests there.
    t = await startTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }, { port });
    acme = await t.newEnterprise('Acme');
    await t.newGroup(acme, 'Seen through the docs');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  beforeEach(async () => {
    consoleLines = [];
    context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    // Before any script of the page: record every violation the page reports. (Scripts for the
    // page are strings: the project's TypeScript has no DOM types.)
    await context.addInitScript(`
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.cspViolations.push({
          directive: event.violatedDirective,
          blocked: event.blockedURI,
          sample: event.sample,
        });
      });`);
    page = await context.newPage();
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => consoleLines.push(`pageerror: ${error.message}`));
  });
  afterEach(() => context.close());

  const violations = () => page.evaluate<Violation[]>('window.cspViolations');

  async function openDocs(): Promise<void> {
    const response = await page.goto(`${t.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    await page.locator('.swagger-ui .information-container .title').waitFor();
    await page.locator('.opblock-summary-path[data-path="/groups"]').first().waitFor();
  }

  /** CSP violations the page reported, and the console's lines about them. */
  async function problems(): Promise<{ violations: Violation[]; console: string[] }> {
    return {
      violations: await violations(),
      console: consoleLines.filter((line) =>
        /Content Security Policy|Refused to|pageerror/i.test(line),
      ),
    };
  }

  it('is served with its own CSP, no framing and no referrer', async () => {
    const response = await t.request('GET', '/docs');
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      policy.split('; ').map((directive) => {
        const [name, ...values] = directive.split(' ');
        return [name, values];
      }),
    );
    expect(Object.keys(directives).sort()).toEqual([
      'base-uri',
      'connect-src',
      'default-src',
      'form-action',
      'frame-ancestors',
      'img-src',
      'script-src',
      'style-src',
    ]);
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    // Styles: this origin, and the page template's own inline styles by hash, never any inline.
    const [self, ...inline] = directives['style-src'];
    expect(self).toBe("'self'");
    for (const source of inline)
      expect(source).toMatch(/^'(unsafe-hashes|sha256-[A-Za-z0-9+/=]+)'$/);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // Its script and style files carry them too; the JSON document is left as it was.
    for (const asset of [
      '/docs/swagger-ui-init.js',
      '/docs/swagger-ui-bundle.js',
      '/docs/swagger-ui.css',
    ]) {
      const answer = await t.request('GET', asset);
      expect({
        asset,
        status: answer.status,
        frame: answer.headers.get('x-frame-options'),
      }).toEqual({
        asset,
        status: 200,
        frame: 'DENY',
      });
    }
  });

  it('loads with no CSP violation', async () => {
    await openDocs();
    expect(await problems()).toEqual({ violations: [], console: [] });
  });

  it('"Authorize" with an API key, then "Try it out" on GET /groups answers 200', async () => {
    await openDocs();
    await page.locator('.scheme-container .btn.authorize').click();
    const apiKeyForm = page.locator('.modal-ux .auth-container').filter({ hasText: 'x-api-key' });
    await apiKeyForm.locator('input[type="text"]').fill(acme.apiKey);
    await apiKeyForm.locator('button.authorize').click();
    // Authorized: the form says so, and now offers to remove it.
    await apiKeyForm.locator('h6', { hasText: 'Authorized' }).waitFor();
    await apiKeyForm.locator('button[aria-label="Remove authorization"]').waitFor();
    await apiKeyForm.locator('button.btn-done').click();

    const operation = page.locator('#operations-Groups-GroupsController_list');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    const [answer] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/groups'),
      operation.locator('button.execute').click(),
    ]);
    expect(answer.status()).toBe(200);
    expect(await answer.request().headerValue('x-api-key')).toBe(acme.apiKey);
    // Referrer-Policy: no-referrer holds for the page's own requests too.
    expect(await answer.request().headerValue('referer')).toBeNull();
    // The page shows the answer: its status and the group the key's enterprise has.
    const shown = operation.locator('.live-responses-table .response');
    await shown.waitFor();
    expect((await shown.locator('.response-col_status').textContent())?.trim()).toBe('200');
    expect(await shown.locator('.response-col_description').textContent()).toContain(
      'Seen through the docs',
    );
    expect(await problems()).toEqual({ violations: [], console: [] });
  });

  it('refuses an inline script injected into the page', async () => {
    await openDocs();
    const ran = await page.evaluate(`
      const script = document.createElement('script');
      script.textContent = 'window.injectedScriptRan = true;';
      document.body.appendChild(script);
      window.injectedScriptRan === true;`);
    expect(ran).toBe(false);
    expect(await violations()).toEqual([
      { directive: 'script-src-elem', blocked: 'inline', sample: '' },
    ]);
  });
});

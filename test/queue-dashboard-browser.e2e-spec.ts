/**
 * The queue dashboard's page (Bull Board, docs/operations.md "The queue dashboard") in a real
 * headless Chromium under its own Content-Security-Policy (docs/security.md): it renders the
 * queues with no violation but the Google Fonts stylesheet its page links (refused on purpose: no
 * third party learns who opens the dashboard), and an inline script injected into the page does
 * not run.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { startTestApp, TestApp } from './support/test-app';

jest.setTimeout(60_000);

const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';

interface Violation {
  directive: string;
  blocked: string;
}

describe('Queue dashboard in a real browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    t = await startTestApp({ ADMIN_TOKEN, RUN_WORKERS: 'false' });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('is served with a CSP of its own: script and styles from itself, no inline script, no third party', async () => {
    const response = await t.request('GET', '/admin/queues', {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|googleapis/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('renders the queues with no violation but the refused font stylesheet, and runs no injected inline script', async () => {
    const context = await browser.newContext({
      httpCredentials: { username: 'ops', password: ADMIN_TOKEN },
    });
    await context.addInitScript(`
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.cspViolations.push({ directive: event.violatedDirective, blocked: event.blockedURI });
      });`);
    const page = await context.newPage();
    try {
      const response = await page.goto(`${t.baseUrl}/admin/queues`);
      expect(response?.status()).toBe(200);
      await page.getByText('webhooks', { exact: false }).first().waitFor();
      await page.getByText('emails', { exact: false }).first().waitFor();
      const ran = await page.evaluate(`(() => {
        const script = document.createElement('script');
        script.textContent = 'window.injected = true';
        document.body.appendChild(script);
        return window.injected === true;
      })()`);
      expect(ran).toBe(false);
      const violations = await page.evaluate<Violation[]>('window.cspViolations');
      const unexpected = violations.filter(
        (violation) =>
          !violation.blocked.startsWith('https://fonts.googleapis.com/') &&
          !(violation.directive.startsWith('script-src') && violation.blocked === 'inline'),
      );
      expect(unexpected).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

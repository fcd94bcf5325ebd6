/**
 * The queue dashboard's own rules, below HTTP (docs/operations.md, "The queue dashboard"):
 * - the admin token is read from `Authorization: Bearer <token>` or from the password of basic
 *   auth (any user name); anything else presents no token;
 * - Redis's INFO and CLIENT LIST routes are not found, whatever the mode; read-only (the default)
 *   refuses every method but GET and HEAD with 403 and its exact message, also on routes Bull
 *   Board may add later;
 * - the page's Content-Security-Policy allows this origin's scripts and styles, exactly the page's
 *   inline styles by hash, no framing and no forms.
 */
import { createHash } from 'node:crypto';
import { CommonErrors } from '../common/errors/common.errors';
import {
  dashboardPolicy,
  dashboardRefusal,
  presentedAdminToken,
  QUEUE_DASHBOARD_PATH,
  QueueDashboardErrors,
} from './queue-dashboard';

const basic = (userAndPassword: string) =>
  `Basic ${Buffer.from(userAndPassword, 'utf8').toString('base64')}`;

describe('presentedAdminToken', () => {
  it.each([
    ['a bearer token', 'Bearer s3cret-token', 's3cret-token'],
    ['a bearer token, scheme in lower case', 'bearer s3cret-token', 's3cret-token'],
    ['basic auth with a user name', basic('admin:s3cret-token'), 's3cret-token'],
    ['basic auth without a user name', basic(':s3cret-token'), 's3cret-token'],
    ['basic auth, a password with colons', basic('anyone:pass:with:colons'), 'pass:with:colons'],
    ['basic auth, an empty password', basic('admin:'), ''],
  ])('reads %s', (_, header, token) => {
    expect(presentedAdminToken(header)).toBe(token);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['a bearer without a token', 'Bearer '],
    ['a bearer token with a space in it', 'Bearer two words'],
    ['basic auth without a password', basic('s3cret-token')],
    ['basic auth that is not base64', 'Basic !!!'],
    ['another scheme', 'Token s3cret-token'],
    ['the token alone', 's3cret-token'],
  ])('reads no token from %s', (_, header) => {
    expect(presentedAdminToken(header)).toBeNull();
  });
});

describe('dashboardRefusal', () => {
  const at = (path: string) => `${QUEUE_DASHBOARD_PATH}${path}`;
  const notFound = { status: 404, error: CommonErrors.NotFound };
  const readOnly = { status: 403, error: QueueDashboardErrors.ReadOnly };

  it('hides Redis INFO and the workers (CLIENT LIST), in either mode', () => {
    for (const write of [false, true]) {
      expect(dashboardRefusal('GET', at('/api/redis/stats'), write)).toEqual(notFound);
      expect(dashboardRefusal('GET', at('/api/redis/stats/?x=1'), write)).toEqual(notFound);
      expect(dashboardRefusal('GET', at('/api/queues/webhooks/workers'), write)).toEqual(notFound);
    }
  });

  it('read-only: answers GET and HEAD, refuses every other method with its message', () => {
    expect(dashboardRefusal('GET', at('/api/queues?page=1'), false)).toBeNull();
    expect(dashboardRefusal('HEAD', at('/'), false)).toBeNull();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(dashboardRefusal(method, at('/api/queues/webhooks/pause'), false)).toEqual(readOnly);
      expect(dashboardRefusal(method, at('/api/some/future/route'), false)).toEqual(readOnly);
    }
    expect(QueueDashboardErrors.ReadOnly).toBe(
      'The queue dashboard is read-only (ADMIN_DASHBOARD_WRITE)',
    );
  });

  it('with ADMIN_DASHBOARD_WRITE: lets writes through to Bull Board', () => {
    expect(dashboardRefusal('PUT', at('/api/queues/webhooks/pause'), true)).toBeNull();
    expect(dashboardRefusal('DELETE', at('/api/queues/webhooks/clean/failed'), true)).toBeNull();
  });
});

describe('dashboardPolicy', () => {
  const hash = (source: string) =>
    `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;

  it("allows this origin and exactly the page's inline styles, no framing, no forms", () => {
    const html =
      '<html><head><style>body{margin:0}</style></head>' +
      '<body><div style="display:none"></div><script src="/x.js"></script></body></html>';
    expect(dashboardPolicy(html)).toBe(
      [
        "default-src 'none'",
        "script-src 'self'",
        `style-src 'self' 'unsafe-hashes' ${hash('body{margin:0}')} ${hash('display:none')}`,
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'self'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
  });

  it('allows no inline style to a page without one', () => {
    expect(dashboardPolicy('<html><body></body></html>')).toContain("style-src 'self';");
  });
});

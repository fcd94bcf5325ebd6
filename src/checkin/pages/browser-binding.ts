/**
 * Participant links bound to a browser (docs/privacy.md). The enterprise receives the check-in link
 * (`redirectUrl`); so that it cannot act on the participant's behalf, the first browser to
 * "Start" a check-in (or to post on a settings link) owns the link: an HttpOnly, SameSite=Lax
 * cookie with a random value identifies it, and only its SHA-256 is stored. GET never binds, so
 * mail scanners and link previews change nothing.
 */
import { createParamDecorator, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { parseCookie, stringifySetCookie } from 'cookie';
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../common/crypto/secrets';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { LinkBindingsRepository } from './link-bindings.repository';

export const BROWSER_COOKIE = 'checkin_browser';
/** The browser stays recognised for later check-ins from the same links (180 days). */
const COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;

/** This browser as the request shows it: its cookie value, or none yet. */
export type Browser = string | null;

/** The requesting browser (its cookie), for page handlers: `@RequestBrowser() browser: Browser`. */
export const RequestBrowser = createParamDecorator(
  (_: unknown, context: ExecutionContext): Browser =>
    BrowserBinding.browserOf(
      context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers
        .cookie,
    ),
);

/** How a link stands with this browser. */
export type Binding = 'unbound' | 'here' | 'elsewhere';

/** The binding key of a check-in link (its session) or of one settings link (its token). */
export const checkinLink = (sessionId: string): string => `checkin:${sessionId}`;
export const settingsLink = (token: string): string => `settings:${sha256Hex(token)}`;

@Injectable()
export class BrowserBinding {
  private readonly secure: boolean;

  constructor(
    private readonly bindings: LinkBindingsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = config.publicBaseUrl.startsWith('https:');
  }

  /** The browser cookie of a request's `Cookie` header; null when absent or not ours. */
  static browserOf(cookieHeader: string | undefined): Browser {
    if (!cookieHeader) return null;
    const value = parseCookie(cookieHeader)[BROWSER_COOKIE];
    return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
  }

  async state(link: string, browser: Browser): Promise<Binding> {
    const holder = await this.bindings.holderOf(link);
    if (holder === null) return 'unbound';
    return browser !== null && holder === sha256Hex(browser) ? 'here' : 'elsewhere';
  }

  /**
   * Binds the link to this browser unless another holds it (the first wins, also when two
   * race); answers the outcome and, for a browser without a cookie yet, the cookie to set.
   */
  async bind(
    link: string,
    participantId: string,
    browser: Browser,
  ): Promise<{ binding: Exclude<Binding, 'unbound'>; setCookie: string | null }> {
    const value = browser ?? randomBytes(32).toString('base64url');
    const hash = sha256Hex(value);
    const binding =
      (await this.bindings.bind(link, hash, participantId)) === hash ? 'here' : 'elsewhere';
    return {
      binding,
      setCookie: binding === 'here' && browser === null ? this.cookie(value) : null,
    };
  }

  /**
   * Moves a settings link's binding to the link that replaces it (after its links were
   * revoked), so the browser that held the old link holds the new one; the participant's other
   * settings-link bindings, all of revoked links now, are dropped.
   */
  async move(from: string, to: string, participantId: string): Promise<void> {
    await this.bindings.move(from, to, participantId);
  }

  private cookie(value: string): string {
    return stringifySetCookie({
      name: BROWSER_COOKIE,
      value,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/',
      maxAge: COOKIE_MAX_AGE_SECONDS,
    });
  }
}

/**
 * Participant links bound to a browser (docs/privacy.md). The enterprise receives the check-in link
 * (`redirectUrl`); so that it cannot act on the participant's behalf, the first browser to
 * "Start" a check-in (or to post on a settings link) owns the link. GET never binds, so mail
 * scanners and link previews change nothing.
 *
 * The browser is identified by one cookie for the whole check-in host, minted by the server: a
 * random value, of which only the SHA-256 is stored (`browsers`). A value the server did not mint
 * (planted by another site or another client) is never adopted — the browser gets a fresh one.
 * **Every Start gives the browser a new value**, and everything the old one held (its links, the
 * raises it made, the answers it gave) moves to the new one; the old value stops working. So a
 * value the enterprise planted in a member's browser (one it minted for itself) is the member's
 * at her next Start, and no longer the enterprise's; a replaced value that comes back is an
 * unknown browser, and is logged and counted (`checkin_browser_replaced_identity_total`). Over
 * https the cookie is `__Host-checkin_browser` (Secure, Path=/, no Domain: no other host can set
 * or overwrite it); over plain http, for a laptop, it cannot be `__Host-` and is `checkin_browser`.
 */
import { createParamDecorator, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { parseCookie, stringifySetCookie } from 'cookie';
import { randomBytes } from 'node:crypto';
import type { Counter } from 'prom-client';
import { sha256Hex } from '../common/crypto/secrets';
import { Measurements } from '../common/measurements/measurements';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Database } from '../database/database';
import { MembershipsRepository } from '../participants/memberships.repository';
import { BrowsersRepository } from './browsers.repository';
import { LinkBindingsRepository } from './link-bindings.repository';

/** The browser cookie over https, and over plain http (where `__Host-` cannot be set). */
export const BROWSER_COOKIE = '__Host-checkin_browser';
export const PLAIN_BROWSER_COOKIE = 'checkin_browser';
/** The browser stays recognised for later check-ins from the same links (180 days). */
const COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/**
 * This browser as the request shows it: the values of its cookies under each name (or none).
 * Which of them identifies the browser, and whether the server minted it, is BrowserBinding's.
 */
export type Browser = { host: string | null; plain: string | null } | null;

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
  private readonly logger = new Logger(BrowserBinding.name);
  private readonly secure: boolean;
  /** The name this host sets: `__Host-` over https. */
  private readonly cookieName: string;
  private readonly replacedIdentities: Counter;

  constructor(
    private readonly db: Database,
    private readonly bindings: LinkBindingsRepository,
    private readonly browsers: BrowsersRepository,
    private readonly memberships: MembershipsRepository,
    measurements: Measurements,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = config.publicBaseUrl.startsWith('https:');
    this.cookieName = this.secure ? BROWSER_COOKIE : PLAIN_BROWSER_COOKIE;
    this.replacedIdentities = measurements.counter({
      name: 'checkin_browser_replaced_identity_total',
      help: 'Participant-page requests that brought a browser identity a later Start had replaced (a copied or planted cookie): treated as an unknown browser.',
    });
    this.replacedIdentities.inc(0);
  }

  /** The browser cookies of a request's `Cookie` header; null when it has neither. */
  static browserOf(cookieHeader: string | undefined): Browser {
    if (!cookieHeader) return null;
    const cookies = parseCookie(cookieHeader);
    const valid = (value: string | undefined) => (value && COOKIE_VALUE.test(value) ? value : null);
    const browser = {
      host: valid(cookies[BROWSER_COOKIE]),
      plain: valid(cookies[PLAIN_BROWSER_COOKIE]),
    };
    return browser.host === null && browser.plain === null ? null : browser;
  }

  /**
   * Whether this browser holds the link. Only a minted value can hold one (bind() mints), so a
   * planted value is never 'here', and a replaced one holds nothing any more (what it held
   * moved). On an https host only the `__Host-` cookie counts. A browser refused here that brings
   * a replaced identity is logged and counted.
   */
  async state(link: string, browser: Browser): Promise<Binding> {
    const holder = await this.bindings.holderOf(link);
    const identities = this.identities(browser);
    if (holder !== null && identities.includes(holder)) return 'here';
    const own = this.ownValue(browser);
    if (own !== null && (await this.browsers.identityOf(sha256Hex(own)))?.replacedBy) {
      this.replacedCameBack();
    }
    return holder === null ? 'unbound' : 'elsewhere';
  }

  /**
   * The identities (SHA-256 of cookie values) this browser holds links under: its own cookie
   * (this host's name), or none. A planted value holds no link (only minted values are bound), so
   * it matches nothing.
   */
  identities(browser: Browser): string[] {
    const own = this.ownValue(browser);
    return own === null ? [] : [sha256Hex(own)];
  }

  /** The identity (SHA-256) holding a link; null while it is unbound. */
  holderOf(link: string): Promise<string | null> {
    return this.bindings.holderOf(link);
  }

  /**
   * Binds the link to this browser unless another holds it (the first wins, also when two
   * race); answers the outcome and the cookie to set, if any. `rotate` (a check-in's Start):
   * the browser gets a new identity whatever it brought, and what its current one held moves
   * there; otherwise (a settings link's first post) a browser keeps its identity and only one
   * without gets a cookie.
   */
  async bind(
    link: string,
    participantId: string,
    browser: Browser,
    options: { rotate?: boolean } = {},
  ): Promise<{ binding: Exclude<Binding, 'unbound'>; setCookie: string | null }> {
    const own = this.ownValue(browser);
    const known = own === null ? null : await this.browsers.identityOf(sha256Hex(own));
    const current = known && known.replacedBy === null ? own : null;
    const holder = await this.bindings.holderOf(link);
    if (known?.replacedBy) {
      // A second Start of the same link in flight (a double click): the first answer already
      // gave this browser the identity that holds it. Nothing changes, no cookie.
      if (options.rotate && holder === known.replacedBy) {
        return { binding: 'here', setCookie: null };
      }
      this.replacedCameBack();
    }
    if (holder !== null && !this.identities(browser).includes(holder)) {
      // Another browser holds the link: refused before anything is minted or moved. (Rotating
      // first would strand what this browser held under a value the refusal never hands it.)
      return { binding: 'elsewhere', setCookie: null };
    }
    let value = current;
    if (options.rotate || current === null) {
      value = randomBytes(32).toString('base64url');
      await this.rotate(current, value);
    }
    const hash = sha256Hex(value!);
    const binding =
      (await this.bindings.bind(link, hash, participantId)) === hash ? 'here' : 'elsewhere';
    // A new identity that replaced one is the browser's whatever the outcome (the old one holds
    // nothing now); a new one that replaced none only when it holds the link.
    const replacing = current !== null && value !== current;
    return {
      binding,
      setCookie: value !== own && (binding === 'here' || replacing) ? this.cookie(value!) : null,
    };
  }

  /** Mints `value`; when it replaces `current`, everything `current` held moves to it. */
  private async rotate(current: string | null, value: string): Promise<void> {
    const to = sha256Hex(value);
    await this.db.transaction(async (sql) => {
      await this.browsers.mint(to, sql);
      if (current === null) return;
      const from = sha256Hex(current);
      await this.bindings.moveBrowser(from, to, sql);
      await this.memberships.moveBrowser(from, to, sql);
      await this.browsers.replace(from, to, sql);
    });
  }

  /** The value of this host's own cookie (`__Host-` over https, the plain one over http). */
  private ownValue(browser: Browser): string | null {
    return (this.secure ? browser?.host : browser?.plain) ?? null;
  }

  private replacedCameBack(): void {
    this.replacedIdentities.inc();
    this.logger.warn(
      'A browser identity replaced at a later Start came back (a copied or planted cookie): treated as an unknown browser',
    );
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
      name: this.cookieName,
      value,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/',
      maxAge: COOKIE_MAX_AGE_SECONDS,
    });
  }
}

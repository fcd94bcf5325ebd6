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
 *
 * **The device cookie** (`__Host-checkin_device`, or `checkin_device` over http) never rotates. An
 * identity is minted for the device of the browser it is set in, and it is that browser's only
 * when it comes with the same device cookie: a value minted for the enterprise's browser and
 * planted in the member's is there an unknown browser, so it never brings the enterprise's
 * links, raises or answers along (docs/privacy.md, "The browser identity rotates"). A browser
 * whose every cookie was copied is the same browser to any server: a device the employer
 * controls is outside what the service can protect, and the pages say so.
 *
 * **A double Start** (two requests of one browser in flight) gets one answer: the identity that
 * replaces a value is derived from it (an HMAC under the link secret), so the second request,
 * within a few seconds and from the same device, is given the same new value as the first.
 */
import { createParamDecorator, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { parseCookie, stringifySetCookie } from 'cookie';
import { createHmac, randomBytes } from 'node:crypto';
import type { Counter } from 'prom-client';
import { sha256Hex } from '../common/crypto/secrets';
import { Measurements } from '../common/measurements/measurements';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Database, Sql } from '../database/database';
import { MembershipsRepository } from '../participants/memberships.repository';
import { BrowsersRepository } from './browsers.repository';
import { LinkBindingsRepository } from './link-bindings.repository';

/** The browser cookie over https, and over plain http (where `__Host-` cannot be set). */
export const BROWSER_COOKIE = '__Host-checkin_browser';
export const PLAIN_BROWSER_COOKIE = 'checkin_browser';
/** The device cookie over https, and over plain http: it never rotates. */
export const DEVICE_COOKIE = '__Host-checkin_device';
export const PLAIN_DEVICE_COOKIE = 'checkin_device';
/** The browser stays recognised for later check-ins from the same links (180 days). */
const COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;
/** How long after a Start the replaced value still gets the same answer (a double Start). */
const DOUBLE_START_MS = 10_000;

/** A cookie's value under each of its names: over https (`__Host-`) and over plain http. */
interface CookieValues {
  host: string | null;
  plain: string | null;
}

/**
 * This browser as the request shows it: the values of its identity cookie under each name (or
 * none), and of its device cookie. Which of them counts, and whether the server minted it, is
 * BrowserBinding's.
 */
export type Browser = (CookieValues & { device: CookieValues }) | null;

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

/** What a request's identity cookie is to the server. */
type Presented =
  /** No identity cookie, or one the server never minted. */
  | { kind: 'none' }
  /** The browser's identity (minted for this device, not replaced). */
  | { kind: 'current'; value: string }
  /** Minted for another device: a planted copy. */
  | { kind: 'foreign' }
  /** Replaced at a later Start: by `replacedBy`, `replacedAt`. */
  | { kind: 'replaced'; value: string; replacedBy: string; replacedAt: Date; sameDevice: boolean };

@Injectable()
export class BrowserBinding {
  private readonly logger = new Logger(BrowserBinding.name);
  private readonly secure: boolean;
  /** The names this host sets: `__Host-` over https. */
  private readonly cookieName: string;
  private readonly deviceCookieName: string;
  private readonly rotationSecret: string;
  private readonly replacedIdentities: Counter;
  private readonly foreignIdentities: Counter;

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
    this.deviceCookieName = this.secure ? DEVICE_COOKIE : PLAIN_DEVICE_COOKIE;
    this.rotationSecret = config.checkin.tokenSecrets[0].secret;
    this.replacedIdentities = measurements.counter({
      name: 'checkin_browser_replaced_identity_total',
      help: 'Participant-page requests that brought a browser identity a later Start had replaced (a copied or planted cookie): treated as an unknown browser.',
    });
    this.replacedIdentities.inc(0);
    this.foreignIdentities = measurements.counter({
      name: 'checkin_browser_foreign_identity_total',
      help: 'Participant-page requests that brought a browser identity minted for another device (a planted or copied cookie): treated as an unknown browser.',
    });
    this.foreignIdentities.inc(0);
  }

  /** The browser cookies of a request's `Cookie` header; null when it has none of them. */
  static browserOf(cookieHeader: string | undefined): Browser {
    if (!cookieHeader) return null;
    const cookies = parseCookie(cookieHeader);
    const valid = (value: string | undefined) => (value && COOKIE_VALUE.test(value) ? value : null);
    const browser = {
      host: valid(cookies[BROWSER_COOKIE]),
      plain: valid(cookies[PLAIN_BROWSER_COOKIE]),
      device: { host: valid(cookies[DEVICE_COOKIE]), plain: valid(cookies[PLAIN_DEVICE_COOKIE]) },
    };
    return [browser.host, browser.plain, browser.device.host, browser.device.plain].every(
      (value) => value === null,
    )
      ? null
      : browser;
  }

  /**
   * Whether this browser holds the link. Only a minted value presented from the device it was
   * minted for can hold one (bind() mints), so a planted value is never 'here', and a replaced
   * one holds nothing any more (what it held moved). On an https host only the `__Host-` cookies
   * count. A browser refused here that brings a replaced or foreign identity is logged and counted.
   */
  async state(link: string, browser: Browser): Promise<Binding> {
    return (await this.standing(link, browser)).binding;
  }

  /**
   * `state` and `identities` from one look-up of the browser's identity, for a page that needs
   * both.
   */
  async standing(
    link: string,
    browser: Browser,
  ): Promise<{ binding: Binding; identities: string[] }> {
    const holder = await this.bindings.holderOf(link);
    const presented = await this.presented(browser);
    const identities = presented.kind === 'current' ? [sha256Hex(presented.value)] : [];
    if (holder !== null && identities.includes(holder)) return { binding: 'here', identities };
    this.countStranger(presented);
    return { binding: holder === null ? 'unbound' : 'elsewhere', identities };
  }

  /**
   * The identities (SHA-256 of cookie values) this browser holds links under: its own cookie
   * (this host's name), when the server minted it for this device and no Start replaced it; or
   * none.
   */
  async identities(browser: Browser): Promise<string[]> {
    const presented = await this.presented(browser);
    return presented.kind === 'current' ? [sha256Hex(presented.value)] : [];
  }

  /** The identity (SHA-256) holding a link; null while it is unbound. */
  holderOf(link: string): Promise<string | null> {
    return this.bindings.holderOf(link);
  }

  /**
   * Binds the link to this browser unless another holds it (the first wins, also when two
   * race); answers the outcome and the cookies to set. `rotate` (a check-in's Start): the browser
   * gets a new identity whatever it brought, and what its current one held moves there;
   * otherwise (a settings link's first post) a browser keeps its identity and only one without
   * gets a cookie. Only the browser's own identity (minted for its device) carries anything: a
   * planted one is left where it was, and the browser gets a fresh identity of its own.
   */
  async bind(
    link: string,
    participantId: string,
    browser: Browser,
    options: { rotate?: boolean } = {},
  ): Promise<{ binding: Exclude<Binding, 'unbound'>; setCookie: string[] }> {
    const device = await this.deviceOf(browser);
    const outcome = await this.db.transaction(async (sql) => {
      // The browser's identity row is locked: a double Start waits for the first, then answers
      // as it did.
      const presented = await this.presented(browser, sql, { lock: true });
      const holder = await this.bindings.holderOf(link, sql);
      if (presented.kind === 'replaced') {
        const repeat = this.repeatedStart(presented);
        if (repeat !== null && options.rotate && holder === repeat.hash) {
          // A second Start of this link in flight (a double click): the first already gave this
          // browser the value that replaced its own. It gets the same answer, cookie included.
          return { binding: 'here', value: repeat.value };
        }
      }
      this.countStranger(presented);
      const current = presented.kind === 'current' ? presented.value : null;
      if (holder !== null && (current === null || sha256Hex(current) !== holder)) {
        // Another browser holds the link: refused before anything is minted or moved. (Rotating
        // first would strand what this browser held under a value the refusal never hands it.)
        return { binding: 'elsewhere', value: null };
      }
      let value = current;
      if (options.rotate || current === null) {
        value = current === null ? randomBytes(32).toString('base64url') : this.successor(current);
        await this.rotate(current, value, device.hash, sql);
      }
      const hash = sha256Hex(value!);
      const bound = await this.bindings.bind(link, hash, participantId, sql);
      // A new identity that replaced one is the browser's whatever the outcome (the old one holds
      // nothing now); a new one that replaced none only when it holds the link.
      const binding = bound === hash ? 'here' : 'elsewhere';
      const replacing = current !== null && value !== current;
      return {
        binding,
        value: value !== current && (binding === 'here' || replacing) ? value : null,
      } as const;
    });
    // The identity cookie first, then the device cookie when this answer gave it one.
    const setCookie =
      outcome.value === null
        ? []
        : [
            this.cookie(this.cookieName, outcome.value),
            ...(device.minted ? [this.cookie(this.deviceCookieName, device.value)] : []),
          ];
    return { binding: outcome.binding as Exclude<Binding, 'unbound'>, setCookie };
  }

  /**
   * What the request's identity cookie is to the server (`lock`: its row stays locked for the
   * rest of the transaction `sql`).
   */
  private async presented(
    browser: Browser,
    sql: Sql = this.db,
    options: { lock?: boolean } = {},
  ): Promise<Presented> {
    const own = this.ownValue(browser);
    if (own === null) return { kind: 'none' };
    const known = await this.browsers.identityOf(sha256Hex(own), sql, options);
    if (known === null) return { kind: 'none' };
    const device = this.ownDevice(browser);
    const sameDevice =
      known.deviceHash === null || (device !== null && known.deviceHash === sha256Hex(device));
    if (known.replacedBy !== null) {
      return {
        kind: 'replaced',
        value: own,
        replacedBy: known.replacedBy,
        replacedAt: known.replacedAt!,
        sameDevice,
      };
    }
    return sameDevice ? { kind: 'current', value: own } : { kind: 'foreign' };
  }

  /**
   * The value a double Start's first request gave this browser, when `presented` was replaced by
   * it a moment ago from this device; null otherwise.
   */
  private repeatedStart(
    presented: Extract<Presented, { kind: 'replaced' }>,
  ): { value: string; hash: string } | null {
    if (!presented.sameDevice) return null;
    if (Date.now() - presented.replacedAt.getTime() > DOUBLE_START_MS) return null;
    const value = this.successor(presented.value);
    const hash = sha256Hex(value);
    return hash === presented.replacedBy ? { value, hash } : null;
  }

  /** The value that replaces `value` at a Start: derived, so a double Start gets the same one. */
  private successor(value: string): string {
    return this.derived('checkin-browser-rotation', value);
  }

  /** A cookie value derived from `value` under the link secret: no client can compute it. */
  private derived(purpose: string, value: string): string {
    return createHmac('sha256', this.rotationSecret)
      .update(`${purpose}:${value}`)
      .digest('base64url');
  }

  /**
   * Mints `value` for the device `deviceHash`; when it replaces `current`, everything `current`
   * held moves to it.
   */
  private async rotate(
    current: string | null,
    value: string,
    deviceHash: string,
    sql: Sql,
  ): Promise<void> {
    const to = sha256Hex(value);
    await this.browsers.mint(to, deviceHash, sql);
    if (current === null) return;
    const from = sha256Hex(current);
    await this.bindings.moveBrowser(from, to, sql);
    await this.memberships.moveBrowser(from, to, sql);
    await this.browsers.replace(from, to, sql);
  }

  /**
   * The device cookie this browser keeps, or a new one: a value the server never minted (no
   * identity names it) is not adopted. A browser without one that brings an identity gets one
   * derived from it, so the two requests of a double Start give it the same.
   */
  private async deviceOf(
    browser: Browser,
  ): Promise<{ value: string; hash: string; minted: boolean }> {
    const own = this.ownDevice(browser);
    if (own !== null && (await this.browsers.deviceKnown(sha256Hex(own)))) {
      return { value: own, hash: sha256Hex(own), minted: false };
    }
    const identity = this.ownValue(browser);
    const value =
      identity === null
        ? randomBytes(32).toString('base64url')
        : this.derived('checkin-device', identity);
    return { value, hash: sha256Hex(value), minted: true };
  }

  /** The value of this host's own identity cookie (`__Host-` over https, plain over http). */
  private ownValue(browser: Browser): string | null {
    return (this.secure ? browser?.host : browser?.plain) ?? null;
  }

  /** The value of this host's own device cookie. */
  private ownDevice(browser: Browser): string | null {
    return (this.secure ? browser?.device.host : browser?.device.plain) ?? null;
  }

  /** A replaced or foreign identity came with a request that it cannot serve: logged, counted. */
  private countStranger(presented: Presented): void {
    if (presented.kind === 'replaced') {
      this.replacedIdentities.inc();
      this.logger.warn(
        'A browser identity replaced at a later Start came back (a copied or planted cookie): treated as an unknown browser',
      );
    } else if (presented.kind === 'foreign') {
      this.foreignIdentities.inc();
      this.logger.warn(
        'A browser identity minted for another device was presented (a copied or planted cookie): treated as an unknown browser',
      );
    }
  }

  /**
   * Moves a settings link's binding to the link that replaces it (after its links were
   * revoked), so the browser that held the old link holds the new one; the participant's other
   * settings-link bindings, all of revoked links now, are dropped.
   */
  async move(from: string, to: string, participantId: string): Promise<void> {
    await this.bindings.move(from, to, participantId);
  }

  private cookie(name: string, value: string): string {
    return stringifySetCookie({
      name,
      value,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/',
      maxAge: COOKIE_MAX_AGE_SECONDS,
    });
  }
}

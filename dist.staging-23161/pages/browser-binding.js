"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
var BrowserBinding_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.BrowserBinding = exports.settingsLink = exports.checkinLink = exports.RequestBrowser = exports.PLAIN_DEVICE_COOKIE = exports.DEVICE_COOKIE = exports.PLAIN_BROWSER_COOKIE = exports.BROWSER_COOKIE = void 0;
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
const common_1 = require("@nestjs/common");
const cookie_1 = require("cookie");
const node_crypto_1 = require("node:crypto");
const secrets_1 = require("../common/crypto/secrets");
const measurements_1 = require("../common/measurements/measurements");
const config_module_1 = require("../config/config.module");
const database_1 = require("../database/database");
const memberships_repository_1 = require("../participants/memberships.repository");
const browsers_repository_1 = require("./browsers.repository");
const link_bindings_repository_1 = require("./link-bindings.repository");
/** The browser cookie over https, and over plain http (where `__Host-` cannot be set). */
exports.BROWSER_COOKIE = '__Host-checkin_browser';
exports.PLAIN_BROWSER_COOKIE = 'checkin_browser';
/** The device cookie over https, and over plain http: it never rotates. */
exports.DEVICE_COOKIE = '__Host-checkin_device';
exports.PLAIN_DEVICE_COOKIE = 'checkin_device';
/** The browser stays recognised for later check-ins from the same links (180 days). */
const COOKIE_MAX_AGE_SECONDS = 180 * 24 * 3600;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;
/** How long after a Start the replaced value still gets the same answer (a double Start). */
const DOUBLE_START_MS = 10_000;
/** The requesting browser (its cookie), for page handlers: `@RequestBrowser() browser: Browser`. */
exports.RequestBrowser = (0, common_1.createParamDecorator)((_, context) => BrowserBinding.browserOf(context.switchToHttp().getRequest().headers
    .cookie));
/** The binding key of a check-in link (its session) or of one settings link (its token). */
const checkinLink = (sessionId) => `checkin:${sessionId}`;
exports.checkinLink = checkinLink;
const settingsLink = (token) => `settings:${(0, secrets_1.sha256Hex)(token)}`;
exports.settingsLink = settingsLink;
let BrowserBinding = BrowserBinding_1 = class BrowserBinding {
    db;
    bindings;
    browsers;
    memberships;
    logger = new common_1.Logger(BrowserBinding_1.name);
    secure;
    /** The names this host sets: `__Host-` over https. */
    cookieName;
    deviceCookieName;
    rotationSecret;
    replacedIdentities;
    foreignIdentities;
    constructor(db, bindings, browsers, memberships, measurements, config) {
        this.db = db;
        this.bindings = bindings;
        this.browsers = browsers;
        this.memberships = memberships;
        this.secure = config.publicBaseUrl.startsWith('https:');
        this.cookieName = this.secure ? exports.BROWSER_COOKIE : exports.PLAIN_BROWSER_COOKIE;
        this.deviceCookieName = this.secure ? exports.DEVICE_COOKIE : exports.PLAIN_DEVICE_COOKIE;
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
    static browserOf(cookieHeader) {
        if (!cookieHeader)
            return null;
        const cookies = (0, cookie_1.parseCookie)(cookieHeader);
        const valid = (value) => (value && COOKIE_VALUE.test(value) ? value : null);
        const browser = {
            host: valid(cookies[exports.BROWSER_COOKIE]),
            plain: valid(cookies[exports.PLAIN_BROWSER_COOKIE]),
            device: { host: valid(cookies[exports.DEVICE_COOKIE]), plain: valid(cookies[exports.PLAIN_DEVICE_COOKIE]) },
        };
        return [browser.host, browser.plain, browser.device.host, browser.device.plain].every((value) => value === null)
            ? null
            : browser;
    }
    /**
     * Whether this browser holds the link. Only a minted value presented from the device it was
     * minted for can hold one (bind() mints), so a planted value is never 'here', and a replaced
     * one holds nothing any more (what it held moved). On an https host only the `__Host-` cookies
     * count. A browser refused here that brings a replaced or foreign identity is logged and counted.
     */
    async state(link, browser) {
        return (await this.standing(link, browser)).binding;
    }
    /**
     * `state` and `identities` from one look-up of the browser's identity, for a page that needs
     * both.
     */
    async standing(link, browser) {
        const holder = await this.bindings.holderOf(link);
        const presented = await this.presented(browser);
        const identities = presented.kind === 'current' ? [(0, secrets_1.sha256Hex)(presented.value)] : [];
        if (holder !== null && identities.includes(holder))
            return { binding: 'here', identities };
        this.countStranger(presented);
        return { binding: holder === null ? 'unbound' : 'elsewhere', identities };
    }
    /**
     * The identities (SHA-256 of cookie values) this browser holds links under: its own cookie
     * (this host's name), when the server minted it for this device and no Start replaced it; or
     * none.
     */
    async identities(browser) {
        const presented = await this.presented(browser);
        return presented.kind === 'current' ? [(0, secrets_1.sha256Hex)(presented.value)] : [];
    }
    /** The identity (SHA-256) holding a link; null while it is unbound. */
    holderOf(link) {
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
    async bind(link, participantId, browser, options = {}) {
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
            if (holder !== null && (current === null || (0, secrets_1.sha256Hex)(current) !== holder)) {
                // Another browser holds the link: refused before anything is minted or moved. (Rotating
                // first would strand what this browser held under a value the refusal never hands it.)
                return { binding: 'elsewhere', value: null };
            }
            let value = current;
            if (options.rotate || current === null) {
                value = current === null ? (0, node_crypto_1.randomBytes)(32).toString('base64url') : this.successor(current);
                await this.rotate(current, value, device.hash, sql);
            }
            const hash = (0, secrets_1.sha256Hex)(value);
            const bound = await this.bindings.bind(link, hash, participantId, sql);
            // A new identity that replaced one is the browser's whatever the outcome (the old one holds
            // nothing now); a new one that replaced none only when it holds the link.
            const binding = bound === hash ? 'here' : 'elsewhere';
            const replacing = current !== null && value !== current;
            return {
                binding,
                value: value !== current && (binding === 'here' || replacing) ? value : null,
            };
        });
        // The identity cookie first, then the device cookie when this answer gave it one.
        const setCookie = outcome.value === null
            ? []
            : [
                this.cookie(this.cookieName, outcome.value),
                ...(device.minted ? [this.cookie(this.deviceCookieName, device.value)] : []),
            ];
        return { binding: outcome.binding, setCookie };
    }
    /**
     * What the request's identity cookie is to the server (`lock`: its row stays locked for the
     * rest of the transaction `sql`).
     */
    async presented(browser, sql = this.db, options = {}) {
        const own = this.ownValue(browser);
        if (own === null)
            return { kind: 'none' };
        const known = await this.browsers.identityOf((0, secrets_1.sha256Hex)(own), sql, options);
        if (known === null)
            return { kind: 'none' };
        const device = this.ownDevice(browser);
        const sameDevice = known.deviceHash === null || (device !== null && known.deviceHash === (0, secrets_1.sha256Hex)(device));
        if (known.replacedBy !== null) {
            return {
                kind: 'replaced',
                value: own,
                replacedBy: known.replacedBy,
                replacedAt: known.replacedAt,
                sameDevice,
            };
        }
        return sameDevice ? { kind: 'current', value: own } : { kind: 'foreign' };
    }
    /**
     * The value a double Start's first request gave this browser, when `presented` was replaced by
     * it a moment ago from this device; null otherwise.
     */
    repeatedStart(presented) {
        if (!presented.sameDevice)
            return null;
        if (Date.now() - presented.replacedAt.getTime() > DOUBLE_START_MS)
            return null;
        const value = this.successor(presented.value);
        const hash = (0, secrets_1.sha256Hex)(value);
        return hash === presented.replacedBy ? { value, hash } : null;
    }
    /** The value that replaces `value` at a Start: derived, so a double Start gets the same one. */
    successor(value) {
        return this.derived('checkin-browser-rotation', value);
    }
    /** A cookie value derived from `value` under the link secret: no client can compute it. */
    derived(purpose, value) {
        return (0, node_crypto_1.createHmac)('sha256', this.rotationSecret)
            .update(`${purpose}:${value}`)
            .digest('base64url');
    }
    /**
     * Mints `value` for the device `deviceHash`; when it replaces `current`, everything `current`
     * held moves to it.
     */
    async rotate(current, value, deviceHash, sql) {
        const to = (0, secrets_1.sha256Hex)(value);
        await this.browsers.mint(to, deviceHash, sql);
        if (current === null)
            return;
        const from = (0, secrets_1.sha256Hex)(current);
        await this.bindings.moveBrowser(from, to, sql);
        await this.memberships.moveBrowser(from, to, sql);
        await this.browsers.replace(from, to, sql);
    }
    /**
     * The device cookie this browser keeps, or a new one: a value the server never minted (no
     * identity names it) is not adopted. A browser without one that brings an identity gets one
     * derived from it, so the two requests of a double Start give it the same.
     */
    async deviceOf(browser) {
        const own = this.ownDevice(browser);
        if (own !== null && (await this.browsers.deviceKnown((0, secrets_1.sha256Hex)(own)))) {
            return { value: own, hash: (0, secrets_1.sha256Hex)(own), minted: false };
        }
        const identity = this.ownValue(browser);
        const value = identity === null
            ? (0, node_crypto_1.randomBytes)(32).toString('base64url')
            : this.derived('checkin-device', identity);
        return { value, hash: (0, secrets_1.sha256Hex)(value), minted: true };
    }
    /** The value of this host's own identity cookie (`__Host-` over https, plain over http). */
    ownValue(browser) {
        return (this.secure ? browser?.host : browser?.plain) ?? null;
    }
    /** The value of this host's own device cookie. */
    ownDevice(browser) {
        return (this.secure ? browser?.device.host : browser?.device.plain) ?? null;
    }
    /** A replaced or foreign identity came with a request that it cannot serve: logged, counted. */
    countStranger(presented) {
        if (presented.kind === 'replaced') {
            this.replacedIdentities.inc();
            this.logger.warn('A browser identity replaced at a later Start came back (a copied or planted cookie): treated as an unknown browser');
        }
        else if (presented.kind === 'foreign') {
            this.foreignIdentities.inc();
            this.logger.warn('A browser identity minted for another device was presented (a copied or planted cookie): treated as an unknown browser');
        }
    }
    /**
     * Moves a settings link's binding to the link that replaces it (after its links were
     * revoked), so the browser that held the old link holds the new one; the participant's other
     * settings-link bindings, all of revoked links now, are dropped.
     */
    async move(from, to, participantId) {
        await this.bindings.move(from, to, participantId);
    }
    cookie(name, value) {
        return (0, cookie_1.stringifySetCookie)({
            name,
            value,
            httpOnly: true,
            sameSite: 'lax',
            secure: this.secure,
            path: '/',
            maxAge: COOKIE_MAX_AGE_SECONDS,
        });
    }
};
exports.BrowserBinding = BrowserBinding;
exports.BrowserBinding = BrowserBinding = BrowserBinding_1 = __decorate([
    (0, common_1.Injectable)(),
    __param(5, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [database_1.Database,
        link_bindings_repository_1.LinkBindingsRepository,
        browsers_repository_1.BrowsersRepository,
        memberships_repository_1.MembershipsRepository,
        measurements_1.Measurements, Object])
], BrowserBinding);
//# sourceMappingURL=browser-binding.js.map
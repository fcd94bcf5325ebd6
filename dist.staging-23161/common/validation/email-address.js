"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.isPlainEmailAddress = void 0;
exports.plainEmailAddress = plainEmailAddress;
/**
 * Participant emails are plain addresses only (docs/security.md): `local@domain`, one of them, nothing
 * else. A mail library reads an address field as a list: `Boss <a@x.com>`, `a,b@c.d`,
 * `a@x.com, b@y.com`, `team: a@x.com, b@y.com;` or `a@x.com (boss)` would each be one or several
 * recipients other than the string that was stored. So an address is accepted only when
 * nodemailer's own address parser — the one that would read it when the mail is sent — yields
 * exactly one mailbox, without a display name or group, equal to the (trimmed) input; and when it
 * also passes a deliberately plain shape check (one @, a dot in the domain, no whitespace, no
 * control or invisible characters, none of the characters that carry structure in an address
 * field, at most 254 characters). The address is then verified by the mail it receives, not by
 * a regular expression.
 */
const addressparser_1 = __importDefault(require("nodemailer/lib/addressparser"));
const MAX_LENGTH = 254;
/** One @; local part and domain free of whitespace and of `<>()[]\,;:"` (RFC 5322 specials). */
const PLAIN_SHAPE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/u;
/** Control, format (zero-width, bidi), surrogate, private-use, unassigned and separator characters. */
const HIDDEN = /[\p{C}\p{Z}]/u;
/**
 * The address in `value` when it is one plain email address (surrounding whitespace ignored),
 * else null. The result is exactly what nodemailer reads from it.
 */
function plainEmailAddress(value) {
    const email = value.trim();
    if (email.length > MAX_LENGTH || HIDDEN.test(email) || !PLAIN_SHAPE.test(email))
        return null;
    const parsed = (0, addressparser_1.default)(email);
    if (parsed.length !== 1)
        return null;
    const [entry] = parsed;
    if (entry.group !== undefined || entry.name !== '' || entry.address !== email)
        return null;
    return entry.address;
}
/** Whether `value` is one plain email address (see plainEmailAddress). */
const isPlainEmailAddress = (value) => plainEmailAddress(value) !== null;
exports.isPlainEmailAddress = isPlainEmailAddress;
//# sourceMappingURL=email-address.js.map
"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.sender = exports.tokenSecretList = exports.dataKeyList = exports.KEY_ID_PATTERN = exports.SINGLE_KEY_ID = exports.dataKey = exports.durationList = exports.duration = exports.url = exports.integer = exports.booleanString = void 0;
exports.parseDurations = parseDurations;
exports.secretBytes = secretBytes;
exports.trustProxy = trustProxy;
exports.senderAddress = senderAddress;
/**
 * The zod rules the variable declarations in config.ts are built from. Each takes the variable's
 * text and either yields its typed value or fails with the reason that follows the variable's
 * name in the start-up message (`PORT must be a whole number between 0 and 65535`).
 */
const node_net_1 = require("node:net");
const addressparser_1 = __importDefault(require("nodemailer/lib/addressparser"));
const zod_1 = require("zod");
exports.booleanString = zod_1.z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be true or false',
})
    .transform((value) => value === 'true' || value === '1' || value === 'yes');
const integer = (min, max) => zod_1.z
    .string()
    .regex(/^\d+$/, { error: `must be a whole number between ${min} and ${max}` })
    .transform(Number)
    .refine((value) => value >= min && value <= max, {
    error: `must be a whole number between ${min} and ${max}`,
});
exports.integer = integer;
const url = (protocols) => zod_1.z.string().refine((value) => {
    try {
        return protocols.includes(new URL(value).protocol);
    }
    catch {
        return false;
    }
}, { error: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` });
exports.url = url;
const DURATION_UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 };
/** `5s,5m,2h` → milliseconds. */
function parseDurations(list) {
    return list.split(',').map((item) => {
        const unit = item.slice(-1);
        return Number(item.slice(0, -1)) * DURATION_UNIT_MS[unit];
    });
}
/** One duration (`30m`) → milliseconds; `example` names two in the message. */
const duration = (example) => zod_1.z
    .string()
    .regex(/^\d+(s|m|h)$/, { error: `must be a duration like ${example}` })
    .transform((value) => parseDurations(value)[0]);
exports.duration = duration;
/** A comma-separated list of durations (`5s,5m,30m`) → milliseconds. */
const durationList = () => zod_1.z
    .string()
    .regex(/^\d+(s|m|h)(,\d+(s|m|h))*$/, {
    error: 'must be a comma-separated list of durations like 5s,5m,30m,2h',
})
    .transform(parseDurations);
exports.durationList = durationList;
/** A 32-byte secret given as 64 hex characters or base64; undefined when it is neither. */
function secretBytes(value) {
    if (/^[0-9a-fA-F]{64}$/.test(value))
        return Buffer.from(value, 'hex');
    if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value))
        return Buffer.from(value, 'base64');
    return undefined;
}
/** A 32-byte key as 64 hex characters or base64 → its bytes. */
const dataKey = () => zod_1.z
    .string()
    .refine((value) => secretBytes(value)?.length === 32, {
    error: 'must be 32 bytes, as 64 hex characters or base64 (openssl rand -base64 32)',
})
    .transform((value) => secretBytes(value));
exports.dataKey = dataKey;
/**
 * The key id of the single keys, `DATA_ENCRYPTION_KEY` and `CHECKIN_TOKEN_SECRET`: what they seal
 * or sign while no list is set, and what still reads under them once a list is added. Reserved:
 * the lists cannot name it.
 */
exports.SINGLE_KEY_ID = 'k0';
/** A key id: short, and free of the separators of ciphertexts (`.`), lists (`,`, `:`). */
exports.KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,16}$/;
/** `id:secret` entries of a key list, split (a secret may itself hold `:`). */
function keyListEntries(list) {
    return list.split(',').map((entry) => {
        const colon = entry.indexOf(':');
        return colon < 0
            ? { id: '', secret: entry.trim() }
            : { id: entry.slice(0, colon).trim(), secret: entry.slice(colon + 1).trim() };
    });
}
/**
 * `DATA_ENCRYPTION_KEYS` / `CHECKIN_TOKEN_SECRETS`: `id:secret,id:secret,…`, newest first.
 * Every problem is named with the entry's key id (never the secret).
 */
function keyList(kind, validSecret) {
    const secretRule = kind === 'data'
        ? 'a 32-byte key (64 hex characters or base64, openssl rand -base64 32)'
        : 'a secret of at least 32 characters';
    return zod_1.z
        .string()
        .superRefine((value, context) => {
        const seen = new Set();
        for (const [index, { id, secret }] of keyListEntries(value).entries()) {
            const where = `entry ${index + 1}`;
            const fail = (message) => context.addIssue({ code: 'custom', message });
            if (!exports.KEY_ID_PATTERN.test(id)) {
                fail(`must be a comma-separated list of id:secret, newest first, with ids of 1 to 16 letters, digits, _ or - (${where} has no valid key id)`);
            }
            else if (id === exports.SINGLE_KEY_ID) {
                fail(`must not use the key id ${exports.SINGLE_KEY_ID}, which names the single key (${where})`);
            }
            else if (seen.has(id)) {
                fail(`names the key id ${id} twice`);
            }
            else if (!validSecret(secret)) {
                fail(`key ${id} must be ${secretRule}`);
            }
            seen.add(id);
        }
    })
        .transform(keyListEntries);
}
/** `DATA_ENCRYPTION_KEYS` → `{ id, key }`, newest first. */
const dataKeyList = () => keyList('data', (value) => secretBytes(value)?.length === 32).transform((entries) => entries.map(({ id, secret }) => ({ id, key: secretBytes(secret) })));
exports.dataKeyList = dataKeyList;
/** `CHECKIN_TOKEN_SECRETS` → `{ id, secret }`, newest first. */
const tokenSecretList = () => keyList('token', (value) => value.length >= 32);
exports.tokenSecretList = tokenSecretList;
/** The names proxy-addr (Fastify's `trustProxy`) knows for address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
/** `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`, or a range name. */
function isProxyAddress(entry) {
    if (PROXY_RANGE_NAMES.includes(entry))
        return true;
    const [address, prefix, ...rest] = entry.split('/');
    const version = (0, node_net_1.isIP)(address);
    if (version === 0 || rest.length > 0)
        return false;
    if (prefix === undefined)
        return true;
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}
/**
 * `TRUST_PROXY`: which proxies' `X-Forwarded-For` decides the client address (the limits per
 * address, docs/security.md). `none` (or `false`, `0`): the peer's address is the client's; a whole
 * number: that many proxies in front of the service; or a comma-separated list of proxy
 * addresses/CIDRs. `true` (trust any header) is refused: every client could then choose its own
 * address.
 */
function trustProxy() {
    const rule = 'must be none, the number of proxies in front of the service (e.g. 1), or a ' +
        'comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.0/8,192.168.1.5)';
    return zod_1.z
        .string()
        .superRefine((value, context) => {
        const fail = (message) => context.addIssue({ code: 'custom', message });
        if (value === 'none' || value === 'false')
            return;
        if (value === 'true') {
            fail('must not be true: every client could then choose its own address with ' +
                'X-Forwarded-For; give the number of proxies (e.g. 1) or their addresses');
        }
        else if (/^\d+$/.test(value)) {
            if (Number(value) > 100)
                fail(rule);
        }
        else if (!value.split(',').every((entry) => isProxyAddress(entry.trim()))) {
            fail(rule);
        }
    })
        .transform((value) => {
        if (value === 'none' || value === 'false' || value === '0')
            return false;
        if (/^\d+$/.test(value))
            return Number(value);
        return value.split(',').map((entry) => entry.trim());
    });
}
/** One address without structure characters: `local@domain.tld`. */
const SENDER_SHAPE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/u;
/**
 * The address of a sender setting (EMAIL_FROM: `Name <address>` or an address), as the mail
 * library reads it, when it holds exactly one plain address; else null. Its display name is not
 * used: each mail is sent in the enterprise's name (docs/emails.md).
 */
function senderAddress(value) {
    const parsed = (0, addressparser_1.default)(value);
    if (parsed.length !== 1 || parsed[0].group !== undefined)
        return null;
    return SENDER_SHAPE.test(parsed[0].address) ? parsed[0].address : null;
}
/** EMAIL_FROM: one sender address, with or without a display name. */
const sender = (example) => zod_1.z.string().refine((value) => senderAddress(value) !== null, {
    error: `must be an address like "${example}"`,
});
exports.sender = sender;
//# sourceMappingURL=validators.js.map
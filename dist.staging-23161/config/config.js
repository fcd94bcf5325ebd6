"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ConfigError = exports.REQUIRED_SECRETS = exports.CONFIG_VARIABLES = exports.VARIABLES = exports.DEVELOPMENT_COMMANDS = exports.opsPortOf = exports.OPS_PORT_DEFAULTS = exports.LOCAL_SECRETS_FILE_DEFAULT = exports.GROUPS = exports.SINGLE_KEY_ID = exports.KEY_ID_PATTERN = void 0;
exports.randomSecrets = randomSecrets;
exports.missingSecrets = missingSecrets;
exports.loadConfig = loadConfig;
/**
 * The one place that reads the environment, and the one place a variable is declared.
 *
 * `DECLARATIONS` below is shaped like the typed configuration every module receives (`AppConfig`,
 * see config.module.ts): at each place sits the declaration of the variable whose value lands
 * there — its name, its zod rule, its default, a description, whether it is a secret and what
 * production demands of it. From that tree follow the type (`AppConfig`), the parsing
 * (`loadConfig`: every variable validated at start-up, a wrong value stops the process with the
 * variable's name and the reason), the secret lists, `CONFIG_VARIABLES`, `.env.example` and the
 * table in docs/configuration.md (`npm run config:docs`; a unit test fails when they drift).
 * Adding a variable is one declaration here, and its use. Settings computed from several
 * variables are `combine(…)`s; rules across variables are the named functions at the end.
 * See docs/configuration.md.
 */
const node_crypto_1 = require("node:crypto");
const zod_1 = require("zod");
const validators_1 = require("./validators");
const variable_1 = require("./variable");
var validators_2 = require("./validators");
Object.defineProperty(exports, "KEY_ID_PATTERN", { enumerable: true, get: function () { return validators_2.KEY_ID_PATTERN; } });
Object.defineProperty(exports, "SINGLE_KEY_ID", { enumerable: true, get: function () { return validators_2.SINGLE_KEY_ID; } });
/** The sections of docs/configuration.md and .env.example, in order. */
exports.GROUPS = {
    service: { title: 'Service' },
    database: { title: 'PostgreSQL' },
    redis: { title: 'Redis, queues and workers' },
    limits: {
        title: 'API keys, rate limits and client addresses',
        description: 'The limits are shared by every API process through Redis, in fixed windows; 0 turns one ' +
            'off. If Redis cannot answer, requests are let through (fail open).',
    },
    keys: {
        title: 'Keys: participant data at rest and signed links',
        description: 'A key id is 1-16 letters, digits, _ or -; k0 is reserved for the single variables. A ' +
            'malformed list, a key that is not 32 bytes, a secret under 32 characters, a repeated id ' +
            'or k0 in a list stops the API, the worker and the CLI with one line naming the variable ' +
            'and the entry; secrets are never repeated in the message. See docs/data-at-rest.md.',
    },
    engine: { title: 'The analysis engine' },
    pages: {
        title: 'Participant pages',
        description: 'Who runs the service, as the start and consent pages tell participants before anything ' +
            'is recorded (docs/i18n.md).',
    },
    webhooks: { title: 'Webhooks and the queue dashboard', description: 'See docs/webhooks.md.' },
    emails: {
        title: 'Emails',
        description: 'With SMTP_URL mails go through pooled SMTP. With MAIL_TRANSPORT=file each mail is ' +
            'written as an .eml file under MAIL_DIR (the log says where): the default in development ' +
            'and test. Production refuses to start with neither SMTP_URL nor an explicit ' +
            "MAIL_TRANSPORT=file (mails carry participants' links). See docs/emails.md.",
    },
    metrics: {
        title: 'Group metrics',
        description: 'Group mhci and wordcloud read differentially private releases of calendar windows, made ' +
            'by the workers and by the first read after a window is due. See docs/metrics.md.',
    },
    retention: {
        title: 'Retention',
        description: 'Run by the workers. Idempotency records go after 24 h, events’ personal data once ' +
            'delivered. See docs/data-at-rest.md.',
    },
    operations: {
        title: 'Operations port: metrics, liveness, readiness',
        description: 'The API and the worker each serve GET /metrics (Prometheus text), /livez and /readyz on ' +
            'a port of their own, never on the API port. See docs/operations.md.',
    },
    traces: {
        title: 'Traces (OpenTelemetry)',
        description: 'Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then the API and the workers send spans ' +
            '(HTTP, Fastify, PostgreSQL, Redis, webhook deliveries, emails) over OTLP/HTTP. Unset, ' +
            'nothing of OpenTelemetry is loaded. See docs/operations.md (Traces).',
    },
    development: { title: 'Development and tests' },
};
/** Where `npm start` (development) and tests keep the secrets they generate on first start. */
exports.LOCAL_SECRETS_FILE_DEFAULT = 'var/local-secrets.env';
/** The limits per client address count in fixed windows of one minute. */
const ADDRESS_LIMIT_WINDOW_MS = 60_000;
// Variables that more than one setting reads are declared first, then placed in the tree.
const NODE_ENV = (0, variable_1.variable)({
    name: 'NODE_ENV',
    group: 'service',
    schema: zod_1.z.enum(['development', 'test', 'production'], {
        error: 'must be one of development, test, production',
    }),
    default: 'production',
    example: 'production',
    description: '`development`, `test` or `production`. Unset means production, so that forgetting it ' +
        'cannot run a deployment with development settings; `npm start` sets development (demo ' +
        'enterprise, generated secrets, mails as files).',
});
const PORT = (0, variable_1.variable)({
    name: 'PORT',
    group: 'service',
    schema: (0, validators_1.integer)(0, 65535),
    default: '3000',
    description: 'Port the HTTP API listens on.',
});
const DATA_ENCRYPTION_KEY = (0, variable_1.variable)({
    name: 'DATA_ENCRYPTION_KEY',
    group: 'keys',
    schema: (0, validators_1.dataKey)(),
    secret: true,
    generate: () => (0, node_crypto_1.randomBytes)(32).toString('base64'),
    production: { required: true },
    description: 'Participant data at rest: 32 bytes as 64 hex characters or base64 (openssl rand -base64 ' +
        '32). Emails, transcripts and webhook secrets are encrypted (AES-256-GCM) with a key ' +
        'derived from it (key id k0) or from the newest DATA_ENCRYPTION_KEYS entry; emails are ' +
        'looked up by an HMAC derived from it, which is never rotated, so keep it set.',
});
const SMTP_URL = (0, variable_1.optional)({
    name: 'SMTP_URL',
    group: 'emails',
    schema: (0, validators_1.url)(['smtp:', 'smtps:']),
    example: 'smtp://127.0.0.1:1025',
    redacted: true,
    production: {
        required: true,
        unlessSet: 'MAIL_TRANSPORT',
        hint: ' (or MAIL_TRANSPORT=file to write mails as files under MAIL_DIR)',
    },
    description: 'Send mails through pooled SMTP: smtp:// or smtps://user:pass@host:port.',
});
const DECLARATIONS = {
    /** `NODE_ENV`; production when unset (docs/security.md). */
    env: NODE_ENV,
    isProduction: (0, variable_1.combine)({ env: NODE_ENV }, ({ env }) => env === 'production'),
    host: (0, variable_1.variable)({
        name: 'HOST',
        group: 'service',
        schema: zod_1.z.string().min(1, { error: 'must not be empty' }),
        default: '0.0.0.0',
        description: 'Interface the HTTP API listens on.',
    }),
    port: PORT,
    /** Without PUBLIC_BASE_URL (never in production): http://localhost:PORT. */
    publicBaseUrl: (0, variable_1.combine)({
        port: PORT,
        url: (0, variable_1.optional)({
            name: 'PUBLIC_BASE_URL',
            group: 'service',
            schema: (0, validators_1.url)(['http:', 'https:']).transform((value) => value.replace(/\/+$/, '')),
            example: 'https://checkin.example.com',
            whenUnset: '`http://localhost:$PORT`',
            production: {
                required: true,
                hint: ', to the https:// address participants reach',
                refuse: (value) => new URL(value).protocol !== 'https:'
                    ? `must be an https:// URL in production (got "${value}")`
                    : undefined,
            },
            description: 'The address participants and integrators reach us at (check-in links, Swagger ' +
                '"servers"); https:// in production.',
        }),
    }, ({ port, url }) => url ?? `http://localhost:${port}`),
    logLevel: (0, variable_1.variable)({
        name: 'LOG_LEVEL',
        group: 'service',
        schema: zod_1.z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
            error: 'must be one of fatal, error, warn, info, debug, trace, silent',
        }),
        default: 'info',
        description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines on ' +
            'stdout (readable ones at a development terminal).',
    }),
    database: {
        url: (0, variable_1.variable)({
            name: 'DATABASE_URL',
            group: 'database',
            schema: (0, validators_1.url)(['postgres:', 'postgresql:']),
            default: 'postgres://postgres@127.0.0.1:5432/checkin',
            description: 'The PostgreSQL database, created at start-up when missing.',
        }),
        poolSize: (0, variable_1.variable)({
            name: 'DB_POOL_SIZE',
            group: 'database',
            schema: (0, validators_1.integer)(1, 1000),
            default: '10',
            description: 'Connections per process.',
        }),
        migrateOnStart: (0, variable_1.variable)({
            name: 'DB_MIGRATE_ON_START',
            group: 'database',
            schema: validators_1.booleanString,
            default: 'true',
            description: 'Run pending migrations at start-up (under an advisory lock, safe with several ' +
                'processes).',
        }),
    },
    /** SIGTERM: how long the API keeps serving (health 503) before it closes. */
    shutdownDrainMs: (0, variable_1.variable)({
        name: 'SHUTDOWN_DRAIN_MS',
        group: 'service',
        schema: (0, validators_1.integer)(0, 600_000),
        default: '5000',
        description: 'On SIGTERM the API keeps serving this long (ms) while /health answers 503 and responses ' +
            'say "Connection: close", so a load balancer moves traffic away; then it stops listening, ' +
            "finishes in-flight requests and exits 0. Set it to your load balancer's health-check " +
            'interval × failures.',
    }),
    /**
     * The operations port (docs/operations.md, "Monitoring"): `port` null means the process's own
     * default ({@link opsPortOf}: 9464 for the API, 9465 for the worker); 0 turns it off.
     */
    ops: {
        port: (0, variable_1.optional)({
            name: 'OPS_PORT',
            group: 'operations',
            schema: (0, validators_1.integer)(0, 65535),
            example: '9464',
            whenUnset: '9464 for the API, 9465 for the worker',
            description: 'Port of the operations server (GET /metrics, /livez, /readyz); 0 turns it off, and with ' +
                'it the request-duration measurement. A port already in use stops the process. Set it ' +
                'per process when several run on one host.',
        }),
        host: (0, variable_1.variable)({
            name: 'OPS_HOST',
            group: 'operations',
            schema: zod_1.z.string().min(1, { error: 'must not be empty' }),
            default: '127.0.0.1',
            description: 'Interface of the operations server. Its figures are for operators, not tenants: bind ' +
                'it where only your Prometheus reaches it (0.0.0.0 inside a container).',
        }),
    },
    /** Redis, and the key prefix of this deployment's queues. */
    redis: {
        url: (0, variable_1.variable)({
            name: 'REDIS_URL',
            group: 'redis',
            schema: (0, validators_1.url)(['redis:', 'rediss:']),
            default: 'redis://127.0.0.1:6379',
            description: 'Redis (queues and shared limits); must be reachable at start-up.',
        }),
        queuePrefix: (0, variable_1.variable)({
            name: 'QUEUE_PREFIX',
            group: 'redis',
            schema: zod_1.z
                .string()
                .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be 1 to 64 letters, digits, _ or -' }),
            default: 'checkin',
            description: 'Key prefix of the queues in Redis (several deployments can share one Redis).',
        }),
    },
    apiKeyCacheTtlMs: (0, variable_1.variable)({
        name: 'API_KEY_CACHE_TTL_MS',
        group: 'limits',
        schema: (0, validators_1.integer)(0, 60_000),
        default: '5000',
        description: 'How long an API key lookup is cached in-process (ms); a revoked key stops working ' +
            'within this.',
    }),
    /** Per API key, shared through Redis; requests 0 = off (docs/api.md). */
    rateLimit: {
        requests: (0, variable_1.variable)({
            name: 'RATE_LIMIT_REQUESTS',
            group: 'limits',
            schema: (0, validators_1.integer)(0, 1_000_000_000),
            default: '6000',
            description: 'Per API key: at most this many requests per RATE_LIMIT_WINDOW, then 429 {"error":"Too ' +
                'many requests"} with Retry-After. Counted in each process and settled with Redis ' +
                'every 100 ms or every RATE_LIMIT_REQUESTS/100 hits, so several processes may let ' +
                'through up to about 2 × processes × (limit/100) more.',
        }),
        windowMs: (0, variable_1.variable)({
            name: 'RATE_LIMIT_WINDOW',
            group: 'limits',
            schema: zod_1.z
                .string()
                .regex(/^\d+(s|m|h)$/, { error: 'must be a duration like 60s or 1m' })
                .refine((value) => (0, validators_1.parseDurations)(value)[0] > 0, { error: 'must be longer than 0s' })
                .transform((value) => (0, validators_1.parseDurations)(value)[0]),
            default: '1m',
            description: 'The window of RATE_LIMIT_REQUESTS (s, m or h).',
        }),
    },
    /**
     * Per client address, shared through Redis, in a fixed window; 0 = off (docs/security.md).
     * `publicRequests`: requests to the participant pages and the ingestion endpoint;
     * `authFailures`: requests refused for a missing or wrong key or engine token, past which every
     * API request from the address is refused for the rest of the window.
     */
    addressLimits: {
        publicRequests: (0, variable_1.variable)({
            name: 'PUBLIC_RATE_LIMIT_REQUESTS',
            group: 'limits',
            schema: (0, validators_1.integer)(0, 1_000_000_000),
            default: '300',
            description: 'Per client address and minute: requests to the participant pages (/checkin/…, ' +
                '/participant/…) and to the ingestion endpoint (the engine itself, presenting ' +
                'ENGINE_TOKEN, is not counted).',
        }),
        authFailures: (0, variable_1.variable)({
            name: 'AUTH_FAILURE_LIMIT',
            group: 'limits',
            schema: (0, validators_1.integer)(0, 1_000_000_000),
            default: '30',
            description: 'Per client address and minute: requests refused for a missing or wrong API key or ' +
                'engine token, past which further failures from that address are answered 429 instead ' +
                'of 401 for the rest of the minute. Valid keys are always served.',
        }),
        windowMs: ADDRESS_LIMIT_WINDOW_MS,
    },
    /**
     * Fastify's `trustProxy`, so that `request.ip` is the client's address behind proxies: false
     * (the peer is the client), a number of proxies, or the proxies' addresses/CIDRs.
     */
    trustProxy: (0, variable_1.variable)({
        name: 'TRUST_PROXY',
        group: 'limits',
        schema: (0, validators_1.trustProxy)(),
        default: 'none',
        example: '10.0.0.0/8',
        production: {
            required: true,
            hint: ': none (clients connect to the service directly), the number of proxies in front of ' +
                'it, or their addresses/CIDRs, so that the limits per client address never count a load ' +
                'balancer as one client (docs/security.md)',
        },
        description: 'Which X-Forwarded-For to believe for the client address, behind a load balancer or ' +
            "reverse proxy (else every client shares the proxy's address): the proxies' addresses " +
            'or CIDRs, comma-separated, or their number (e.g. 1; only when clients cannot reach the ' +
            'service except through them); none (false is accepted too): the connecting peer is the ' +
            'client; true is refused. Required in production, said explicitly.',
    }),
    /** Create a demo enterprise (and print its key) when the database has none. */
    demoBootstrap: (0, variable_1.variable)({
        name: 'DEMO_BOOTSTRAP',
        group: 'development',
        schema: validators_1.booleanString,
        default: 'false',
        developmentDefault: 'true',
        example: 'true',
        description: 'Create a demo enterprise and print its API key when the database has none.',
    }),
    /**
     * 32-byte `DATA_ENCRYPTION_KEY`: the root of the email look-up hashes (HMAC, never rotated:
     * equal emails must keep equal hashes) and the data key with id `k0`.
     */
    dataEncryptionKey: DATA_ENCRYPTION_KEY,
    /**
     * The data keys for personal data at rest (AES-256-GCM, via HKDF), newest first: those of
     * `DATA_ENCRYPTION_KEYS`, then `k0` = `DATA_ENCRYPTION_KEY`. New ciphertexts use the first.
     */
    dataKeys: (0, variable_1.combine)({
        listed: (0, variable_1.optional)({
            name: 'DATA_ENCRYPTION_KEYS',
            group: 'keys',
            schema: (0, validators_1.dataKeyList)(),
            secret: true,
            example: 'k2:<32 bytes base64>,k1:<32 bytes base64>',
            description: "Rotation: more data keys, newest first, as id:key (k0 is DATA_ENCRYPTION_KEY's). New " +
                'ciphertexts use the first; each older one still decrypts while it is listed.',
        }),
        single: DATA_ENCRYPTION_KEY,
    }, ({ listed, single }) => [...(listed ?? []), { id: validators_1.SINGLE_KEY_ID, key: single }]),
    checkin: {
        /**
         * Link-signing secrets, newest first: `CHECKIN_TOKEN_SECRETS`, then `k0` =
         * `CHECKIN_TOKEN_SECRET` when set (or, with neither set outside production, the development
         * secret). New links are signed with the first; a removed key's links no longer verify.
         */
        tokenSecrets: (0, variable_1.combine)({
            single: (0, variable_1.optional)({
                name: 'CHECKIN_TOKEN_SECRET',
                group: 'keys',
                schema: zod_1.z.string().min(32, { error: 'must be at least 32 characters' }),
                secret: true,
                generate: () => (0, node_crypto_1.randomBytes)(32).toString('base64url'),
                production: { required: true, unlessSet: 'CHECKIN_TOKEN_SECRETS' },
                description: 'Check-in links (redirectUrl, settings links in emails) are signed with this secret ' +
                    '(at least 32 characters, key id k0; openssl rand -base64 32) and expire after ' +
                    'CHECKIN_TOKEN_TTL_HOURS.',
            }),
            listed: (0, variable_1.optional)({
                name: 'CHECKIN_TOKEN_SECRETS',
                group: 'keys',
                schema: (0, validators_1.tokenSecretList)(),
                secret: true,
                example: 't2:<secret>,t1:<secret>',
                description: 'Rotation: link secrets, newest first, as id:secret (at least 32 characters each). ' +
                    'New links are signed with the first; a link verifies while its key is listed (or ' +
                    'is k0 and CHECKIN_TOKEN_SECRET is set). In production it may replace ' +
                    'CHECKIN_TOKEN_SECRET.',
            }),
        }, ({ single, listed }) => [
            ...(listed ?? []),
            ...(single !== null ? [{ id: validators_1.SINGLE_KEY_ID, secret: single }] : []),
        ]),
        tokenTtlHours: (0, variable_1.variable)({
            name: 'CHECKIN_TOKEN_TTL_HOURS',
            group: 'keys',
            schema: (0, validators_1.integer)(1, 24 * 30),
            default: '24',
            description: 'Check-in links expire after this many hours (1-720).',
        }),
        /** Who operates the service, named on the start and consent pages. */
        operatorName: (0, variable_1.optional)({
            name: 'OPERATOR_NAME',
            group: 'pages',
            schema: zod_1.z
                .string()
                .trim()
                .min(1)
                .max(200, { error: 'must be at most 200 characters' })
                // eslint-disable-next-line no-control-regex
                .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), {
                error: 'must not contain control characters',
            }),
            example: 'Wellbeing Services Ltd',
            whenUnset: 'outside production, a placeholder saying it is not configured',
            production: {
                required: true,
                hint: ': participants are told who runs the service before anything is recorded',
            },
            description: 'Who operates this service (the data processor participants deal with), named on the ' +
                'start and consent pages with a link to PRIVACY_NOTICE_URL.',
        }),
        /** The operator's privacy notice, linked from the start and consent pages. */
        privacyNoticeUrl: (0, variable_1.optional)({
            name: 'PRIVACY_NOTICE_URL',
            group: 'pages',
            schema: (0, validators_1.url)(['https:']),
            example: 'https://wellbeing.example.com/privacy',
            whenUnset: 'outside production, a placeholder saying it is not configured',
            production: { required: true, hint: " (https://): the operator's privacy notice" },
            description: "The operator's privacy notice (https://), linked from the start and consent pages.",
        }),
        /** Where the check-in page hands the participant to the analysis engine; unset: no hand-off link. */
        engineUrl: (0, variable_1.optional)({
            name: 'ENGINE_URL',
            group: 'engine',
            schema: (0, validators_1.url)(['http:', 'https:']),
            example: 'https://engine.example.com/checkin',
            whenUnset: 'no hand-off link',
            description: 'Where the check-in page sends the participant (?sessionID=…&handoff=… are appended; ' +
                'the engine confirms the hand-off at /checkin/confirm, docs/checkin-flow.md).',
        }),
    },
    /** Bearer token the analysis engine presents to the ingestion endpoint. */
    engineToken: (0, variable_1.variable)({
        name: 'ENGINE_TOKEN',
        group: 'engine',
        schema: zod_1.z.string().min(32, { error: 'must be at least 32 characters' }),
        secret: true,
        generate: () => (0, node_crypto_1.randomBytes)(32).toString('base64url'),
        production: { required: true },
        description: 'The bearer token the engine presents to POST /internal/sessions/{id}/result (at least 32 ' +
            'characters).',
    }),
    /** Run the queue processors (webhook deliveries) in this process too. */
    runWorkers: (0, variable_1.variable)({
        name: 'RUN_WORKERS',
        group: 'redis',
        schema: validators_1.booleanString,
        default: 'true',
        description: 'Queue processors (webhook deliveries) also run inside the API process. Set false when ' +
            'running separate workers (npm run start:worker).',
    }),
    webhooks: {
        /** Development and tests only: allow http:// and private addresses (refused in production). */
        allowPrivateUrls: (0, variable_1.variable)({
            name: 'WEBHOOK_ALLOW_PRIVATE_URLS',
            group: 'webhooks',
            schema: validators_1.booleanString,
            // On in development, so a receiver on the developer's machine works (the quickstart).
            default: 'false',
            developmentDefault: 'true',
            example: 'true',
            production: {
                refuse: (value) => (value ? 'must not be true in production' : undefined),
            },
            description: 'Allow http:// webhook URLs and private or loopback addresses (local receivers); true ' +
                'is refused in production.',
        }),
        /** Delay before each retry, in ms (the first attempt is immediate). */
        retryScheduleMs: (0, variable_1.variable)({
            name: 'WEBHOOK_RETRY_SCHEDULE',
            group: 'webhooks',
            schema: (0, validators_1.durationList)(),
            default: '5s,5m,30m,2h,5h,10h,10h,24h',
            description: 'Delays before each retry of a failed delivery (s, m, h); the first attempt is ' +
                'immediate.',
        }),
        timeoutMs: (0, variable_1.variable)({
            name: 'WEBHOOK_TIMEOUT_MS',
            group: 'webhooks',
            schema: (0, validators_1.integer)(100, 120_000),
            default: '15000',
            description: 'Timeout of a delivery request (ms).',
        }),
        sweepIntervalMs: (0, variable_1.variable)({
            name: 'WEBHOOK_SWEEP_INTERVAL_MS',
            group: 'webhooks',
            schema: (0, validators_1.integer)(50, 600_000),
            default: '1000',
            description: 'How often the sweeper looks for due or stuck deliveries (ms).',
        }),
        /** An endpoint failing continuously this long is disabled. */
        disableAfterMs: (0, variable_1.variable)({
            name: 'WEBHOOK_DISABLE_AFTER_HOURS',
            group: 'webhooks',
            schema: (0, validators_1.integer)(1, 24 * 365).transform((hours) => hours * 3_600_000),
            default: '120',
            description: 'An endpoint failing continuously this many hours is disabled.',
        }),
    },
    email: {
        smtpUrl: SMTP_URL,
        /**
         * `smtp`: pooled SMTP to `smtpUrl`. `file`: each mail is written as an .eml file under
         * `mailDir` (development default; production only with MAIL_TRANSPORT=file said explicitly).
         */
        transport: (0, variable_1.combine)({
            smtpUrl: SMTP_URL,
            chosen: (0, variable_1.optional)({
                name: 'MAIL_TRANSPORT',
                group: 'emails',
                schema: zod_1.z.enum(['smtp', 'file'], { error: 'must be smtp or file' }),
                example: 'smtp',
                whenUnset: '`smtp` with SMTP_URL, else `file`',
                description: '`smtp` (needs SMTP_URL) or `file` (mails as .eml files under MAIL_DIR).',
            }),
        }, ({ smtpUrl, chosen }) => chosen ?? (smtpUrl ? 'smtp' : 'file')),
        from: (0, variable_1.variable)({
            name: 'EMAIL_FROM',
            group: 'emails',
            schema: (0, validators_1.sender)('Check-in <no-reply@example.com>'),
            default: 'Check-in <no-reply@checkin.local>',
            production: {
                required: true,
                hint: ": the sender of every mail, an address of the operator's domain (the default, @checkin.local, is nobody's)",
            },
            description: "The sender's address of every mail; each mail is sent in the enterprise's name " +
                '(display name) from it (docs/emails.md).',
        }),
        dedupWindowMs: (0, variable_1.variable)({
            name: 'EMAIL_DEDUP_WINDOW',
            group: 'emails',
            schema: (0, validators_1.duration)('30m or 1h'),
            default: '1h',
            description: 'The same (participant, email type) is not sent twice within this window; the raises of a privacy level made within it after a notice share one notice at its end.',
        }),
        /** Settings and unsubscribe links in mails stay valid this long. */
        linkTtlHours: (0, variable_1.variable)({
            name: 'EMAIL_LINK_TTL_DAYS',
            group: 'emails',
            schema: (0, validators_1.integer)(1, 14).transform((days) => days * 24),
            default: '14',
            description: 'Settings and unsubscribe links in mails stay valid this many days (1-14). "Sign out my ' +
                'links" on the settings page, consent withdrawal and erasure revoke them earlier.',
        }),
        checkinReminderUrl: (0, variable_1.optional)({
            name: 'CHECKIN_REMINDER_URL',
            group: 'emails',
            schema: (0, validators_1.url)(['http:', 'https:']),
            example: 'https://app.example.com/checkin',
            whenUnset: 'no reminder link',
            description: "Where check-in reminder mails send participants (your app's check-in entry point).",
        }),
        mailDir: (0, variable_1.variable)({
            name: 'MAIL_DIR',
            group: 'emails',
            schema: zod_1.z.string().min(1),
            default: 'var/mail',
            description: 'Where MAIL_TRANSPORT=file writes the mails.',
        }),
    },
    /** Where development and test processes keep generated secrets (LOCAL_SECRETS_FILE). */
    localSecretsFile: (0, variable_1.variable)({
        name: 'LOCAL_SECRETS_FILE',
        group: 'development',
        schema: zod_1.z.string().min(1),
        default: exports.LOCAL_SECRETS_FILE_DEFAULT,
        description: 'Development and test only: where secrets that are not set are kept. The first process ' +
            'to start generates the file with random values (mode 0600; var/ is git-ignored); every ' +
            'later process on the machine reads it. Delete it for new secrets. Never used in ' +
            'production.',
    }),
    /** Protects the queue dashboard at /admin/queues; unset: the dashboard is off. */
    adminToken: (0, variable_1.optional)({
        name: 'ADMIN_TOKEN',
        group: 'webhooks',
        schema: zod_1.z.string().min(16, { error: 'must be at least 16 characters' }),
        secret: true,
        whenUnset: 'the dashboard is off',
        description: 'Protects the queue dashboard (Bull Board) at /admin/queues: bearer token, or the ' +
            'password of HTTP basic auth (at least 16 characters).',
    }),
    /** The queue dashboard may change queues and jobs; false: it only shows them. */
    adminDashboardWrite: (0, variable_1.variable)({
        name: 'ADMIN_DASHBOARD_WRITE',
        group: 'webhooks',
        schema: validators_1.booleanString,
        default: 'false',
        description: 'The queue dashboard may pause and resume queues and retry, promote, clean and remove ' +
            'jobs. false: it only shows them (write requests are answered 403).',
    }),
    metrics: {
        /** A release window is released this long after its last day ends (docs/metrics.md). */
        releaseGraceHours: (0, variable_1.variable)({
            name: 'METRICS_RELEASE_GRACE_HOURS',
            group: 'metrics',
            schema: (0, validators_1.integer)(0, 720),
            default: '48',
            description: 'A release window (a month or an ISO week of UTC days) is released this many hours ' +
                'after its last day ends, for results that arrive late; a result for a window already ' +
                'released joins no release (its answer reports it).',
        }),
    },
    retention: {
        /** Transcripts and features of sessions completed longer ago are removed; 0 keeps them. */
        transcriptDays: (0, variable_1.variable)({
            name: 'TRANSCRIPT_RETENTION_DAYS',
            group: 'retention',
            schema: (0, validators_1.integer)(0, 36_500),
            default: '365',
            description: 'Transcripts and features of sessions completed more than this many days ago are ' +
                'removed (scores stay); 0 keeps them.',
        }),
        /** How often a worker runs the retention sweeps. */
        sweepIntervalMs: (0, variable_1.variable)({
            name: 'RETENTION_SWEEP_INTERVAL_MS',
            group: 'retention',
            schema: (0, validators_1.integer)(1_000, 86_400_000),
            default: '600000',
            description: 'How often each worker runs the data-at-rest sweeps (ms).',
        }),
    },
    /** OpenTelemetry traces (docs/operations.md, "Traces"); `endpoint` null: off, nothing loaded. */
    tracing: {
        endpoint: (0, variable_1.optional)({
            name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
            group: 'traces',
            schema: (0, validators_1.url)(['http:', 'https:']).transform((value) => value.replace(/\/+$/, '')),
            example: 'http://127.0.0.1:4318',
            whenUnset: 'no traces',
            redacted: true,
            description: 'The OTLP/HTTP endpoint of a collector or tracing backend (spans go to its /v1/traces). ' +
                'Set it to turn tracing on, in every API and worker process.',
        }),
        protocol: (0, variable_1.variable)({
            name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
            group: 'traces',
            schema: zod_1.z.enum(['http/protobuf', 'http/json'], {
                error: 'must be http/protobuf or http/json',
            }),
            default: 'http/protobuf',
            description: 'How spans are encoded: `http/protobuf` or `http/json` (gRPC is not offered).',
        }),
        serviceName: (0, variable_1.optional)({
            name: 'OTEL_SERVICE_NAME',
            group: 'traces',
            schema: zod_1.z
                .string()
                .regex(/^[A-Za-z0-9._-]{1,100}$/, { error: 'must be 1 to 100 letters, digits, ., _ or -' }),
            example: 'checkin-api',
            whenUnset: '`checkin-api` for the API, `checkin-worker` for a worker',
            description: "The spans' service.name.",
        }),
    },
};
/** The long-running processes, each with its own default operations port (OPS_PORT unset). */
exports.OPS_PORT_DEFAULTS = { api: 9464, worker: 9465 };
/** The operations port of this process: OPS_PORT, or the process's default; 0 = off. */
const opsPortOf = (config, process) => config.ops.port ?? exports.OPS_PORT_DEFAULTS[process];
exports.opsPortOf = opsPortOf;
/**
 * How each program runs on a laptop, in development: what the refusal to start without NODE_ENV
 * names (docs/configuration.md), so that it names the command for the program that refused.
 */
exports.DEVELOPMENT_COMMANDS = {
    api: '`npm start`',
    worker: '`npm run start:worker:dev`',
    cli: '`npm run cli:dev -- <command>`',
    migrations: '`NODE_ENV=development npm run migration:run`',
};
/** Every variable, in the order of DECLARATIONS (problems are reported in this order). */
exports.VARIABLES = (0, variable_1.variablesIn)(DECLARATIONS);
/** Every variable the service reads (`.env.example` lists exactly these). */
exports.CONFIG_VARIABLES = exports.VARIABLES.map((declaration) => declaration.name);
/** The secrets production requires; elsewhere they come from LOCAL_SECRETS_FILE (see local-secrets.ts). */
exports.REQUIRED_SECRETS = exports.VARIABLES.filter((declaration) => declaration.secret && declaration.production?.required).map((declaration) => declaration.name);
// A declaration mistake stops every process (and every test) at once.
for (const [index, { name, group, generate }] of exports.VARIABLES.entries()) {
    if (exports.CONFIG_VARIABLES.indexOf(name) !== index)
        throw new Error(`${name} is declared twice`);
    if (!(group in exports.GROUPS))
        throw new Error(`${name}: unknown group ${group}`);
    if (exports.REQUIRED_SECRETS.includes(name) && !generate) {
        throw new Error(`${name}: a secret production requires needs generate()`);
    }
}
/** A fresh random value for each required secret, in the form its variable takes. */
function randomSecrets() {
    return Object.fromEntries(exports.VARIABLES.filter((declaration) => exports.REQUIRED_SECRETS.includes(declaration.name)).map((declaration) => [declaration.name, declaration.generate()]));
}
/** Empty strings count as unset, as in most dotenv tooling. */
const isSet = (env, name) => env[name] !== undefined && env[name] !== '';
/** The required secrets an environment lacks (a list of link secrets replaces the single one). */
function missingSecrets(env) {
    return exports.VARIABLES.filter((declaration) => exports.REQUIRED_SECRETS.includes(declaration.name) &&
        !isSet(env, declaration.name) &&
        !(declaration.production?.unlessSet && isSet(env, declaration.production.unlessSet))).map((declaration) => declaration.name);
}
class ConfigError extends Error {
    problems;
    constructor(problems) {
        super(`Invalid configuration: ${problems.join('; ')}`);
        this.problems = problems;
        this.name = 'ConfigError';
    }
}
exports.ConfigError = ConfigError;
/** Every variable's rule (defaults are filled in as text before, so they are validated too). */
const schema = zod_1.z.object(Object.fromEntries(exports.VARIABLES.map(({ name, schema }) => [name, schema.optional()])));
/**
 * Parses an environment (process.env in production; an explicit object in tests).
 * Empty strings count as unset, as in most dotenv tooling. `entry`, the program loading it, names
 * that program's development command when production rules refuse it only because NODE_ENV is
 * unset (without it: set NODE_ENV=development).
 */
function loadConfig(env, entry) {
    const given = {};
    for (const { name } of exports.VARIABLES)
        if (isSet(env, name))
            given[name] = env[name];
    // Production unless said otherwise (docs/security.md): forgetting NODE_ENV must not run a
    // deployment with development settings.
    const nodeEnv = given.NODE_ENV ?? NODE_ENV.declaration.default;
    const isProduction = nodeEnv === 'production';
    const missing = missingSecrets(given);
    const input = {};
    for (const declaration of exports.VARIABLES) {
        const fallback = nodeEnv === 'development' && declaration.developmentDefault !== undefined
            ? declaration.developmentDefault
            : declaration.default;
        if (fallback !== undefined)
            input[declaration.name] = fallback;
    }
    // Outside production a missing secret is random for this process only (entry points first fill
    // them from LOCAL_SECRETS_FILE, so they survive restarts); nothing secret is a constant.
    if (!isProduction) {
        const random = randomSecrets();
        for (const name of missing)
            input[name] = random[name];
    }
    Object.assign(input, given);
    const result = schema.safeParse(input);
    if (!result.success) {
        throw new ConfigError(result.error.issues.map((issue) => {
            const name = String(issue.path[0] ?? 'environment');
            const shown = given[name] !== undefined && !isSecret(name);
            return `${name} ${issue.message}${shown ? ` (got "${given[name]}")` : ''}`;
        }));
    }
    const parsed = result.data;
    const problems = mailTransportProblems(given);
    if (isProduction) {
        problems.push(...productionProblems(given, parsed, missing));
        // First: the error is one long line, and this is what a person on a laptop needs to read
        // (docs/configuration.md, "Production is the default").
        if (problems.length > 0 && given.NODE_ENV === undefined) {
            problems.unshift(`NODE_ENV is not set, so production rules apply (on a laptop, ${entry ? `${exports.DEVELOPMENT_COMMANDS[entry]} runs in development` : 'set NODE_ENV=development'})`);
        }
    }
    if (problems.length > 0)
        throw new ConfigError(problems);
    return { ...(0, variable_1.resolve)(DECLARATIONS, parsed), ephemeralSecrets: missing };
}
const isSecret = (name) => exports.VARIABLES.some((d) => d.name === name && (d.secret || d.redacted));
/** MAIL_TRANSPORT and SMTP_URL must agree. */
function mailTransportProblems(given) {
    if (given.MAIL_TRANSPORT === 'smtp' && !given.SMTP_URL) {
        return ['SMTP_URL must be set when MAIL_TRANSPORT is smtp'];
    }
    if (given.MAIL_TRANSPORT === 'file' && given.SMTP_URL) {
        return ['SMTP_URL must not be set when MAIL_TRANSPORT is file (choose one transport)'];
    }
    return [];
}
/**
 * What production demands (each declaration's `production`): first what must be set — the
 * required secrets, then the other required variables (or, when set, the values refused) — then
 * the values production refuses of the variables it does not require.
 */
function productionProblems(given, parsed, missingSecretNames) {
    const problems = missingSecretNames.map((name) => `${name} must be set in production`);
    const required = exports.VARIABLES.filter((d) => d.production?.required && !d.secret);
    const others = exports.VARIABLES.filter((d) => d.production && !d.production.required);
    for (const { name, production: rule } of [...required, ...others]) {
        if (!rule)
            continue;
        if (rule.required && given[name] === undefined) {
            const replaced = rule.unlessSet !== undefined && given[rule.unlessSet] !== undefined;
            if (!replaced)
                problems.push(`${name} must be set in production${rule.hint ?? ''}`);
        }
        else if (parsed[name] !== undefined) {
            const refusal = rule.refuse?.(parsed[name]);
            if (refusal)
                problems.push(`${name} ${refusal}`);
        }
    }
    return problems;
}
//# sourceMappingURL=config.js.map
/**
 * The one place that reads the environment. Every variable is parsed and validated here, at
 * start-up; a wrong value stops the process with the variable's name and the reason.
 * Everything else receives the typed `AppConfig` (see config.module.ts).
 */
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be true or false',
  })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `must be a whole number between ${min} and ${max}` })
    .transform(Number)
    .refine((value) => value >= min && value <= max, {
      error: `must be a whole number between ${min} and ${max}`,
    });

const url = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

/** Where `npm start` (development) and tests keep the secrets they generate on first start. */
export const LOCAL_SECRETS_FILE_DEFAULT = 'var/local-secrets.env';

/** The names proxy-addr (Fastify's `trustProxy`) knows for address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** `10.0.0.1`, `10.0.0.0/8`, `fd00::/8`, or a range name. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`: which proxies' `X-Forwarded-For` decides the client address (the limits per
 * address, DESIGN §15). `false`/`0`: none, the peer's address is the client's; a whole number:
 * that many proxies in front of the service; or a comma-separated list of proxy addresses/CIDRs.
 * `true` (trust any header) is refused: every client could then choose its own address.
 */
function trustProxy() {
  const rule =
    'must be false, the number of proxies in front of the service (e.g. 1), or a ' +
    'comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.0/8,192.168.1.5)';
  return z
    .string()
    .superRefine((value, context) => {
      const fail = (message: string) => context.addIssue({ code: 'custom', message });
      if (value === 'false') return;
      if (value === 'true') {
        fail(
          'must not be true: every client could then choose its own address with ' +
            'X-Forwarded-For; give the number of proxies (e.g. 1) or their addresses',
        );
      } else if (/^\d+$/.test(value)) {
        if (Number(value) > 100) fail(rule);
      } else if (!value.split(',').every((entry) => isProxyAddress(entry.trim()))) {
        fail(rule);
      }
    })
    .transform((value): false | number | string[] => {
      if (value === 'false' || value === '0') return false;
      if (/^\d+$/.test(value)) return Number(value);
      return value.split(',').map((entry) => entry.trim());
    });
}

const schema = z.object({
  NODE_ENV: z
    .enum(['development', 'test', 'production'], {
      error: 'must be one of development, test, production',
    })
    .optional(),
  HOST: z.string().min(1, { error: 'must not be empty' }).default('0.0.0.0'),
  PORT: integer(0, 65535).default(3000),
  PUBLIC_BASE_URL: url(['http:', 'https:'])
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).default(
    'postgres://postgres@127.0.0.1:5432/checkin',
  ),
  DB_POOL_SIZE: integer(1, 1000).default(10),
  SHUTDOWN_DRAIN_MS: integer(0, 600_000).default(5_000),
  DB_MIGRATE_ON_START: booleanString.default(true),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  API_KEY_CACHE_TTL_MS: integer(0, 60_000).default(5_000),
  RATE_LIMIT_REQUESTS: integer(0, 1_000_000_000).default(6_000),
  RATE_LIMIT_WINDOW: z
    .string()
    .regex(/^\d+(s|m|h)$/, { error: 'must be a duration like 60s or 1m' })
    .refine((value) => parseDurations(value)[0] > 0, { error: 'must be longer than 0s' })
    .default('1m'),
  PUBLIC_RATE_LIMIT_REQUESTS: integer(0, 1_000_000_000).default(300),
  AUTH_FAILURE_LIMIT: integer(0, 1_000_000_000).default(30),
  TRUST_PROXY: trustProxy().optional(),
  DEMO_BOOTSTRAP: booleanString.optional(),
  DATA_ENCRYPTION_KEY: z
    .string()
    .refine((value) => secretBytes(value)?.length === 32, {
      error: 'must be 32 bytes, as 64 hex characters or base64 (openssl rand -base64 32)',
    })
    .optional(),
  DATA_ENCRYPTION_KEYS: keyList('data', (value) => secretBytes(value)?.length === 32).optional(),
  CHECKIN_TOKEN_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  CHECKIN_TOKEN_SECRETS: keyList('token', (value) => value.length >= 32).optional(),
  CHECKIN_TOKEN_TTL_HOURS: integer(1, 24 * 30).default(24),
  ENGINE_URL: url(['http:', 'https:']).optional(),
  ENGINE_TOKEN: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  RUN_WORKERS: booleanString.default(true),
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanString.optional(),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\d+(s|m|h)(,\d+(s|m|h))*$/, {
      error: 'must be a comma-separated list of durations like 5s,5m,30m,2h',
    })
    .default('5s,5m,30m,2h,5h,10h,10h,24h'),
  WEBHOOK_TIMEOUT_MS: integer(100, 120_000).default(15_000),
  WEBHOOK_SWEEP_INTERVAL_MS: integer(50, 600_000).default(1_000),
  WEBHOOK_DISABLE_AFTER_HOURS: integer(1, 24 * 365).default(120),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be 1 to 64 letters, digits, _ or -' })
    .default('checkin'),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_TRANSPORT: z.enum(['smtp', 'file'], { error: 'must be smtp or file' }).optional(),
  LOCAL_SECRETS_FILE: z.string().min(1).default(LOCAL_SECRETS_FILE_DEFAULT),
  EMAIL_FROM: z
    .string()
    .min(3, { error: 'must be an address like "Check-in <no-reply@example.com>"' })
    .default('Check-in <no-reply@checkin.local>'),
  EMAIL_DEDUP_WINDOW: z
    .string()
    .regex(/^\d+(s|m|h)$/, { error: 'must be a duration like 30m or 1h' })
    .default('1h'),
  EMAIL_LINK_TTL_DAYS: integer(1, 14).default(14),
  CHECKIN_REMINDER_URL: url(['http:', 'https:']).optional(),
  MAIL_DIR: z.string().min(1).default('var/mail'),
  ADMIN_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  TRANSCRIPT_RETENTION_DAYS: integer(0, 36_500).default(365),
  RETENTION_SWEEP_INTERVAL_MS: integer(1_000, 86_400_000).default(600_000),
});

/**
 * The key id of `DATA_ENCRYPTION_KEY` and `CHECKIN_TOKEN_SECRET`: what they signed or sealed
 * before key ids existed (`v1.` ciphertexts, two-part tokens) and since, while no list is set.
 * Reserved: the lists cannot name it.
 */
export const LEGACY_KEY_ID = 'k0';

/** A key id: short, and free of the separators of ciphertexts (`.`), lists (`,`, `:`). */
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,16}$/;

/** `id:secret` entries of a key list, split (a secret may itself hold `:`). */
function keyListEntries(list: string): { id: string; secret: string }[] {
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
function keyList(kind: 'data' | 'token', validSecret: (secret: string) => boolean) {
  const secretRule =
    kind === 'data'
      ? 'a 32-byte key (64 hex characters or base64, openssl rand -base64 32)'
      : 'a secret of at least 32 characters';
  return z.string().superRefine((value, context) => {
    const seen = new Set<string>();
    for (const [index, { id, secret }] of keyListEntries(value).entries()) {
      const where = `entry ${index + 1}`;
      const fail = (message: string) => context.addIssue({ code: 'custom', message });
      if (!KEY_ID_PATTERN.test(id)) {
        fail(
          `must be a comma-separated list of id:secret, newest first, with ids of 1 to 16 letters, digits, _ or - (${where} has no valid key id)`,
        );
      } else if (id === LEGACY_KEY_ID) {
        fail(`must not use the key id ${LEGACY_KEY_ID}, which names the single key (${where})`);
      } else if (seen.has(id)) {
        fail(`names the key id ${id} twice`);
      } else if (!validSecret(secret)) {
        fail(`key ${id} must be ${secretRule}`);
      }
      seen.add(id);
    }
  });
}

/** The limits per client address count in fixed windows of one minute. */
const ADDRESS_LIMIT_WINDOW_MS = 60_000;

const DURATION_UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** `5s,5m,2h` → milliseconds. */
function parseDurations(list: string): number[] {
  return list.split(',').map((item) => {
    const unit = item.slice(-1) as keyof typeof DURATION_UNIT_MS;
    return Number(item.slice(0, -1)) * DURATION_UNIT_MS[unit];
  });
}

/** A 32-byte secret given as 64 hex characters or base64; undefined when it is neither. */
function secretBytes(value: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return Buffer.from(value, 'base64');
  return undefined;
}

/** The secrets production requires; elsewhere they come from LOCAL_SECRETS_FILE (see local-secrets.ts). */
export const REQUIRED_SECRETS = [
  'DATA_ENCRYPTION_KEY',
  'CHECKIN_TOKEN_SECRET',
  'ENGINE_TOKEN',
] as const;
export type RequiredSecret = (typeof REQUIRED_SECRETS)[number];

/** A fresh random value for each required secret, in the form its variable takes. */
export function randomSecrets(): Record<RequiredSecret, string> {
  return {
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CHECKIN_TOKEN_SECRET: randomBytes(32).toString('base64url'),
    ENGINE_TOKEN: randomBytes(32).toString('base64url'),
  };
}

/** The required secrets an environment lacks (a list of link secrets replaces the single one). */
export function missingSecrets(env: Record<string, string | undefined>): RequiredSecret[] {
  const set = (name: string) => env[name] !== undefined && env[name] !== '';
  return REQUIRED_SECRETS.filter(
    (name) => !set(name) && !(name === 'CHECKIN_TOKEN_SECRET' && set('CHECKIN_TOKEN_SECRETS')),
  );
}

/** Variables whose values are never repeated in an error message (it goes to logs). */
const SECRET_VARIABLES = new Set([
  'DATA_ENCRYPTION_KEY',
  'DATA_ENCRYPTION_KEYS',
  'CHECKIN_TOKEN_SECRET',
  'CHECKIN_TOKEN_SECRETS',
  'ENGINE_TOKEN',
  'ADMIN_TOKEN',
]);

type ParsedEnv = z.infer<typeof schema>;

/** Every variable the service reads (`.env.example` lists exactly these). */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

export interface AppConfig {
  /** `NODE_ENV`; production when unset (DESIGN §15). */
  env: 'development' | 'test' | 'production';
  isProduction: boolean;
  host: string;
  port: number;
  /** SIGTERM: how long the API keeps serving (health 503) before it closes. */
  shutdownDrainMs: number;
  publicBaseUrl: string;
  logLevel: ParsedEnv['LOG_LEVEL'];
  database: { url: string; poolSize: number; migrateOnStart: boolean };
  /** Redis, and the key prefix of this deployment's queues. */
  redis: { url: string; queuePrefix: string };
  apiKeyCacheTtlMs: number;
  /** Per API key, shared through Redis; requests 0 = off (DESIGN §5). */
  rateLimit: { requests: number; windowMs: number };
  /**
   * Per client address, shared through Redis, in a fixed window; 0 = off (DESIGN §15).
   * `publicRequests`: requests to the participant pages and the ingestion endpoint;
   * `authFailures`: requests refused for a missing or wrong key or engine token, past which every
   * API request from the address is refused for the rest of the window.
   */
  addressLimits: { publicRequests: number; authFailures: number; windowMs: number };
  /**
   * Fastify's `trustProxy`, so that `request.ip` is the client's address behind proxies: false
   * (the peer is the client), a number of proxies, or the proxies' addresses/CIDRs.
   */
  trustProxy: false | number | string[];
  /**
   * 32-byte `DATA_ENCRYPTION_KEY`: the root of the email look-up hashes (HMAC, never rotated:
   * equal emails must keep equal hashes) and the data key with id `k0`.
   */
  dataEncryptionKey: Buffer;
  /**
   * The data keys for personal data at rest (AES-256-GCM, via HKDF), newest first: those of
   * `DATA_ENCRYPTION_KEYS`, then `k0` = `DATA_ENCRYPTION_KEY`. New ciphertexts use the first.
   */
  dataKeys: { id: string; key: Buffer }[];
  checkin: {
    /**
     * Link-signing secrets, newest first: `CHECKIN_TOKEN_SECRETS`, then `k0` =
     * `CHECKIN_TOKEN_SECRET` when set (or, with neither set outside production, the development
     * secret). New links are signed with the first; a removed key's links no longer verify.
     */
    tokenSecrets: { id: string; secret: string }[];
    tokenTtlHours: number;
    /** Where the check-in page hands the participant to the analysis engine; unset: no hand-off link. */
    engineUrl: string | null;
  };
  /** Bearer token the analysis engine presents to the ingestion endpoint. */
  engineToken: string;
  /** Run the queue processors (webhook deliveries) in this process too. */
  runWorkers: boolean;
  webhooks: {
    /** Development and tests only: allow http:// and private addresses (refused in production). */
    allowPrivateUrls: boolean;
    /** Delay before each retry, in ms (the first attempt is immediate). */
    retryScheduleMs: number[];
    timeoutMs: number;
    sweepIntervalMs: number;
    /** An endpoint failing continuously this long is disabled. */
    disableAfterMs: number;
  };
  email: {
    /**
     * `smtp`: pooled SMTP to `smtpUrl`. `file`: each mail is written as an .eml file under
     * `mailDir` (development default; production only with MAIL_TRANSPORT=file said explicitly).
     */
    transport: 'smtp' | 'file';
    smtpUrl: string | null;
    from: string;
    dedupWindowMs: number;
    /** Settings and unsubscribe links in mails stay valid this long. */
    linkTtlHours: number;
    checkinReminderUrl: string | null;
    mailDir: string;
  };
  /** Protects the queue dashboard at /admin/queues; unset: the dashboard is off. */
  adminToken: string | null;
  /**
   * Outside production: secrets that were not configured and are random for this process only
   * (a warning is logged). Entry points fill them from `localSecretsFile` first.
   */
  ephemeralSecrets: RequiredSecret[];
  /** Where development and test processes keep generated secrets (LOCAL_SECRETS_FILE). */
  localSecretsFile: string;
  /** Create a demo enterprise (and print its key) when the database has none. */
  demoBootstrap: boolean;
  retention: {
    /** Transcripts and features of sessions completed longer ago are removed; 0 keeps them. */
    transcriptDays: number;
    /** How often a worker runs the retention sweeps. */
    sweepIntervalMs: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses an environment (process.env in production; an explicit object in tests).
 * Empty strings count as unset, as in most dotenv tooling.
 */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const input: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const result = schema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const got =
        input[name] !== undefined && !SECRET_VARIABLES.has(name) ? ` (got "${input[name]}")` : '';
      return `${name} ${issue.message}${got}`;
    });
    throw new ConfigError(problems);
  }
  const parsed = result.data;
  // Production unless said otherwise (DESIGN §15): forgetting NODE_ENV must not run a deployment
  // with development settings.
  const nodeEnv = parsed.NODE_ENV ?? 'production';
  const isProduction = nodeEnv === 'production';
  const missing = missingSecrets(input);
  const mailTransport = parsed.MAIL_TRANSPORT ?? (parsed.SMTP_URL ? 'smtp' : 'file');
  const problems: string[] = [];
  if (parsed.MAIL_TRANSPORT === 'smtp' && !parsed.SMTP_URL) {
    problems.push('SMTP_URL must be set when MAIL_TRANSPORT is smtp');
  }
  if (parsed.MAIL_TRANSPORT === 'file' && parsed.SMTP_URL) {
    problems.push('SMTP_URL must not be set when MAIL_TRANSPORT is file (choose one transport)');
  }
  if (isProduction) {
    problems.push(...missing.map((name) => `${name} must be set in production`));
    if (parsed.PUBLIC_BASE_URL === undefined) {
      problems.push(
        'PUBLIC_BASE_URL must be set in production, to the https:// address participants reach',
      );
    } else if (new URL(parsed.PUBLIC_BASE_URL).protocol !== 'https:') {
      problems.push(
        `PUBLIC_BASE_URL must be an https:// URL in production (got "${parsed.PUBLIC_BASE_URL}")`,
      );
    }
    if (!parsed.SMTP_URL && parsed.MAIL_TRANSPORT === undefined) {
      problems.push(
        'SMTP_URL must be set in production (or MAIL_TRANSPORT=file to write mails as files under MAIL_DIR)',
      );
    }
    if (parsed.WEBHOOK_ALLOW_PRIVATE_URLS) {
      problems.push('WEBHOOK_ALLOW_PRIVATE_URLS must not be true in production');
    }
    if (problems.length > 0 && parsed.NODE_ENV === undefined) {
      problems.push(
        'NODE_ENV is not set, so production rules apply (on a laptop, `npm start` runs in development)',
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  // Outside production a missing secret is random for this process only (entry points first fill
  // them from LOCAL_SECRETS_FILE, so they survive restarts); nothing secret is a constant.
  const ephemeral: Partial<Record<RequiredSecret, string>> = randomSecrets();
  for (const name of REQUIRED_SECRETS) if (!missing.includes(name)) delete ephemeral[name];
  const dataEncryptionKey = secretBytes(
    parsed.DATA_ENCRYPTION_KEY ?? (ephemeral.DATA_ENCRYPTION_KEY as string),
  ) as Buffer;
  const tokenSecret = parsed.CHECKIN_TOKEN_SECRET ?? ephemeral.CHECKIN_TOKEN_SECRET;
  return {
    env: nodeEnv,
    isProduction,
    host: parsed.HOST,
    port: parsed.PORT,
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS,
    publicBaseUrl: parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`,
    logLevel: parsed.LOG_LEVEL,
    database: {
      url: parsed.DATABASE_URL,
      poolSize: parsed.DB_POOL_SIZE,
      migrateOnStart: parsed.DB_MIGRATE_ON_START,
    },
    redis: { url: parsed.REDIS_URL, queuePrefix: parsed.QUEUE_PREFIX },
    apiKeyCacheTtlMs: parsed.API_KEY_CACHE_TTL_MS,
    rateLimit: {
      requests: parsed.RATE_LIMIT_REQUESTS,
      windowMs: parseDurations(parsed.RATE_LIMIT_WINDOW)[0],
    },
    addressLimits: {
      publicRequests: parsed.PUBLIC_RATE_LIMIT_REQUESTS,
      authFailures: parsed.AUTH_FAILURE_LIMIT,
      windowMs: ADDRESS_LIMIT_WINDOW_MS,
    },
    trustProxy: parsed.TRUST_PROXY ?? false,
    demoBootstrap: parsed.DEMO_BOOTSTRAP ?? nodeEnv === 'development',
    dataEncryptionKey,
    dataKeys: [
      ...keyListEntries(parsed.DATA_ENCRYPTION_KEYS ?? '')
        .filter((entry) => entry.id !== '')
        .map(({ id, secret }) => ({ id, key: secretBytes(secret) as Buffer })),
      { id: LEGACY_KEY_ID, key: dataEncryptionKey },
    ],
    retention: {
      transcriptDays: parsed.TRANSCRIPT_RETENTION_DAYS,
      sweepIntervalMs: parsed.RETENTION_SWEEP_INTERVAL_MS,
    },
    checkin: {
      tokenSecrets: [
        ...(parsed.CHECKIN_TOKEN_SECRETS ? keyListEntries(parsed.CHECKIN_TOKEN_SECRETS) : []),
        ...(tokenSecret !== undefined ? [{ id: LEGACY_KEY_ID, secret: tokenSecret }] : []),
      ],
      tokenTtlHours: parsed.CHECKIN_TOKEN_TTL_HOURS,
      engineUrl: parsed.ENGINE_URL ?? null,
    },
    engineToken: parsed.ENGINE_TOKEN ?? (ephemeral.ENGINE_TOKEN as string),
    ephemeralSecrets: missing,
    localSecretsFile: parsed.LOCAL_SECRETS_FILE,
    runWorkers: parsed.RUN_WORKERS,
    adminToken: parsed.ADMIN_TOKEN ?? null,
    email: {
      transport: mailTransport,
      smtpUrl: parsed.SMTP_URL ?? null,
      from: parsed.EMAIL_FROM,
      dedupWindowMs: parseDurations(parsed.EMAIL_DEDUP_WINDOW)[0],
      linkTtlHours: parsed.EMAIL_LINK_TTL_DAYS * 24,
      checkinReminderUrl: parsed.CHECKIN_REMINDER_URL ?? null,
      mailDir: parsed.MAIL_DIR,
    },
    webhooks: {
      // Unset: on in development, so a receiver on the developer's machine works (the quickstart).
      allowPrivateUrls: parsed.WEBHOOK_ALLOW_PRIVATE_URLS ?? nodeEnv === 'development',
      retryScheduleMs: parseDurations(parsed.WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: parsed.WEBHOOK_TIMEOUT_MS,
      sweepIntervalMs: parsed.WEBHOOK_SWEEP_INTERVAL_MS,
      disableAfterMs: parsed.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
    },
  };
}

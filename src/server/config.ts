import path from 'node:path';
import { z } from 'zod';
import type { Installation } from '#shared/contracts/app-config.ts';
import { MAX_MEETING_HOURS } from '#shared/contracts/meetings.ts';
import { checkOutboundUrl, OutboundError } from './lib/outbound/outbound-fetch.ts';
import { decodeSecretKey } from './lib/secret-box.ts';

/**
 * The only reader of process.env. Every key is listed in README.md and .env.example with its default.
 * loadConfig is pure so tests can build any configuration they need.
 */

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const optionalBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : ['true', '1', 'yes', 'on'].includes(v)));

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const optionalUrl = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    try {
      return new URL(v.trim()).toString().replace(/\/$/, '');
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute URL such as https://parley.example.com' });
      return z.NEVER;
    }
  });

/** OWASP's argon2id pairs (19 MiB × 2, 12 MiB × 3, 9 MiB × 4, 7 MiB × 5) all cost about this much memory × passes. */
const OWASP_ARGON2ID_FLOOR = 7_168 * 5;

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  PORT: int(3000, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  PARLEY_SECRET_KEY: optionalString.refine((v) => v === undefined || decodeSecretKey(v) !== undefined, {
    message: 'must be 32 bytes as base64 or hex, e.g. the output of `openssl rand -base64 32`',
  }),
  WEB_DIR: z.string().default('./dist/web'),
  DATABASE_URL: optionalString,
  SQLITE_READ_THREADS: optionalString.refine((v) => v === undefined || /^(\d|1[0-6])$/.test(v), { message: 'must be a whole number from 0 to 16' }),
  REDIS_URL: optionalString.refine((v) => v === undefined || /^rediss?:\/\//.test(v), { message: 'must start with redis:// or rediss://' }),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - only, at most 64')
    .default('parley'),
  PUBLIC_URL: optionalUrl,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool(false),
  CORS_ORIGINS: optionalString,
  AUTH_SITE_URL: optionalUrl,
  AUTH_URI_ALLOW_LIST: optionalString,
  AUTH_AUTOCONFIRM: optionalBool,
  AUTH_DISABLE_SIGNUP: bool(false),
  AUTH_JWT_EXP: int(3600, 120, 604800),
  AUTH_PASSWORD_MIN_LENGTH: int(6, 1, 72),
  AUTH_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD: bool(true),
  AUTH_RATE_LIMITS: bool(true),
  AUTH_REFRESH_TOKEN_REUSE_INTERVAL: int(10, 0, 3600),
  AUTH_EMAIL_FREQUENCY: int(60, 0, 86400),
  AUTH_EMAIL_RATE_LIMIT_PER_HOUR: int(30, 1, 1000000),
  AUTH_OTP_EXP: int(86400, 60, 604800),
  // argon2id's cost. The defaults are OWASP's first recommendation; a server refuses less than OWASP's
  // floor (memory × passes of its recommended pairs), except the test suite's, whose thousands of
  // throw-away accounts would otherwise spend minutes of CPU hashing.
  AUTH_PASSWORD_HASH_MEMORY_KIB: int(19_456, 64, 4_194_304),
  AUTH_PASSWORD_HASH_PASSES: int(2, 1, 64),
  UPLOAD_MAX_MB: int(500, 1, 10_240),
  UPLOAD_EXPIRY_HOURS: int(24, 1, 24 * 30),
  STORAGE_QUOTA_GB: int(10, 1, 1_000_000),
  STORAGE_URL: optionalString,
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: bool(false),
  TRANSCRIBE_ENGINE: z.enum(['auto', 'pocketsphinx', 'openai', 'sherpa-onnx']).default('auto'),
  TRANSCRIBE_SHERPA_MODEL: optionalString,
  TRANSCRIBE_SPEAKERS: z.enum(['auto', 'clustering', 'sherpa-onnx']).default('auto'),
  PARLEY_MODELS_BASE_URL: optionalUrl,
  PARLEY_AUTO_MODELS: optionalBool,
  TRANSCRIBE_OPENAI_URL: optionalUrl,
  TRANSCRIBE_OPENAI_KEY: optionalString,
  TRANSCRIBE_OPENAI_MODEL: z.string().default('whisper-1'),
  TRANSCRIBE_TIMEOUT_SECONDS: int(600, 5, 86_400),
  TRANSCRIBE_MAX_ATTEMPTS: int(4, 1, 20),
  TRANSCRIBE_CONCURRENCY: int(1, 1, 16),
  TRANSCRIBE_RETRY_DELAY_SECONDS: int(15, 0, 3600),
  LIVE_RECOGNIZERS: int(8, 1, 256),
  LIVE_SESSIONS_PER_ACCOUNT: int(2, 1, 64),
  LIVE_PAUSED_RELEASE_SECONDS: int(120, 1, 3600),
  // Hours, fractions allowed (0.5): a tiny file can declare hours of silence, and every hour is work.
  MAX_RECORDING_HOURS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return 8;
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0 || n > MAX_MEETING_HOURS) {
        ctx.addIssue({ code: 'custom', message: `must be a number of hours above 0 and at most ${MAX_MEETING_HOURS}` });
        return z.NEVER;
      }
      return n;
    }),
  NOTES_ENGINE: z.enum(['auto', 'local', 'llm']).default('auto'),
  NOTES_LLM_URL: optionalUrl,
  NOTES_LLM_KEY: optionalString,
  NOTES_LLM_MODEL: optionalString,
  NOTES_LLM_CONTEXT_TOKENS: int(8192, 2048, 2_000_000),
  NOTES_LLM_TIMEOUT_SECONDS: int(120, 5, 3600),
  NOTES_MAX_ATTEMPTS: int(3, 1, 20),
  NOTES_RETRY_DELAY_SECONDS: int(30, 0, 3600),
  ASK_EMBEDDINGS_URL: optionalUrl,
  ASK_EMBEDDINGS_KEY: optionalString,
  ASK_EMBEDDINGS_MODEL: optionalString,
  ASK_EMBEDDINGS_TIMEOUT_SECONDS: int(10, 1, 600),
  ASK_QUESTIONS_PER_MINUTE: int(20, 1, 100_000),
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: bool(false),
  CALENDAR_TIMEOUT_SECONDS: int(15, 1, 120),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_AUTH_URL: optionalUrl,
  GOOGLE_TOKEN_URL: optionalUrl,
  GOOGLE_REVOKE_URL: optionalUrl,
  GOOGLE_CALENDAR_API_URL: optionalUrl,
  SLACK_CLIENT_ID: optionalString,
  SLACK_CLIENT_SECRET: optionalString,
  SLACK_API_URL: z.string().url().default('https://slack.com/api/'),
  SLACK_AUTHORIZE_URL: z.string().url().default('https://slack.com/oauth/v2/authorize'),
  MICROSOFT_CLIENT_ID: optionalString,
  MICROSOFT_CLIENT_SECRET: optionalString,
  /** A directory (tenant) id or domain, or common, organizations or consumers. */
  MICROSOFT_TENANT: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? 'common' : v.trim()))
    .refine((v) => /^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/.test(v), { message: 'must be common, organizations, consumers, a tenant id or a domain' }),
  MICROSOFT_LOGIN_URL: z.string().url().default('https://login.microsoftonline.com'),
  MICROSOFT_GRAPH_URL: z.string().url().default('https://graph.microsoft.com/v1.0'),
  MICROSOFT_TIMEOUT_SECONDS: int(30, 1, 300),
  ASK_LLM_REWRITE: bool(false),
  ASK_LLM_RERANK: bool(false),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_PRO: optionalString,
  STRIPE_PRICE_BUSINESS: optionalString,
  STRIPE_API_URL: optionalUrl,
  SMTP_HOST: optionalString,
  SMTP_PORT: int(587, 1, 65535),
  SMTP_USER: optionalString,
  SMTP_PASS: optionalString,
  SMTP_FROM: z.string().default('Parley <no-reply@localhost>'),
  SMTP_SECURE: bool(false),
  SENTRY_DSN: optionalString.refine((v) => v === undefined || sentryDsnHost(v) !== undefined, {
    message: 'must be a Sentry DSN such as https://<public key>@glitchtip.example.com/<project id>',
  }),
  SENTRY_ENVIRONMENT: optionalString,
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_HEADERS: optionalString.refine((v) => v === undefined || parseOtlpHeaders(v) !== undefined, {
    message: 'must be key=value pairs separated by commas, e.g. authorization=Bearer%20abc',
  }),
  TELEMETRY_TIMEOUT_SECONDS: int(10, 1, 120),
  EMOTION_API_URL: optionalUrl,
  EMOTION_API_KEY: optionalString,
  EMOTION_MODEL: optionalString,
  EMOTION_TIMEOUT_SECONDS: int(60, 5, 600),
});

/** The host of a Sentry DSN (`https://<public key>@host/<project id>`), or undefined when it is not one. */
function sentryDsnHost(dsn: string): string | undefined {
  try {
    const url = new URL(dsn);
    const projectId = url.pathname.split('/').filter(Boolean).at(-1);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username === '' || !projectId || !/^\d+$/.test(projectId)) return undefined;
    return url.host;
  } catch {
    return undefined;
  }
}

/** OTEL_EXPORTER_OTLP_HEADERS as the OpenTelemetry specification writes it: `key=value,key2=value2`, values URL-encoded. */
function parseOtlpHeaders(text: string): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    if (at <= 0 || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) return undefined;
    try {
      headers[key.toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return headers;
}

/** `readThreads`: SQLite's threads for searches (db/sqlite-read-pool.ts); 0 runs them on the server's thread; unset, the pool's choice. */
export type DatabaseConfig = { dialect: 'sqlite'; file: string; readThreads?: number } | { dialect: 'postgres'; url: string };

/** What a process does: serve HTTP (web), run background jobs (worker), or both (all, the default). */
export type Role = 'all' | 'web' | 'worker';

export type Config = Readonly<{
  env: 'development' | 'production' | 'test';
  role: Role;
  http: Readonly<{ port: number; host: string; trustProxy: boolean; corsOrigins: readonly string[] }>;
  publicUrl: string;
  dataDir: string;
  /** PARLEY_SECRET_KEY: the key secrets are sealed with at rest; unset, $DATA_DIR/secret.key (generated on first start). */
  secretKey: string | undefined;
  /** The built web app that the server serves with a history fallback. */
  webDir: string;
  logLevel: string;
  db: Readonly<DatabaseConfig>;
  /** REDIS_URL, REDIS_KEY_PREFIX: where several processes keep their shared counts; undefined keeps them in memory. */
  redis: Readonly<{ url: string; keyPrefix: string }> | undefined;
  auth: Readonly<{
    siteUrl: string;
    uriAllowList: readonly string[];
    autoconfirm: boolean;
    disableSignup: boolean;
    jwtExpSeconds: number;
    passwordMinLength: number;
    /** PUT /user with a new password must carry the current one (not in a recovery session). */
    updatePasswordRequireCurrentPassword: boolean;
    rateLimits: boolean;
    refreshTokenReuseIntervalSeconds: number;
    emailFrequencySeconds: number;
    emailRateLimitPerHour: number;
    otpExpSeconds: number;
    /** argon2id's cost for new password hashes. */
    passwordHash: Readonly<{ memoryKib: number; passes: number }>;
  }>;
  /** STORAGE_URL and S3_*: where recordings, uploads, exports and avatars are kept. */
  storage: Readonly<StorageConfig>;
  uploads: Readonly<{
    maxBytes: number;
    /** An unfinished upload is forgotten (and its meeting marked failed) this long after it began; a finished one answers retries until then. */
    expiryMs: number;
    /** The most recorded audio one account may keep (the dashboard's "storage used" counts against it). */
    quotaBytes: number;
  }>;
  transcription: Readonly<{
    engine: 'auto' | 'pocketsphinx' | 'openai' | 'sherpa-onnx';
    /** The installed sherpa-onnx speech model to use; unset: the best one installed. */
    sherpaModel: string | undefined;
    /** How speakers are told apart on a mixed track: `auto` uses sherpa-onnx diarization when its models are installed and load. */
    speakers: 'auto' | 'clustering' | 'sherpa-onnx';
    /** An OpenAI-compatible /v1/audio/transcriptions service (OpenAI, Groq, faster-whisper, whisper.cpp server). */
    openai: Readonly<{ url: string; apiKey: string | undefined; model: string }> | undefined;
    timeoutSeconds: number;
    /** Tries per job before a transient failure (a service outage) becomes the meeting's failure. */
    maxAttempts: number;
    /** Transcription jobs run at the same time by this process. */
    concurrency: number;
    /** First retry delay; each further retry waits twice as long (capped at 30 minutes). */
    retryDelaySeconds: number;
    /**
     * The live transcript while recording: recogniser processes this server runs at once (one per
     * capture source of a session; more wait in line), sessions one account may hold or wait for, and
     * how long a paused session keeps its recogniser before letting it go (it gets one again on resume).
     */
    live: Readonly<{ recognizers: number; sessionsPerAccount: number; pausedReleaseSeconds: number }>;
    /** MAX_RECORDING_HOURS: longer recordings fail before they are decoded. */
    maxRecordingHours: number;
  }>;
  notes: Readonly<{
    /** `auto`: the LLM when configured and reachable, else the local engine. */
    engine: 'auto' | 'local' | 'llm';
    /** Any OpenAI-compatible chat-completions endpoint (Ollama, llama.cpp, vLLM, LM Studio, OpenAI, Groq). */
    llm: Readonly<{ url: string; apiKey: string | undefined; model: string; contextTokens: number; timeoutSeconds: number }> | undefined;
    maxAttempts: number;
    retryDelaySeconds: number;
  }>;
  /**
   * Ask: an OpenAI-compatible /v1/embeddings endpoint (Ollama's nomic-embed-text, OpenAI's
   * text-embedding-3-small) whose vectors are fused with the search index's ranking; without it,
   * Ask ranks with the index alone. Its answers use the notes' LLM.
   */
  ask: Readonly<{
    embeddings: Readonly<{ url: string; apiKey: string | undefined; model: string; timeoutSeconds: number }> | undefined;
    /** Questions one person may ask a minute (each may cost a model call and an embeddings call). */
    questionsPerMinute: number;
    /** With the notes' LLM: the question rewritten as search words before retrieval, and the best passages re-ranked by it. */
    llmRewrite: boolean;
    llmRerank: boolean;
  }>;
  /**
   * URLs people give Parley (webhooks, calendars, chat services): loopback, private and link-local
   * addresses are refused unless OUTBOUND_ALLOW_PRIVATE_NETWORKS (a self-hoster's internal services).
   */
  outbound: Readonly<{ allowPrivateNetworks: boolean }>;
  /**
   * Calendars (Settings › Connected Accounts › Google Calendar): how long a calendar server may take,
   * and Connect with Google when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set (its endpoints
   * overridable: tests point them at a local server).
   */
  calendar: Readonly<{
    timeoutSeconds: number;
    google: Readonly<{ clientId: string; clientSecret: string; authUrl: string; tokenUrl: string; revokeUrl: string; calendarApiUrl: string }> | undefined;
  }>;
  /**
   * "Add to Slack" (a Slack app's bot token, a channel picker, files): the app's client id and secret
   * (unset unless both are); the Web API and authorize URLs are settings so tests point them at a local server.
   */
  slack: Readonly<{ app: Readonly<{ clientId: string; clientSecret: string }> | undefined; apiUrl: string; authorizeUrl: string }>;
  /**
   * Connect Microsoft account (Teams meeting sync) when MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET
   * are set; the login and Graph hosts are settings because national clouds use others (and tests a local server).
   */
  microsoft: Readonly<{
    app: Readonly<{ clientId: string; clientSecret: string; tenant: string }> | undefined;
    loginUrl: string;
    graphUrl: string;
    timeoutSeconds: number;
  }>;
  smtp: Readonly<{ host: string; port: number; user?: string; pass?: string; from: string; secure: boolean }> | undefined;
  /**
   * Billing through Stripe (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and a price id per paid plan):
   * trials, Checkout, the Customer Portal and webhooks; STRIPE_API_URL points the library elsewhere
   * (tests' local Stripe). Unset: the installation is self-hosted and takes no payments.
   */
  stripe: Readonly<{ secretKey: string; webhookSecret: string; prices: Readonly<{ pro: string; business: string }>; apiUrl: string | undefined }> | undefined;
  /**
   * Speech models fetched with `npm run models` ($DATA_DIR/models) and where they are downloaded
   * from; `auto`: the recommended ones are fetched in the background at first start (PARLEY_AUTO_MODELS, on by default).
   */
  models: Readonly<{ dir: string; baseUrl: string | undefined; auto: boolean }>;
  /**
   * The operator's collectors, each used for a person only while their Settings › Privacy switch
   * allows it: a Sentry-compatible error-reporting service (SENTRY_DSN: Sentry, GlitchTip) for
   * "Error Reporting", an OpenTelemetry collector over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT) for
   * "Anonymized Feature Usage". `timeoutMs` bounds each request to them.
   */
  telemetry: Readonly<{
    errors: Readonly<{ dsn: string; host: string; environment: string }> | undefined;
    usage: Readonly<{ endpoint: string; host: string; headers: Readonly<Record<string, string>> }> | undefined;
    timeoutMs: number;
  }>;
  /**
   * "Anonymous Emotional Analysis" by the operator's provider: any OpenAI-compatible chat-completions
   * endpoint (EMOTION_API_URL, EMOTION_MODEL). Unset, sentiment is computed on this server only.
   */
  emotion: Readonly<{ url: string; apiKey: string | undefined; model: string; timeoutSeconds: number; host: string }> | undefined;
  /**
   * The services outside this installation it hands anything to, told to the web app (/app-config.js)
   * so its Billing, Privacy, recording and pricing screens say what is true here, and to whom.
   * `billing` is true once Stripe is configured; without it the installation is self-hosted (every
   * feature included unless an administrator assigned a plan). The collectors and the emotion
   * provider are named by host once the operator sets them.
   */
  installation: Readonly<Installation>;
}>;

export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export function parseDatabaseUrl(url: string | undefined, dataDir: string): DatabaseConfig {
  if (url === undefined) return { dialect: 'sqlite', file: path.resolve(dataDir, 'parley.db') };
  if (/^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', url };
  if (url.startsWith('sqlite:') || url.startsWith('file:')) {
    const file = url.replace(/^(sqlite|file):(\/\/)?/, '');
    return { dialect: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
  }
  throw new ConfigError(['DATABASE_URL: must start with postgres://, postgresql://, sqlite: or file: (or be unset for ./data/parley.db)']);
}

/** Where blobs live: the data folder (STORAGE_URL unset), or an S3-compatible bucket (s3://bucket[/prefix]). */
export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      /** Empty, or ends with a slash. */
      prefix: string;
      endpoint: string | undefined;
      region: string;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };

function parseStorage(e: z.infer<typeof EnvSchema>): StorageConfig {
  if (e.STORAGE_URL === undefined) return { kind: 'local' };
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(e.STORAGE_URL.trim());
  if (!match) throw new ConfigError(['STORAGE_URL: must be s3://bucket or s3://bucket/prefix (or be unset to keep files in DATA_DIR)']);
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined))
    throw new ConfigError(["S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither to use the AWS SDK's own credentials (instance role, AWS_PROFILE)"]);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    bucket: match[1]!,
    prefix: prefix === '' ? '' : `${prefix}/`,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

/** Parses the environment into a frozen, typed configuration; throws ConfigError listing every bad key. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const parsedDb = parseDatabaseUrl(e.DATABASE_URL, dataDir);
  const db = parsedDb.dialect === 'sqlite' && e.SQLITE_READ_THREADS !== undefined ? { ...parsedDb, readThreads: Number(e.SQLITE_READ_THREADS) } : parsedDb;
  // Separate web and worker processes meet in the database: the job queue and the realtime events
  // cross between them through PostgreSQL (pg-boss, LISTEN/NOTIFY); the embedded SQLite has no such channel.
  if (e.ROLE !== 'all' && db.dialect !== 'postgres') {
    throw new ConfigError([
      `ROLE: ${e.ROLE} needs a PostgreSQL DATABASE_URL (separate web and worker processes share their jobs and events through PostgreSQL); use ROLE=all with SQLite`,
    ]);
  }
  if (e.NODE_ENV !== 'test' && e.AUTH_PASSWORD_HASH_MEMORY_KIB * e.AUTH_PASSWORD_HASH_PASSES < OWASP_ARGON2ID_FLOOR)
    throw new ConfigError([
      `AUTH_PASSWORD_HASH_MEMORY_KIB × AUTH_PASSWORD_HASH_PASSES: at least ${OWASP_ARGON2ID_FLOOR} (OWASP's argon2id floor, e.g. 19456 KiB × 2 passes)`,
    ]);
  if (e.NOTES_LLM_URL && !e.NOTES_LLM_MODEL)
    throw new ConfigError(['NOTES_LLM_MODEL: required with NOTES_LLM_URL (the model name the endpoint serves, e.g. llama3.1:8b or gpt-4o-mini)']);
  if (e.ASK_EMBEDDINGS_URL && !e.ASK_EMBEDDINGS_MODEL)
    throw new ConfigError(['ASK_EMBEDDINGS_MODEL: required with ASK_EMBEDDINGS_URL (the embedding model the endpoint serves, e.g. nomic-embed-text)']);
  if (e.NOTES_ENGINE === 'llm' && !e.NOTES_LLM_URL) throw new ConfigError(['NOTES_ENGINE: llm needs NOTES_LLM_URL and NOTES_LLM_MODEL']);
  const stripeKeys = {
    STRIPE_SECRET_KEY: e.STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: e.STRIPE_WEBHOOK_SECRET,
    STRIPE_PRICE_PRO: e.STRIPE_PRICE_PRO,
    STRIPE_PRICE_BUSINESS: e.STRIPE_PRICE_BUSINESS,
  };
  const missingStripe = Object.entries(stripeKeys).flatMap(([key, value]) => (value === undefined ? [key] : []));
  if (missingStripe.length > 0 && missingStripe.length < Object.keys(stripeKeys).length)
    throw new ConfigError([
      `${missingStripe.join(', ')}: required for billing with Stripe, with ${Object.keys(stripeKeys)
        .filter((k) => !missingStripe.includes(k))
        .join(', ')}`,
    ]);
  // The Stripe library's host is an outbound URL like any other: refused at start where the outbound
  // policy would refuse it (a loopback or private address without OUTBOUND_ALLOW_PRIVATE_NETWORKS).
  if (e.STRIPE_API_URL !== undefined) {
    try {
      checkOutboundUrl(e.STRIPE_API_URL, { allowPrivateNetworks: e.OUTBOUND_ALLOW_PRIVATE_NETWORKS });
    } catch (error) {
      if (error instanceof OutboundError) throw new ConfigError([`STRIPE_API_URL: ${error.message}`]);
      throw error;
    }
  }
  const stripe =
    e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET && e.STRIPE_PRICE_PRO && e.STRIPE_PRICE_BUSINESS
      ? Object.freeze({
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          prices: Object.freeze({ pro: e.STRIPE_PRICE_PRO, business: e.STRIPE_PRICE_BUSINESS }),
          apiUrl: e.STRIPE_API_URL,
        })
      : undefined;
  if (e.EMOTION_API_URL && !e.EMOTION_MODEL)
    throw new ConfigError(['EMOTION_MODEL: required with EMOTION_API_URL (the model name the endpoint serves, e.g. gpt-4o-mini or llama3.1:8b)']);
  const errorReports =
    e.SENTRY_DSN === undefined ? undefined : { dsn: e.SENTRY_DSN, host: sentryDsnHost(e.SENTRY_DSN)!, environment: e.SENTRY_ENVIRONMENT ?? e.NODE_ENV };
  const usageEvents =
    e.OTEL_EXPORTER_OTLP_ENDPOINT === undefined
      ? undefined
      : {
          endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
          host: new URL(e.OTEL_EXPORTER_OTLP_ENDPOINT).host,
          headers: Object.freeze(parseOtlpHeaders(e.OTEL_EXPORTER_OTLP_HEADERS ?? '') ?? {}),
        };
  const emotion =
    e.EMOTION_API_URL && e.EMOTION_MODEL
      ? {
          url: e.EMOTION_API_URL,
          apiKey: e.EMOTION_API_KEY,
          model: e.EMOTION_MODEL,
          timeoutSeconds: e.EMOTION_TIMEOUT_SECONDS,
          host: new URL(e.EMOTION_API_URL).host,
        }
      : undefined;
  const smtp =
    e.SMTP_HOST === undefined
      ? undefined
      : { host: e.SMTP_HOST, port: e.SMTP_PORT, user: e.SMTP_USER, pass: e.SMTP_PASS, from: e.SMTP_FROM, secure: e.SMTP_SECURE };
  return Object.freeze({
    env: e.NODE_ENV,
    role: e.ROLE,
    http: Object.freeze({
      port: e.PORT,
      host: e.HOST,
      trustProxy: e.TRUST_PROXY,
      corsOrigins: Object.freeze(
        (e.CORS_ORIGINS ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    }),
    publicUrl,
    dataDir,
    secretKey: e.PARLEY_SECRET_KEY,
    webDir: path.resolve(e.WEB_DIR),
    logLevel: e.LOG_LEVEL,
    db: Object.freeze(db),
    // Shared counts (rate limits) across processes; without it they stay in each process's memory.
    redis: e.REDIS_URL === undefined ? undefined : Object.freeze({ url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX }),
    auth: Object.freeze({
      siteUrl: e.AUTH_SITE_URL ?? publicUrl,
      uriAllowList: Object.freeze(
        (e.AUTH_URI_ALLOW_LIST ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
      // Without SMTP no confirmation email could ever arrive, so accounts are confirmed at sign-up.
      autoconfirm: e.AUTH_AUTOCONFIRM ?? smtp === undefined,
      disableSignup: e.AUTH_DISABLE_SIGNUP,
      jwtExpSeconds: e.AUTH_JWT_EXP,
      passwordMinLength: Math.max(6, e.AUTH_PASSWORD_MIN_LENGTH),
      updatePasswordRequireCurrentPassword: e.AUTH_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD,
      rateLimits: e.AUTH_RATE_LIMITS,
      refreshTokenReuseIntervalSeconds: e.AUTH_REFRESH_TOKEN_REUSE_INTERVAL,
      emailFrequencySeconds: e.AUTH_EMAIL_FREQUENCY,
      emailRateLimitPerHour: e.AUTH_EMAIL_RATE_LIMIT_PER_HOUR,
      otpExpSeconds: e.AUTH_OTP_EXP,
      passwordHash: Object.freeze({ memoryKib: e.AUTH_PASSWORD_HASH_MEMORY_KIB, passes: e.AUTH_PASSWORD_HASH_PASSES }),
    }),
    storage: Object.freeze(parseStorage(e)),
    uploads: Object.freeze({
      maxBytes: e.UPLOAD_MAX_MB * 1024 * 1024,
      expiryMs: e.UPLOAD_EXPIRY_HOURS * 60 * 60 * 1000,
      quotaBytes: e.STORAGE_QUOTA_GB * 1024 ** 3,
    }),
    transcription: Object.freeze({
      engine: e.TRANSCRIBE_ENGINE,
      sherpaModel: e.TRANSCRIBE_SHERPA_MODEL,
      speakers: e.TRANSCRIBE_SPEAKERS,
      openai: e.TRANSCRIBE_OPENAI_URL
        ? Object.freeze({ url: e.TRANSCRIBE_OPENAI_URL, apiKey: e.TRANSCRIBE_OPENAI_KEY, model: e.TRANSCRIBE_OPENAI_MODEL })
        : undefined,
      timeoutSeconds: e.TRANSCRIBE_TIMEOUT_SECONDS,
      maxAttempts: e.TRANSCRIBE_MAX_ATTEMPTS,
      concurrency: e.TRANSCRIBE_CONCURRENCY,
      retryDelaySeconds: e.TRANSCRIBE_RETRY_DELAY_SECONDS,
      live: Object.freeze({
        recognizers: e.LIVE_RECOGNIZERS,
        sessionsPerAccount: e.LIVE_SESSIONS_PER_ACCOUNT,
        pausedReleaseSeconds: e.LIVE_PAUSED_RELEASE_SECONDS,
      }),
      maxRecordingHours: e.MAX_RECORDING_HOURS,
    }),
    notes: Object.freeze({
      engine: e.NOTES_ENGINE,
      llm:
        e.NOTES_LLM_URL && e.NOTES_LLM_MODEL
          ? Object.freeze({
              url: e.NOTES_LLM_URL,
              apiKey: e.NOTES_LLM_KEY,
              model: e.NOTES_LLM_MODEL,
              contextTokens: e.NOTES_LLM_CONTEXT_TOKENS,
              timeoutSeconds: e.NOTES_LLM_TIMEOUT_SECONDS,
            })
          : undefined,
      maxAttempts: e.NOTES_MAX_ATTEMPTS,
      retryDelaySeconds: e.NOTES_RETRY_DELAY_SECONDS,
    }),
    ask: Object.freeze({
      embeddings:
        e.ASK_EMBEDDINGS_URL && e.ASK_EMBEDDINGS_MODEL
          ? Object.freeze({
              url: e.ASK_EMBEDDINGS_URL,
              apiKey: e.ASK_EMBEDDINGS_KEY,
              model: e.ASK_EMBEDDINGS_MODEL,
              timeoutSeconds: e.ASK_EMBEDDINGS_TIMEOUT_SECONDS,
            })
          : undefined,
      questionsPerMinute: e.ASK_QUESTIONS_PER_MINUTE,
      llmRewrite: e.ASK_LLM_REWRITE,
      llmRerank: e.ASK_LLM_RERANK,
    }),
    outbound: Object.freeze({ allowPrivateNetworks: e.OUTBOUND_ALLOW_PRIVATE_NETWORKS }),
    calendar: Object.freeze({
      timeoutSeconds: e.CALENDAR_TIMEOUT_SECONDS,
      google:
        e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
          ? Object.freeze({
              clientId: e.GOOGLE_CLIENT_ID,
              clientSecret: e.GOOGLE_CLIENT_SECRET,
              authUrl: e.GOOGLE_AUTH_URL ?? 'https://accounts.google.com/o/oauth2/v2/auth',
              tokenUrl: e.GOOGLE_TOKEN_URL ?? 'https://oauth2.googleapis.com/token',
              revokeUrl: e.GOOGLE_REVOKE_URL ?? 'https://oauth2.googleapis.com/revoke',
              calendarApiUrl: e.GOOGLE_CALENDAR_API_URL ?? 'https://www.googleapis.com/calendar/v3',
            })
          : undefined,
    }),
    slack: Object.freeze({
      app: e.SLACK_CLIENT_ID && e.SLACK_CLIENT_SECRET ? Object.freeze({ clientId: e.SLACK_CLIENT_ID, clientSecret: e.SLACK_CLIENT_SECRET }) : undefined,
      apiUrl: e.SLACK_API_URL.endsWith('/') ? e.SLACK_API_URL : `${e.SLACK_API_URL}/`,
      authorizeUrl: e.SLACK_AUTHORIZE_URL,
    }),
    microsoft: Object.freeze({
      app:
        e.MICROSOFT_CLIENT_ID && e.MICROSOFT_CLIENT_SECRET
          ? Object.freeze({ clientId: e.MICROSOFT_CLIENT_ID, clientSecret: e.MICROSOFT_CLIENT_SECRET, tenant: e.MICROSOFT_TENANT })
          : undefined,
      loginUrl: e.MICROSOFT_LOGIN_URL.replace(/\/+$/, ''),
      graphUrl: e.MICROSOFT_GRAPH_URL.replace(/\/+$/, ''),
      timeoutSeconds: e.MICROSOFT_TIMEOUT_SECONDS,
    }),
    smtp: smtp && Object.freeze(smtp),
    models: Object.freeze({
      dir: path.join(dataDir, 'models'),
      baseUrl: e.PARLEY_MODELS_BASE_URL, // Off in the test suite unless a test turns it on: tests never reach for the real models host.
      auto: e.PARLEY_AUTO_MODELS ?? e.NODE_ENV !== 'test',
    }),
    stripe,
    telemetry: Object.freeze({
      errors: errorReports && Object.freeze(errorReports),
      usage: usageEvents && Object.freeze(usageEvents),
      timeoutMs: e.TELEMETRY_TIMEOUT_SECONDS * 1000,
    }),
    emotion: emotion && Object.freeze(emotion),
    installation: Object.freeze({
      billing: stripe !== undefined,
      errorReporting: errorReports !== undefined,
      usageAnalytics: usageEvents !== undefined,
      errorReportingHost: errorReports?.host ?? null,
      usageAnalyticsHost: usageEvents?.host ?? null,
      emotionProviderHost: emotion?.host ?? null,
    }),
  });
}

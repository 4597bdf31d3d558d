import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to port 3000, embedded SQLite under ./data and autoconfirm without SMTP', () => {
    const config = loadConfig({});
    expect(config.http.port).toBe(3000);
    expect(config.db).toEqual({ dialect: 'sqlite', file: expect.stringMatching(/data[/\\]parley\.db$/) });
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.auth.autoconfirm).toBe(true);
    expect(config.auth.jwtExpSeconds).toBe(3600);
  });

  it('is a self-hosted installation: no billing, no error reporting, no usage analytics, no emotion provider unless configured', () => {
    expect(loadConfig({}).installation).toEqual({
      billing: false,
      errorReporting: false,
      usageAnalytics: false,
      errorReportingHost: null,
      usageAnalyticsHost: null,
      emotionProviderHost: null,
    });
    expect(loadConfig({}).telemetry).toMatchObject({ errors: undefined, usage: undefined });
    expect(loadConfig({}).emotion).toBeUndefined();
    expect(loadConfig({}).stripe).toBeUndefined();
  });

  it('names the collectors and the emotion provider by host once the operator sets them', () => {
    const config = loadConfig({
      SENTRY_DSN: 'https://abc123@glitchtip.example.com/7',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel.internal:4318/',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20s3cret, x-scope=parley',
      EMOTION_API_URL: 'https://api.openai.com/v1',
      EMOTION_API_KEY: 'sk-test',
      EMOTION_MODEL: 'gpt-4o-mini',
    });
    expect(config.installation).toMatchObject({
      errorReporting: true,
      usageAnalytics: true,
      errorReportingHost: 'glitchtip.example.com',
      usageAnalyticsHost: 'otel.internal:4318',
      emotionProviderHost: 'api.openai.com',
    });
    expect(config.telemetry.errors).toEqual({ dsn: 'https://abc123@glitchtip.example.com/7', host: 'glitchtip.example.com', environment: 'production' });
    expect(config.telemetry.usage).toEqual({
      endpoint: 'http://otel.internal:4318',
      host: 'otel.internal:4318',
      headers: { authorization: 'Bearer s3cret', 'x-scope': 'parley' },
    });
    expect(config.emotion).toMatchObject({ url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-test' });
  });

  it('refuses a DSN that is not one, headers that do not parse, and an emotion provider without its model', () => {
    expect(() => loadConfig({ SENTRY_DSN: 'https://glitchtip.example.com/7' })).toThrow(/SENTRY_DSN: must be a Sentry DSN/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign' })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS/);
    expect(() => loadConfig({ EMOTION_API_URL: 'http://localhost:11434' })).toThrow(/EMOTION_MODEL: required with EMOTION_API_URL/);
  });

  it('switches to PostgreSQL for a postgres URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).db).toEqual({ dialect: 'postgres', url: 'postgres://u@h/db' });
  });

  it('requires confirmation by email once SMTP is configured', () => {
    expect(loadConfig({ SMTP_HOST: 'mail.example.com' }).auth.autoconfirm).toBe(false);
    expect(loadConfig({ SMTP_HOST: 'mail.example.com', AUTH_AUTOCONFIRM: 'true' }).auth.autoconfirm).toBe(true);
  });

  it('fails fast listing every bad key', () => {
    try {
      loadConfig({ PORT: 'eighty', PUBLIC_URL: 'not a url', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toContain('PORT: must be a whole number from 0 to 65535');
      expect(message).toContain('PUBLIC_URL: must be an absolute URL');
      expect(message).toContain('LOG_LEVEL');
    }
  });

  it('rejects an unknown database scheme', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must start with postgres:\/\//);
  });

  it('runs web and worker apart only on PostgreSQL, and both in one process by default', () => {
    expect(loadConfig({}).role).toBe('all');
    expect(() => loadConfig({ ROLE: 'worker' })).toThrow(/ROLE: worker needs a PostgreSQL DATABASE_URL/);
    expect(loadConfig({ ROLE: 'web', DATABASE_URL: 'postgres://db/parley' }).role).toBe('web');
    expect(() => loadConfig({ ROLE: 'cron' })).toThrow(/ROLE/);
  });

  it('writes notes with the local engine unless an LLM is configured, and asks for the model with its URL', () => {
    expect(loadConfig({}).notes).toMatchObject({ engine: 'auto', llm: undefined });
    expect(() => loadConfig({ NOTES_LLM_URL: 'http://localhost:11434' })).toThrow(/NOTES_LLM_MODEL: required with NOTES_LLM_URL/);
    expect(() => loadConfig({ NOTES_ENGINE: 'llm' })).toThrow(/NOTES_ENGINE: llm needs NOTES_LLM_URL/);
    expect(loadConfig({ NOTES_LLM_URL: 'http://localhost:11434', NOTES_LLM_MODEL: 'llama3.1:8b' }).notes.llm).toMatchObject({
      model: 'llama3.1:8b',
      contextTokens: 8192,
    });
  });

  it("ranks Ask's passages with the search index alone unless an embeddings endpoint is configured, and asks for its model", () => {
    expect(loadConfig({}).ask).toEqual({ embeddings: undefined, questionsPerMinute: 20, llmRewrite: false, llmRerank: false });
    expect(loadConfig({ ASK_LLM_REWRITE: 'true', ASK_LLM_RERANK: 'true' }).ask).toMatchObject({ llmRewrite: true, llmRerank: true });
    expect(() => loadConfig({ ASK_EMBEDDINGS_URL: 'http://localhost:11434' })).toThrow(/ASK_EMBEDDINGS_MODEL: required with ASK_EMBEDDINGS_URL/);
    expect(loadConfig({ ASK_EMBEDDINGS_URL: 'http://localhost:11434', ASK_EMBEDDINGS_MODEL: 'nomic-embed-text' }).ask.embeddings).toEqual({
      url: 'http://localhost:11434',
      apiKey: undefined,
      model: 'nomic-embed-text',
      timeoutSeconds: 10,
    });
  });

  it('never lets the minimum password length fall below 6', () => {
    expect(loadConfig({ AUTH_PASSWORD_MIN_LENGTH: '4' }).auth.passwordMinLength).toBe(6);
  });

  it('hashes passwords at OWASP’s argon2id cost and refuses a cheaper one outside the test suite', () => {
    expect(loadConfig({}).auth.passwordHash).toEqual({ memoryKib: 19_456, passes: 2 });
    expect(loadConfig({ AUTH_PASSWORD_HASH_MEMORY_KIB: '9216', AUTH_PASSWORD_HASH_PASSES: '4' }).auth.passwordHash).toEqual({ memoryKib: 9216, passes: 4 });
    expect(() => loadConfig({ AUTH_PASSWORD_HASH_MEMORY_KIB: '4096', AUTH_PASSWORD_HASH_PASSES: '2' })).toThrow(/OWASP's argon2id floor/);
    expect(loadConfig({ NODE_ENV: 'test', AUTH_PASSWORD_HASH_MEMORY_KIB: '64', AUTH_PASSWORD_HASH_PASSES: '1' }).auth.passwordHash).toEqual({
      memoryKib: 64,
      passes: 1,
    });
  });

  it('bills through Stripe once its key, webhook secret and both prices are set, and names what is missing otherwise', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_PRO: 'price_pro', STRIPE_PRICE_BUSINESS: 'price_business' };
    const config = loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111/', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' });
    expect(config.installation.billing).toBe(true);
    expect(config.stripe).toEqual({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      prices: { pro: 'price_pro', business: 'price_business' },
      apiUrl: 'http://127.0.0.1:12111',
    });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_PRO: 'price_pro' })).toThrow(
      'STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_BUSINESS: required for billing with Stripe, with STRIPE_SECRET_KEY, STRIPE_PRICE_PRO',
    );
  });

  it('refuses a Stripe API URL the outbound policy refuses, at start and in words', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_PRO: 'price_pro', STRIPE_PRICE_BUSINESS: 'price_business' };
    expect(() => loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111' })).toThrow(
      'STRIPE_API_URL: 127.0.0.1 is a loopback address. Parley does not connect to private networks unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true is set on the server.',
    );
    expect(() => loadConfig({ ...stripe, STRIPE_API_URL: 'http://10.0.0.7:12111', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' })).toThrow(
      /STRIPE_API_URL: 10\.0\.0\.7 is a private address/,
    );
    // Cloud metadata never, whatever the setting; a user name in the URL neither.
    expect(() => loadConfig({ ...stripe, STRIPE_API_URL: 'http://169.254.169.254/', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' })).toThrow(
      'STRIPE_API_URL: 169.254.169.254 is a cloud metadata address, which Parley never connects to.',
    );
    expect(() => loadConfig({ ...stripe, STRIPE_API_URL: 'https://key:secret@stripe.example.com' })).toThrow(
      /STRIPE_API_URL: The address must not contain a user name or password/,
    );
    expect(loadConfig({ ...stripe, STRIPE_API_URL: 'https://stripe-mock.example.com' }).stripe?.apiUrl).toBe('https://stripe-mock.example.com');
  });
});

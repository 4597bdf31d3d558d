import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/create-db.ts';
import { claimInstanceSetting } from '#server/db/instance-settings.ts';
import type { EventRecorder } from '#server/events/domain-events.ts';
import { BadJsonError } from '#server/http/json-body-parser.ts';
import { systemClock, type Clock } from '#server/lib/clock.ts';
import type { RateLimiters } from '#server/lib/rate-limit.ts';
import type { SecretBox } from '#server/lib/secret-box.ts';
import { createAccounts, type Accounts } from './accounts.ts';
import { signAnonKey } from './access-token.ts';
import type { AuthContext } from './auth-context.ts';
import { GoTrueError, errors, sendGoTrueError } from './gotrue-error.ts';
import { createMailer, outboxDir, type Mailer } from './mailer.ts';
import { createRateLimits } from './rate-limits.ts';
import { registerEmailFlows } from './routes/email-flows.ts';
import { registerFactors } from './routes/factors.ts';
import { registerLogout } from './routes/logout.ts';
import { registerMeta } from './routes/meta.ts';
import { registerSignup } from './routes/signup.ts';
import { registerToken } from './routes/token.ts';
import { registerUser } from './routes/user.ts';
import { createSigningKeys } from './signing-keys.ts';

export type AuthModule = {
  context: AuthContext;
  /** The account lifecycle's hold on accounts: password check, sessions, removal (accounts.ts). */
  accounts: Accounts;
  /** The installation's public anon key (spec §6), generated on first start and kept. */
  anonKey: string;
};

const ANON_KEY_SETTING = 'auth.anon_key';

type AuthModuleOptions = {
  secrets: SecretBox;
  /** The server's rate-limit port: the request limits, the sign-in guard and the email budget count there. */
  rateLimiters: RateLimiters;
  /** Where `account.created` is recorded (the sample meetings subscribe). */
  events: EventRecorder;
  onSessionsEnded?: AuthContext['onSessionsEnded'];
  mailer?: Mailer;
  clock?: Clock;
};

export async function createAuthModule(db: Db, config: Config, log: FastifyBaseLogger, options: AuthModuleOptions): Promise<AuthModule> {
  // Previous keys stay published for one access-token lifetime after a rotation.
  const keys = createSigningKeys(db, { keepSeconds: config.auth.jwtExpSeconds, secrets: options.secrets });
  const issuer = `${config.publicUrl}/auth/v1`;
  const context: AuthContext = {
    db,
    config,
    keys,
    secrets: options.secrets,
    mailer: options.mailer ?? createMailer(config, log),
    limits: createRateLimits({ limiters: options.rateLimiters, enabled: config.auth.rateLimits, emailsPerHour: config.auth.emailRateLimitPerHour }),
    clock: options.clock ?? systemClock,
    issuer,
    log,
    events: options.events,
    onSessionsEnded: options.onSessionsEnded ?? (() => undefined),
  };
  if (context.mailer.transport === 'outbox') {
    log.info(
      { outbox: outboxDir(config.dataDir), autoconfirm: config.auth.autoconfirm },
      'No SMTP configured: auth emails are kept in the development outbox' + (config.auth.autoconfirm ? ' and new accounts are confirmed at sign-up' : ''),
    );
  }
  const anonKey = await claimInstanceSetting(db, ANON_KEY_SETTING, await signAnonKey(keys, issuer));
  return { context, anonKey, accounts: createAccounts(context) };
}

/** Mounts the Supabase-Auth-compatible API under /auth/v1, with GoTrue's error shapes throughout. */
export async function registerAuthRoutes(app: FastifyInstance, auth: AuthModule, version: string): Promise<void> {
  await app.register(
    async (scope) => {
      scope.setErrorHandler((error, request, reply) => {
        if (error instanceof GoTrueError) return sendGoTrueError(request, reply, error);
        const status = (error as { statusCode?: number }).statusCode;
        const message = error instanceof Error ? error.message : 'Bad request';
        if (status === 413)
          return sendGoTrueError(request, reply, new GoTrueError(413, 'request_entity_too_large', 'Request body too large (max 1048576 bytes)'));
        if (error instanceof BadJsonError) return sendGoTrueError(request, reply, new GoTrueError(400, 'bad_json', error.message));
        if (typeof status === 'number' && status >= 400 && status < 500) {
          return sendGoTrueError(request, reply, new GoTrueError(status, 'validation_failed', message));
        }
        request.log.error({ err: error }, 'unhandled auth error');
        return sendGoTrueError(request, reply, errors.unexpected());
      });
      scope.setNotFoundHandler((request, reply) => sendGoTrueError(request, reply, new GoTrueError(404, 'not_found', 'Not Found')));
      const ctx = { ...auth.context, log: scope.log as FastifyBaseLogger };
      registerSignup(scope, ctx);
      registerToken(scope, ctx);
      registerLogout(scope, ctx);
      registerUser(scope, ctx);
      registerEmailFlows(scope, ctx);
      registerFactors(scope, ctx);
      registerMeta(scope, ctx, version);
    },
    { prefix: '/auth/v1' },
  );
}

import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../auth-context.ts';
import { authenticate } from '../authenticate.ts';
import { GoTrueError, errors } from '../gotrue-error.ts';
import { queryParam } from '../request-input.ts';

const PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'github',
  'gitlab',
  'google',
  'kakao',
  'keycloak',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'twitch',
  'twitter',
  'workos',
  'zoom',
];

const manualLinkingDisabled = () => new GoTrueError(404, 'manual_linking_disabled', 'Manual linking is disabled');

/** GET /health, /settings, /.well-known/jwks.json, and the OAuth/identity endpoints this installation does not enable. */
export function registerMeta(app: FastifyInstance, ctx: AuthContext, version: string): void {
  app.get('/health', async () => ({ version, name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' }));

  app.get('/settings', async () => ({
    external: { email: true, phone: false, anonymous_users: false, ...Object.fromEntries(PROVIDERS.map((p) => [p, false])) },
    disable_signup: ctx.config.auth.disableSignup,
    mailer_autoconfirm: ctx.config.auth.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: false,
  }));

  app.get('/.well-known/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=600');
    return ctx.keys.jwks();
  });

  // No OAuth providers are configured in Parley; the answers are GoTrue's for a disabled provider.
  app.get('/authorize', async (request) => {
    const provider = queryParam(request, 'provider');
    if (provider && !PROVIDERS.includes(provider)) throw errors.validation(`Unsupported provider: Provider ${provider} could not be found`);
    throw errors.validation('Unsupported provider: provider is not enabled');
  });

  app.get('/user/identities/authorize', async (request) => {
    await authenticate(ctx, request);
    throw manualLinkingDisabled();
  });

  app.delete('/user/identities/:id', async (request) => {
    await authenticate(ctx, request);
    throw manualLinkingDisabled();
  });
}

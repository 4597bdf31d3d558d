import { signAccessToken } from './access-token.ts';
import type { AuthContext } from './auth-context.ts';
import type { SessionRow } from './auth.table.ts';
import { errors } from './gotrue-error.ts';
import { sessionAmr } from './sessions.ts';
import { loadUserJson, type UserJson } from './user-response.ts';

export type TokenResponse = {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
} & Record<string, unknown>;

/** The session object of auth-contract §2.4: a fresh access token for the session and the full user. */
export async function tokenResponse(ctx: AuthContext, session: SessionRow, refreshToken: string): Promise<TokenResponse> {
  const user = await loadUserJson(ctx.db, session.user_id);
  if (!user) throw errors.userNotFound();
  const { token, expiresAt } = await signAccessToken(
    ctx.keys,
    {
      sub: user.id,
      email: user.email,
      phone: '',
      app_metadata: user.app_metadata as Record<string, unknown>,
      user_metadata: user.user_metadata as Record<string, unknown>,
      aal: session.aal,
      amr: sessionAmr(session),
      session_id: session.id,
    },
    { issuer: ctx.issuer, expiresInSeconds: ctx.config.auth.jwtExpSeconds },
  );
  return {
    access_token: token,
    token_type: 'bearer',
    // The token was just signed to live this long (exp = iat + it); reading the clock again after
    // signing could say one second less on a busy server.
    expires_in: ctx.config.auth.jwtExpSeconds,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user,
  };
}

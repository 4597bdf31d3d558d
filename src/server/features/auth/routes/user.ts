import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../auth-context.ts';
import { sendAuthEmail } from '../auth-emails.ts';
import { authenticate } from '../authenticate.ts';
import { nowIso } from '../clock.ts';
import { GoTrueError } from '../gotrue-error.ts';
import { clearOneTimeTokens } from '../one-time-tokens.ts';
import { assertPasswordLength, assertStrongPassword, hashPassword, verifyPassword } from '../passwords.ts';
import { optionalObject, optionalString, parseBody, queryParam, validateEmail } from '../request-input.ts';
import { endSessions } from '../sessions.ts';
import { findUserByEmail, loadUserJson, parseJsonObject } from '../users.ts';

const UpdateUserBody = z.looseObject({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  data: optionalObject,
  app_metadata: optionalObject,
});

/** GET /user and PUT /user (auth-contract §4.5, §4.6): both answer with the bare user. */
export function registerUser(app: FastifyInstance, ctx: AuthContext): void {
  app.get('/user', async (request) => {
    const { user } = await authenticate(ctx, request);
    return loadUserJson(ctx.db, user.id);
  });

  app.put('/user', async (request) => {
    await ctx.limits.consume('otp', request.ip);
    const { user, session } = await authenticate(ctx, request);
    const body = parseBody(UpdateUserBody, request.body);
    if (body.app_metadata) throw new GoTrueError(403, 'not_admin', 'Updating app_metadata requires admin privileges');
    if (body.phone) throw new GoTrueError(422, 'phone_provider_disabled', 'Phone signups are disabled');

    const changesCredentials = body.password !== undefined || (body.email !== undefined && body.email.toLowerCase() !== user.email);
    if (changesCredentials && session.aal !== 'aal2') {
      const verified = await ctx.db
        .selectFrom('auth_mfa_factors')
        .select('id')
        .where('user_id', '=', user.id)
        .where('status', '=', 'verified')
        .executeTakeFirst();
      if (verified) {
        throw new GoTrueError(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.');
      }
    }

    if (body.password !== undefined) {
      assertPasswordLength(body.password);
      assertStrongPassword(body.password, ctx.config.auth.passwordMinLength);
      if (user.encrypted_password && (await verifyPassword(body.password, user.encrypted_password))) {
        throw new GoTrueError(422, 'same_password', 'New password should be different from the old password.');
      }
      const now = nowIso();
      await ctx.db
        .updateTable('auth_users')
        .set({ encrypted_password: await hashPassword(body.password), updated_at: now })
        .where('id', '=', user.id)
        .execute();
      await clearOneTimeTokens(ctx.db, user.id);
      // A new password signs out every other device, as GoTrue does.
      await endSessions(ctx.db, { userId: user.id, sessionId: session.id, scope: 'others' });
    }

    if (body.data) {
      // Merged key by key; a null value deletes the key.
      const metadata = parseJsonObject(user.raw_user_meta_data);
      for (const [key, value] of Object.entries(body.data)) {
        if (value === null) delete metadata[key];
        else metadata[key] = value;
      }
      await ctx.db
        .updateTable('auth_users')
        .set({ raw_user_meta_data: JSON.stringify(metadata), updated_at: nowIso() })
        .where('id', '=', user.id)
        .execute();
    }

    if (body.email !== undefined) {
      const email = validateEmail(body.email);
      if (email !== user.email) {
        const taken = await findUserByEmail(ctx.db, email);
        if (taken) throw new GoTrueError(422, 'email_exists', 'A user with this email address has already been registered');
        await ctx.db.updateTable('auth_users').set({ email_change: email, updated_at: nowIso() }).where('id', '=', user.id).execute();
        await sendAuthEmail(ctx, { user: { ...user, email_change: email }, kind: 'email_change', redirectTo: queryParam(request, 'redirect_to'), to: email });
      }
    }
    return loadUserJson(ctx.db, user.id);
  });
}

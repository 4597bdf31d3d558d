import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../auth-context.ts';
import { authenticate } from '../authenticate.ts';
import { GoTrueError } from '../gotrue-error.ts';
import { optionalObject, optionalString, parseBody, queryParam } from '../request-input.ts';
import { getUser, updateUser } from '../user.service.ts';

const UpdateUserBody = z.looseObject({
  email: optionalString,
  phone: optionalString,
  password: optionalString,
  current_password: optionalString,
  data: optionalObject,
  app_metadata: optionalObject,
});

/** GET /user and PUT /user (auth-contract §4.5, §4.6): both answer with the bare user. */
export function registerUser(app: FastifyInstance, ctx: AuthContext): void {
  app.get('/user', async (request) => {
    const { user } = await authenticate(ctx, request);
    return getUser(ctx, user.id);
  });

  app.put('/user', async (request) => {
    await ctx.limits.consume('otp', request.ip);
    const auth = await authenticate(ctx, request);
    const body = parseBody(UpdateUserBody, request.body);
    if (body.app_metadata) throw new GoTrueError(403, 'not_admin', 'Updating app_metadata requires admin privileges');
    if (body.phone) throw new GoTrueError(422, 'phone_provider_disabled', 'Phone signups are disabled');
    return updateUser(
      ctx,
      auth,
      { email: body.email, password: body.password, currentPassword: body.current_password, data: body.data, ip: request.ip },
      queryParam(request, 'redirect_to'),
    );
  });
}

import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/** GET /api/v1/me: the signed-in person as Parley's API sees them. */
export const MeSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  fullName: z.string().nullable(),
  emailConfirmed: z.boolean(),
  aal: z.enum(['aal1', 'aal2']),
  createdAt: z.string(),
});

export type Me = z.infer<typeof MeSchema>;

export const meEndpoints = {
  get: defineEndpoint({ method: 'GET', path: '/api/v1/me', response: MeSchema, tag: 'account', summary: 'Who the bearer token belongs to' }),
};

import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/** GET /api/v1/me: the signed-in person as Parley's API sees them. */
export const MeSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  fullName: z.nullable(z.string()),
  emailConfirmed: z.boolean(),
  aal: z.enum(['aal1', 'aal2']),
  createdAt: z.string(),
  /** Whether this sign-in session is the person's first visit (the dashboard welcomes it rather than welcoming them back). */
  firstVisit: z.boolean(),
});

export type Me = z.infer<typeof MeSchema>;

/** Settings › Privacy "Delete All Data": typing the account's email confirms it. */
export const DeleteDataBodySchema = z.object({ email: z.string().check(z.trim(), z.minLength(1), z.maxLength(320)) });

/** Settings › Privacy "Delete Account": the account's email and its password confirm it. */
export const DeleteAccountBodySchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1), z.maxLength(320)),
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

export const DeletedDataSchema = z.object({ deletedMeetings: z.number().check(z.int(), z.nonnegative()) });

/** Settings › Profile "Change": the picture as base64 (PNG, JPEG, WebP, GIF, AVIF, TIFF; at most 5 MB). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AvatarBodySchema = z.object({ image: z.base64().check(z.maxLength(Math.ceil(AVATAR_MAX_BYTES / 3) * 4, 'The picture may be at most 5 MB.')) });
export const AvatarSchema = z.object({ avatarUrl: z.string() });

export const meEndpoints = {
  get: defineEndpoint({ method: 'GET', path: '/api/v1/me', response: MeSchema, tag: 'account', summary: 'Who the bearer token belongs to' }),
  setAvatar: defineEndpoint({
    method: 'PUT',
    path: '/api/v1/me/avatar',
    body: AvatarBodySchema,
    bodyLimit: 8 * 1024 * 1024,
    response: AvatarSchema,
    tag: 'account',
    summary: "Stores the caller's profile picture, resized to 256×256 WebP; answers the URL it is served at",
  }),
  avatar: defineEndpoint({
    method: 'GET',
    path: '/api/v1/avatars/:id',
    params: z.object({ id: z.uuid() }),
    response: 'file',
    auth: false,
    tag: 'account',
    summary: "A person's profile picture (256×256 WebP), for the user menu and team cards",
  }),
  deleteData: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/me/data',
    body: DeleteDataBodySchema,
    apiTokens: false,
    response: DeletedDataSchema,
    tag: 'account',
    summary:
      "Deletes all of the caller's meetings, audio, uploads in progress, share links, notes and settings, and signs out their other sessions; the account stays",
  }),
  deleteAccount: defineEndpoint({
    method: 'DELETE',
    path: '/api/v1/me',
    body: DeleteAccountBodySchema,
    apiTokens: false,
    response: DeletedDataSchema,
    tag: 'account',
    summary: "Deletes the caller's account with all of its data and sessions; its tokens and share links stop working at once",
  }),
};

import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SETTINGS_PATCH_SCHEMAS, SETTINGS_TABS, SettingsResponseSchema, type SettingsTab } from '#shared/contracts/settings.ts';
import type { Db } from '#server/db/create-db.ts';
import { caller } from '../auth/api-guard.ts';
import { parseJsonObject } from '../auth/users.ts';
import { getSettingsResponse, updateUserSettingsTab, type SettingsOwner } from './settings.repository.ts';

/** The caller, with the account name and email that the Billing tab starts from. */
function ownerOf(request: FastifyRequest): SettingsOwner {
  const { user } = caller(request);
  const fullName = parseJsonObject(user.raw_user_meta_data).full_name;
  return { id: user.id, email: user.email, name: typeof fullName === 'string' ? fullName.trim() : null };
}

/**
 * /api/v1/settings: the caller's own settings. GET answers every tab; PUT /api/v1/settings/<tab>
 * (one route per tab, so each body has its own schema) saves the fields it is sent.
 */
export function registerSettingsRoutes(app: FastifyInstance, deps: { db: Db; requireUser: preHandlerAsyncHookHandler }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['settings'];
  api.get(
    '/api/v1/settings',
    { preHandler: deps.requireUser, schema: { tags, response: { 200: SettingsResponseSchema } } },
    async (request) => getSettingsResponse(deps.db, ownerOf(request)),
  );
  for (const tab of SETTINGS_TABS) registerTabRoute(app, deps, tab);
}

function registerTabRoute(app: FastifyInstance, deps: { db: Db; requireUser: preHandlerAsyncHookHandler }, tab: SettingsTab): void {
  app.withTypeProvider<ZodTypeProvider>().put(
    `/api/v1/settings/${tab}`,
    { preHandler: deps.requireUser, schema: { tags: ['settings'], body: SETTINGS_PATCH_SCHEMAS[tab], response: { 200: SettingsResponseSchema } } },
    async (request) => updateUserSettingsTab(deps.db, ownerOf(request), tab, request.body),
  );
}

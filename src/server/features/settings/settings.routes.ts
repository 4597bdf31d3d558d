import type { FastifyRequest } from 'fastify';
import { settingsEndpoints } from '#shared/contracts/settings.ts';
import type { Router } from '#server/http/endpoint-route.ts';
import { caller } from '../auth/api-guard.ts';
import { parseJsonObject } from '../auth/users.ts';
import type { SettingsOwner, SettingsService } from './settings.service.ts';

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
export function registerSettingsRoutes(route: Router, deps: { settings: SettingsService }): void {
  const { settings } = deps;
  route(settingsEndpoints.get, async (request) => settings.get(ownerOf(request)));
  route(settingsEndpoints.notifications, async (request) => settings.update(ownerOf(request), 'notifications', request.body));
  route(settingsEndpoints.recording, async (request) => settings.update(ownerOf(request), 'recording', request.body));
  route(settingsEndpoints.privacy, async (request) => settings.update(ownerOf(request), 'privacy', request.body));
  route(settingsEndpoints.billing, async (request) => settings.update(ownerOf(request), 'billing', request.body));
}

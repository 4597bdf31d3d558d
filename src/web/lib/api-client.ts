import type { ApiErrorBody } from '#shared/errors.ts';
import { loadSupabase } from './supabase.ts';

/** An /api/v1 failure with the server's code and its human message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/**
 * Calls Parley's API with the current access token (refreshed by supabase-js when due). Errors
 * come back as ApiError with the server's message, or a plain network message when offline.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const { data } = await (await loadSupabase()).auth.getSession();
  const token = data.session?.access_token;
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', 'Parley cannot reach its server. Check your connection and try again.');
  }
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const error = (body as Partial<ApiErrorBody> | undefined)?.error;
    throw new ApiError(response.status, error?.code ?? 'UNKNOWN', error?.message ?? `Request failed (${response.status})`);
  }
  return body as T;
}

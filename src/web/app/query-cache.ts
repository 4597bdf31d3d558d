import type { QueryClient } from '@tanstack/react-query';

/**
 * The server-state cache, made by app-layout.tsx (loaded with the first page that reads the API) and
 * forgotten from the app's root when the person changes. Until that layout has loaded nothing is
 * cached, so there is nothing to forget; the root therefore needs only this handle, not react-query.
 */
let cache: QueryClient | undefined;

export function registerQueryCache(client: QueryClient): QueryClient {
  cache = client;
  return client;
}

export function forgetQueryCache(): void {
  cache?.clear();
}

import { lazy, Suspense, useContext, type ReactNode } from 'react';
import { notesStore, progressStore } from '#web/lib/realtime/realtime-store.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { AuthProvider } from '#web/lib/auth/auth-provider.tsx';
import { AuthStartContext } from '#web/lib/auth/auth-context.ts';
import { forgetQueryCache } from './query-cache.ts';

/**
 * The toasts' host, loaded beside the first page rather than before it: no page toasts before it has
 * rendered, and sonner shows a toast raised before its Toaster mounted once it does.
 */
const Toaster = lazy(() => import('#web/components/ui/sonner.tsx').then((module) => ({ default: module.Toaster })));

/**
 * Only the app's pages toast, and each of them asks for the session (useAuth; app-layout.tsx for the
 * public pages that read the API): the host comes with the first of them, so the public site's pages
 * never download it. Once there it stays, for the toast that follows someone out (signed out, to /).
 */
function AppToaster() {
  if (!useContext(AuthStartContext)?.started) return null;
  return (
    <Suspense fallback={null}>
      <Toaster position="top-right" richColors closeButton />
    </Suspense>
  );
}

/** When the person changes, everything cached of the last one goes before the next one's first render. */
function forgetCached(): void {
  forgetQueryCache();
  progressStore.clear();
  notesStore.clear();
}

/** A sign-out forgets the recordings this browser kept of them (issue 11); the store (idb) loads only then. */
async function forgetRecordingsOf(userId: string): Promise<void> {
  const { forgetRecordingsOf: forget } = await import('#web/features/record/capture/recording-store.ts');
  await forget(userId);
}

/**
 * Everything every page shares: the session and toasts, both started by the first page that needs
 * them (not by the public site's pages). When the person changes, everything cached
 * of the last one goes before the next one's first render (the server answers, the realtime events;
 * the socket follows the token); a sign-out also forgets the recordings this browser kept of them.
 * The server-state cache belongs to the pages that use it (app/app-layout.tsx), so the public site
 * does not download it.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <AuthProvider loadClient={loadSupabase} onUserChange={forgetCached} onSignOut={forgetRecordingsOf}>
      {children}
      <AppToaster />
    </AuthProvider>
  );
}

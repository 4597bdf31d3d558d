import { useEffect, useRef } from 'react';
import { useAuth } from '#web/lib/auth/use-auth.ts';
import { loadSupabase } from '#web/lib/supabase.ts';
import { firstVisitTimeZone } from './profile.ts';

/**
 * On a person's first visit, their browser's time zone becomes their profile's (Settings › Profile
 * shows it and they may change it): stored on the account, since the server's exports and emails
 * are written in it. Asked once per page load; a failure leaves it for the next visit.
 */
export function useFirstVisitTimeZone(): void {
  const { user } = useAuth();
  const asked = useRef(false);
  useEffect(() => {
    if (!user || asked.current) return;
    const timezone = firstVisitTimeZone(user);
    if (timezone === undefined) return;
    asked.current = true;
    void loadSupabase()
      .then((supabase) => supabase.auth.updateUser({ data: { timezone } }))
      .catch(() => undefined);
  }, [user]);
}

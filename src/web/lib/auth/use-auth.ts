import { useContext, useEffect } from 'react';
import { AuthContext, AuthStartContext, type AuthContextValue } from './auth-context.ts';

/** The session (loading until it is known); the first page that asks starts the provider reading it. */
export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  const start = useContext(AuthStartContext)?.start;
  useEffect(() => start?.(), [start]);
  if (context === undefined) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}

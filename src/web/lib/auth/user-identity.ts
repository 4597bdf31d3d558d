import type { User } from '@supabase/auth-js';

/** The full name from sign-up metadata, if any. */
export function fullNameOf(user: User | null): string | null {
  const name = user?.user_metadata?.full_name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
}

/** Initials of the full name, or the first letter of the email (spec §2 user menu). */
export function initialsOf(user: User | null): string {
  const name = fullNameOf(user);
  if (name) {
    const parts = name.split(/\s+/).filter(Boolean);
    return parts
      .slice(0, 2)
      .map((p) => p[0]?.toUpperCase() ?? '')
      .join('');
  }
  return (user?.email?.[0] ?? 'U').toUpperCase();
}

/** The name shown in the menu: the full name, or 'User'. */
export const displayNameOf = (user: User | null): string => fullNameOf(user) ?? 'User';

/**
 * The person's profile picture as this server serves it (Settings › Profile "Change" stores its URL
 * in user_metadata.avatar_url); anything else in that field is ignored, so no picture is ever
 * loaded from another site.
 */
export function avatarUrlOf(user: User | null): string | undefined {
  const url = user?.user_metadata?.avatar_url;
  return typeof url === 'string' && url.startsWith('/api/v1/avatars/') ? url : undefined;
}

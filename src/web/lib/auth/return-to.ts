/**
 * Where to go after signing in or up, when a page sent the person to /auth on its way (an
 * invitation to accept). Kept in localStorage so it survives the sign-up's confirmation email opened
 * in another tab. Only an invitation's own address is ever taken back, so nothing stored here can
 * send the person off the site or anywhere unexpected.
 */
const KEY = 'parley.returnTo';
const ALLOWED = /^\/invite\/[A-Za-z0-9_-]{1,200}$/;

export function rememberReturnTo(path: string): void {
  if (!ALLOWED.test(path)) return;
  try {
    localStorage.setItem(KEY, path);
  } catch {
    // No storage: the person opens the invitation link again after signing in.
  }
}

/** The page waiting for the person, without forgetting it (a sign-up's confirmation link is built from it). */
export function peekReturnTo(): string | null {
  try {
    const path = localStorage.getItem(KEY);
    return path !== null && ALLOWED.test(path) ? path : null;
  } catch {
    return null;
  }
}

/** The page waiting for the person, once: the next sign-in goes to the dashboard again. */
export function takeReturnTo(): string | null {
  const path = peekReturnTo();
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
  return path;
}

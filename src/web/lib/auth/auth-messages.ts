/**
 * What people read when auth fails or succeeds: the exact texts of spec §5 and §8, chosen from the
 * server's message as the spec describes ("containing …").
 */
export const AUTH_MESSAGES = {
  passwordTooShort: 'Password must be at least 6 characters long.',
  invalidCredentials: 'Invalid email or password. Please try again.',
  emailNotConfirmed: 'Please check your email and click the confirmation link.',
  signInFailed: 'Failed to sign in. Please try again.',
  alreadyRegistered: 'An account with this email already exists. Please sign in instead.',
  signUpFailed: 'Failed to create account. Please try again.',
  signOutFailed: 'Failed to sign out',
  welcomeBack: 'Welcome back!',
  accountCreated: 'Account created! Please check your email for verification.',
  signedOut: 'Signed out successfully',
  // Not in the spec, whose sign-up text assumes a confirmation email: this server may confirm new
  // accounts at once (no email service), and then there is no email to check.
  accountReady: 'Account created! You are signed in.',
  // Not in the spec (it predates two-factor sign-in): the MFA challenge after a password sign-in.
  mfaInvalidCode: 'Invalid code. Please try again.',
  mfaFailed: 'Failed to verify the code. Please try again.',
  // Not in the spec either (it shows no password reset): "Forgot password?" and /reset-password.
  resetLinkSent: 'Check your email for a link to reset your password.',
  resetRequestFailed: 'The reset link could not be sent. Please try again.',
  resetTooSoon: 'A reset link was sent a moment ago. Please wait a minute before asking for another.',
  resetLinkInvalid: 'This reset link has expired or has already been used. Ask for a new one.',
  passwordReset: 'Your password has been changed',
  passwordResetDescription: 'You are signed in. Your other devices have been signed out.',
  passwordResetFailed: 'Your password could not be changed. Please try again.',
} as const;

export function mfaErrorMessage(serverMessage: string): string {
  if (serverMessage.includes('Invalid TOTP code')) return AUTH_MESSAGES.mfaInvalidCode;
  return AUTH_MESSAGES.mfaFailed;
}

export const MIN_PASSWORD_LENGTH = 6;

/** POST /recover refused: too soon after the last email (429), else a plain failure. */
export function resetRequestErrorMessage(error: { status?: number | undefined }): string {
  return error.status === 429 ? AUTH_MESSAGES.resetTooSoon : AUTH_MESSAGES.resetRequestFailed;
}

export function signInErrorMessage(serverMessage: string): string {
  if (serverMessage.includes('Invalid login credentials')) return AUTH_MESSAGES.invalidCredentials;
  if (serverMessage.includes('Email not confirmed')) return AUTH_MESSAGES.emailNotConfirmed;
  return AUTH_MESSAGES.signInFailed;
}

export function signUpErrorMessage(serverMessage: string): string {
  if (serverMessage.includes('User already registered')) return AUTH_MESSAGES.alreadyRegistered;
  return AUTH_MESSAGES.signUpFailed;
}

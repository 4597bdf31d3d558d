/** The settings toasts of spec §8, word for word, and this screen's own messages. */
export const SETTINGS_MESSAGES = {
  profileUpdated: 'Profile updated successfully',
  profileUpdatedDescription: 'Your changes have been saved.',
  profileFailed: 'Your profile could not be saved',
  notificationsSaved: 'Notification preferences saved',
  recordingSaved: 'Recording settings saved',
  privacyUpdated: 'Privacy settings updated',
  billingUpdated: 'Billing information updated',
  notStored: 'This browser refused to store your settings',
  notStoredDescription: 'Storage may be full or blocked (private browsing). Nothing was saved.',
  passwordTooShort: 'Password must be at least 6 characters long.',
  passwordsDiffer: 'Passwords do not match.',
  samePassword: 'New password should be different from the old password.',
  passwordUpdated: 'Password updated',
  passwordUpdatedDescription: 'Use it the next time you sign in. Your other devices have been signed out.',
  passwordFailed: 'Failed to update password. Please try again.',
  networkFailed: 'The server could not be reached. Check your connection and try again.',
} as const;

/** Said by every control whose feature this installation does not have yet: nothing pretends to work. */
export const notAvailableYet = (what: string): string => `${what} is not available on this installation yet.`;

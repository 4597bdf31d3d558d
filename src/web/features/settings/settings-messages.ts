/** The settings toasts of spec §8, word for word, and this screen's own messages. */
export const SETTINGS_MESSAGES = {
  profileUpdated: 'Profile updated successfully',
  profileUpdatedDescription: 'Your changes have been saved.',
  profileFailed: 'Your profile could not be saved',
  notificationsSaved: 'Notification preferences saved',
  recordingSaved: 'Recording settings saved',
  privacyUpdated: 'Privacy settings updated',
  billingUpdated: 'Billing information updated',
  notificationsFailed: 'Your notification preferences could not be saved',
  recordingFailed: 'Your recording settings could not be saved',
  privacyFailed: 'Your privacy settings could not be saved',
  billingFailed: 'Your billing information could not be saved',
  autoDeleteExplained:
    'Meetings you recorded or imported are deleted, with their audio and transcript, once they are older than this. Sample meetings are kept.',
  loading: 'Loading your settings…',
  loadFailed: 'Your settings could not be loaded.',
  passwordTooShort: 'Password must be at least 6 characters long.',
  passwordsDiffer: 'Passwords do not match.',
  samePassword: 'New password should be different from the old password.',
  passwordUpdated: 'Password updated',
  passwordUpdatedDescription: 'Use it the next time you sign in. Your other devices have been signed out.',
  passwordFailed: 'Failed to update password. Please try again.',
  currentPasswordMissing: 'Enter your current password.',
  currentPasswordWrong: 'Your current password is not correct. Nothing was changed.',
  dataDeleted: 'All your data has been deleted',
  dataDeletedDescription: (meetings: number) =>
    `${meetings} ${meetings === 1 ? 'meeting' : 'meetings'} and everything in them are gone. Your other devices have been signed out.`,
  accountDeleted: 'Your account has been deleted',
  accountDeletedDescription: 'Everything in it is gone. Thank you for using Parley.',
  deleteFailed: 'Nothing was deleted: the server could not finish. Please try again.',
  exportRequested: 'Data export requested',
  exportRequestedDescription: 'We will email you when your archive is ready to download.',
  exportFailed: 'Your data export could not be started.',
  exportDownloadFailed: 'Your data export could not be downloaded',
  pictureUpdated: 'Profile picture updated',
  pictureFailed: 'Your picture could not be changed',
  pictureTooLarge: 'The picture may be at most 5 MB.',
  networkFailed: 'The server could not be reached. Check your connection and try again.',
  saveLocationFixed: 'Recordings are saved on this Parley server. Where on it is chosen by whoever runs the server (its DATA_DIR setting), not per account.',
} as const;

/** Said by every control whose feature this installation does not have yet: nothing pretends to work. */
export const notAvailableYet = (what: string): string => `${what} is not available on this installation yet.`;

/** Settings › Profile's email change (the spec gives no texts for it). */
export const EMAIL_CHANGE_MESSAGES = {
  open: 'Change email',
  title: 'Change your email',
  explanation:
    'We send a confirmation link to your current address and to the new one. Your email changes once both links are opened; until then you sign in with your current email.',
  submit: 'Send confirmation links',
  sending: 'Sending…',
  sentTitle: 'Check both inboxes',
  sent: (current: string, next: string) =>
    `We sent a confirmation link to ${current} and to ${next}. Open both to change your email. If you do not confirm from ${current}, nothing changes.`,
  pending: (next: string) => `Waiting for confirmation of ${next}: open the links sent to both addresses.`,
  missing: 'Enter the new email address.',
  same: 'That is already your email.',
  invalid: 'Enter a valid email address.',
  taken: 'An account with this email already exists.',
  needsSecondFactor: 'Your account uses two-factor authentication: sign in again with your code, then change the email.',
  failed: 'Your email could not be changed. Please try again.',
} as const;

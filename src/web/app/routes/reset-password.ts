export { ResetPasswordPage as Component } from '#web/features/auth/reset-password-page.tsx';

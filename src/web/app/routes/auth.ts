export { AuthPage as Component } from '#web/features/auth/auth-page.tsx';

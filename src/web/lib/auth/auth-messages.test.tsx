import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, signInErrorMessage, signUpErrorMessage } from './auth-messages.ts';

// The texts are requirements word for word (spec §5, §8), so they are spelled out here again.
describe('auth messages', () => {
  it('maps sign-in errors by what the server message contains', () => {
    expect(signInErrorMessage('Invalid login credentials')).toBe('Invalid email or password. Please try again.');
    expect(signInErrorMessage('AuthApiError: Invalid login credentials (400)')).toBe('Invalid email or password. Please try again.');
    expect(signInErrorMessage('Email not confirmed')).toBe('Please check your email and click the confirmation link.');
    expect(signInErrorMessage('Request rate limit reached')).toBe('Failed to sign in. Please try again.');
    expect(signInErrorMessage('')).toBe('Failed to sign in. Please try again.');
  });

  it('maps sign-up errors by what the server message contains', () => {
    expect(signUpErrorMessage('User already registered')).toBe('An account with this email already exists. Please sign in instead.');
    expect(signUpErrorMessage('Password should be at least 6 characters')).toBe('Failed to create account. Please try again.');
    expect(signUpErrorMessage('Failed to fetch')).toBe('Failed to create account. Please try again.');
  });

  it('keeps the success and sign-out texts of the spec', () => {
    expect(AUTH_MESSAGES).toMatchObject({
      passwordTooShort: 'Password must be at least 6 characters long.',
      signOutFailed: 'Failed to sign out',
      welcomeBack: 'Welcome back!',
      accountCreated: 'Account created! Please check your email for verification.',
      signedOut: 'Signed out successfully',
    });
  });
});

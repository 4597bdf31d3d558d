import type { ReactNode } from 'react';

/**
 * A form's error in words, announced as it appears (role="alert") and shown in the destructive
 * colour; nothing at all while there is no error.
 */
export function FormError({ children }: { children: ReactNode }) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <p role="alert" className="text-sm text-destructive">
      {children}
    </p>
  );
}

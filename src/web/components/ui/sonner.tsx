import type { CSSProperties } from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';

/**
 * Text colours of the rich (coloured) toasts, darker than sonner's own, which read at 3.1–4.4:1 on
 * their backgrounds (under WCAG's 4.5:1 for text, axe-core's color-contrast rule); these read at 5.8–6.2:1.
 */
const READABLE_RICH_TEXT = {
  '--success-text': 'hsl(140, 100%, 22%)',
  '--error-text': 'hsl(360, 100%, 38%)',
  '--info-text': 'hsl(210, 92%, 36%)',
  '--warning-text': 'hsl(31, 92%, 30%)',
};

/** The app's toasts (sonner), themed with the shadcn tokens. */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      theme="light"
      className="toaster group"
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
          ...READABLE_RICH_TEXT,
        } as CSSProperties
      }
      {...props}
    />
  );
}

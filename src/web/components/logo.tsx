import { AudioLinesIcon } from 'lucide-react';
import { cn } from '#web/lib/utils.ts';

const SIZES = {
  sm: { text: 'text-lg', icon: 'size-5', gap: 'gap-1.5' },
  md: { text: 'text-2xl', icon: 'size-6', gap: 'gap-2' },
  lg: { text: 'text-4xl', icon: 'size-9', gap: 'gap-2.5' },
} as const;

export type LogoSize = keyof typeof SIZES;

/** The product name as text (spec §2 /auth), with a small sound-wave mark; sizes sm, md, lg. */
export function Logo({ size = 'md', className, showMark = true }: { size?: LogoSize; className?: string; showMark?: boolean }) {
  const s = SIZES[size];
  return (
    <span data-testid="logo" data-size={size} className={cn('inline-flex items-center font-bold tracking-tight', s.text, s.gap, className)}>
      {showMark && <AudioLinesIcon aria-hidden="true" className={cn('text-primary', s.icon)} />}
      <span>Parley</span>
    </span>
  );
}

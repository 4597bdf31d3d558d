import { Trash2Icon } from 'lucide-react';
import { Link } from 'react-router';
import { shiftByAutoDelete } from '#shared/contracts/settings.ts';
import { paths } from '#web/app/paths.ts';
import { formatDate } from '#web/lib/format.ts';
import { cn } from '#web/lib/utils.ts';
import { useUserSettings } from '../api.ts';
import { AUTO_DELETE_OPTIONS } from '../preferences.ts';

/** The meeting a notice is about: when it came into Parley (auto-delete counts from then) and whether it is a sample (never deleted). */
export type AutoDeleteSubject = { createdAt: string; isSample: boolean };

/**
 * Tells people that auto-delete (Settings › Privacy, 90 days unless they change it) removes their
 * meetings: on /record for what they are about to record, on a meeting's page with its date.
 * Nothing while auto-delete is off, for a sample meeting, or until the settings have loaded.
 */
export function AutoDeleteNotice({ meeting, className }: { meeting?: AutoDeleteSubject; className?: string }) {
  const settings = useUserSettings();
  const period = settings.data?.settings.privacy.autoDelete;
  if (!period || period === 'never' || meeting?.isSample) return null;
  const label = AUTO_DELETE_OPTIONS.find((option) => option.value === period)?.label ?? period;
  const when = meeting ? shiftByAutoDelete(period, new Date(meeting.createdAt), 1) : null;
  return (
    <p role="note" aria-label="Auto-delete" className={cn('flex items-start gap-2 text-sm text-muted-foreground', className)}>
      <Trash2Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        {when
          ? `This meeting will be deleted on ${formatDate(when.toISOString())} (auto-delete after ${label}). `
          : `Recordings are deleted automatically ${label} after they are made (auto-delete). `}
        Change this in{' '}
        <Link to={paths.settings.href('privacy')} className="font-medium text-foreground underline underline-offset-4">
          Settings › Privacy
        </Link>
        .
      </span>
    </p>
  );
}

import { CalendarPlusIcon, ChevronRightIcon, DownloadIcon, MessageSquareIcon, MoreVerticalIcon, Share2Icon, Trash2Icon, UsersIcon } from 'lucide-react';
import { DropdownMenu as DropdownMenuPrimitive } from 'radix-ui';
import { toast } from '#web/lib/toast.ts';
import { EXPORT_FORMATS, type MeetingSummary } from '#shared/contracts/meetings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '#web/components/ui/dropdown-menu.tsx';
import { downloadMeetingFile, type DownloadKind } from '../downloads.ts';

type MeetingActionsMenuProps = {
  meeting: MeetingSummary;
  onShare: () => void;
  onDelete: () => void;
  /** Opens "Share with team"; the item is left out without it. */
  onShareWithTeam?: () => void;
  /** Opens "Share to Slack" (anyone who may read the meeting); the item is left out without it. */
  onShareToSlack?: () => void;
  /** Opens "Schedule follow-up" (a calendar event with the open action items); left out without it. */
  onScheduleFollowUp?: () => void;
};

async function download(meeting: MeetingSummary, kind: DownloadKind) {
  const label = kind === 'audio' ? 'audio' : kind.toUpperCase();
  const id = toast.loading(`Preparing ${label}...`);
  try {
    await downloadMeetingFile(meeting.id, kind, `${meeting.title}.${kind === 'audio' ? 'audio' : kind}`);
    toast.success(`Downloaded ${label}`, { id, description: meeting.title });
  } catch (error) {
    toast.error(error instanceof Error ? error.message : 'The download failed. Try again.', { id });
  }
}

const subContentClass =
  'bg-popover text-popover-foreground data-[state=open]:animate-in data-[state=closed]:animate-out data-[state=closed]:fade-out-0 data-[state=open]:fade-in-0 z-50 min-w-[8rem] overflow-hidden rounded-md border p-1 shadow-lg';
const itemClass =
  'focus:bg-accent focus:text-accent-foreground data-[state=open]:bg-accent relative flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-hidden select-none';

/**
 * The card's menu (spec: Download, Share, Delete); Download opens a submenu of formats. A teammate's
 * meeting (shared with the reader's team) offers Download alone: sharing and deleting are its owner's.
 */
export function MeetingActionsMenu({ meeting, onShare, onDelete, onShareWithTeam, onShareToSlack, onScheduleFollowUp }: MeetingActionsMenuProps) {
  const owned = meeting.access !== 'team';
  const kinds: DownloadKind[] = [...EXPORT_FORMATS, ...(meeting.hasAudio ? (['audio'] as const) : [])];
  return (
    // Not modal: the Share and Delete dialogs open from it, and a modal menu closing at the same
    // moment would leave the page without pointer events.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Actions for ${meeting.title}`}>
          <MoreVerticalIcon aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-44">
        <DropdownMenuPrimitive.Sub>
          <DropdownMenuPrimitive.SubTrigger className={itemClass}>
            <DownloadIcon className="size-4 text-muted-foreground" aria-hidden="true" />
            Download
            <ChevronRightIcon className="ml-auto size-4" aria-hidden="true" />
          </DropdownMenuPrimitive.SubTrigger>
          <DropdownMenuPrimitive.Portal>
            <DropdownMenuPrimitive.SubContent className={subContentClass} sideOffset={4}>
              {kinds.map((kind) => (
                <DropdownMenuItem key={kind} onSelect={() => void download(meeting, kind)}>
                  {kind === 'audio' ? 'Audio' : kind.toUpperCase()}
                </DropdownMenuItem>
              ))}
            </DropdownMenuPrimitive.SubContent>
          </DropdownMenuPrimitive.Portal>
        </DropdownMenuPrimitive.Sub>
        {onScheduleFollowUp && (
          <DropdownMenuItem onSelect={onScheduleFollowUp}>
            <CalendarPlusIcon aria-hidden="true" />
            Schedule follow-up
          </DropdownMenuItem>
        )}
        {onShareToSlack && (
          <DropdownMenuItem onSelect={onShareToSlack}>
            <MessageSquareIcon aria-hidden="true" />
            Share to Slack
          </DropdownMenuItem>
        )}
        {owned && (
          <>
            <DropdownMenuItem onSelect={onShare}>
              <Share2Icon aria-hidden="true" />
              Share
            </DropdownMenuItem>
            {onShareWithTeam && (
              <DropdownMenuItem onSelect={onShareWithTeam}>
                <UsersIcon aria-hidden="true" />
                Share with team
              </DropdownMenuItem>
            )}
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive" onSelect={onDelete}>
              <Trash2Icon aria-hidden="true" />
              Delete
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

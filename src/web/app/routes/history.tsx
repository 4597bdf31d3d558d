import { HistoryPage } from '#web/features/meetings/history/history-page.tsx';
import { ShareDialog } from '#web/features/sharing/share-dialog.tsx';

export function Component() {
  return <HistoryPage ShareDialog={ShareDialog} />;
}

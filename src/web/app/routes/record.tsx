import { RecordPage } from '#web/features/record/components/record-page.tsx';
import { AutoDeleteNotice } from '#web/features/settings/components/auto-delete-notice.tsx';

export function Component() {
  return <RecordPage autoDeleteNotice={<AutoDeleteNotice className="mb-4" />} />;
}

export { RecordPage as Component } from '#web/features/record/components/record-page.tsx';

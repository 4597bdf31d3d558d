export { DemoPage as Component } from '#web/features/meetings/demo/demo-page.tsx';

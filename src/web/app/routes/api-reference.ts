export { ApiReferencePage as Component } from '#web/features/settings/developers/reference/api-reference-page.tsx';

export { BlogPage as Component } from '#web/features/marketing/pages/blog-page.tsx';

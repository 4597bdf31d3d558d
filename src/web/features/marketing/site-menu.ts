/**
 * The public site's menu on phones is a native popover (site-header.tsx): its button, Escape and a tap
 * outside open and close it without a script, so the static landing page (vite.config.ts) has
 * it as the app's pages do. What the platform does not do is close it when a link in it is followed
 * to a section of the same page; this listener, on the document, does that for both.
 */
export const SITE_MENU_ID = 'site-menu';

// Not where the landing page is prerendered (vite.config.ts), which has no document.
if (typeof document !== 'undefined') {
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Element) || !event.target.closest('a')) return;
    const menu = event.target.closest<HTMLElement>(`#${SITE_MENU_ID}`);
    if (menu?.matches(':popover-open')) menu.hidePopover();
  });
}

/** The id of the element a page's "Skip to content" link moves to: each layout gives it to its content. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to content" (WCAG 2.4.1): the first thing Tab reaches, shown only while focused, so a
 * keyboard user passes the navigation in one key. Focus moves to the content itself (which takes
 * tabIndex -1) rather than through a #hash the router and the landing page's anchors would read.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        const target = document.getElementById(MAIN_CONTENT_ID);
        if (!target) return;
        event.preventDefault();
        target.focus();
        target.scrollIntoView({ block: 'start' });
      }}
      className="sr-only rounded-md bg-background px-4 py-2 text-sm font-medium text-foreground shadow-md ring-2 ring-ring focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[100]"
    >
      Skip to content
    </a>
  );
}

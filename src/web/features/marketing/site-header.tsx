import { MenuIcon, XIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { paths } from '#web/app/paths.ts';
import { SITE_MENU_ID } from './site-menu.ts';

/** In-page anchors of the landing page (spec §2) and the pricing page. */
const LINKS = [
  { label: 'Features', to: paths.home.href('features') },
  { label: 'Testimonials', to: paths.home.href('testimonials') },
  { label: 'Pricing', to: paths.pricing.href() },
  { label: 'Help', to: paths.help.href() },
] as const;

/**
 * The public site's header: logo, section links, Sign In (to /auth) and Get Started (to /auth's Sign
 * Up tab), and on phones a menu, a native popover (see site-menu.ts), so the landing page has it as
 * static HTML with no script.
 */
export function SiteHeader() {
  const location = useLocation();
  return (
    <header className="group/header sticky top-0 z-40 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to={paths.home.href()} aria-label="Parley home" className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
          <Logo size="sm" />
        </Link>
        <nav aria-label="Site" className="hidden items-center gap-1 text-sm md:flex">
          {LINKS.map((link) => (
            <Link
              key={link.label}
              to={link.to}
              aria-current={location.pathname === link.to ? 'page' : undefined}
              className="rounded-md px-3 py-2 text-muted-foreground transition-colors hover:bg-accent hover:text-foreground aria-[current=page]:text-foreground"
            >
              {link.label}
            </Link>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <AccountLinks signIn="ghost" />
        </div>
        {/* The browser tells assistive technology whether the menu it opens is expanded; the icon follows it. */}
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Menu" popoverTarget={SITE_MENU_ID}>
          <MenuIcon className="group-has-[#site-menu:popover-open]/header:hidden" />
          <XIcon className="hidden group-has-[#site-menu:popover-open]/header:block" />
        </Button>
      </div>
      <nav
        id={SITE_MENU_ID}
        popover="auto"
        aria-label="Site menu"
        className="inset-x-0 top-16 bottom-auto m-0 w-auto max-w-none border-0 border-t bg-background px-4 pt-2 pb-4 text-foreground shadow-sm md:hidden"
      >
        <ul className="grid gap-1">
          {LINKS.map((link) => (
            <li key={link.label}>
              <Link to={link.to} className="block rounded-md px-3 py-2.5 font-medium hover:bg-accent">
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        <div className="mt-3 grid grid-cols-2 gap-2">
          <AccountLinks signIn="outline" />
        </div>
      </nav>
    </header>
  );
}

/** Sign In (to /auth) and Get Started (to /auth's Sign Up tab), in the header and in the phone menu. */
function AccountLinks({ signIn }: { signIn: 'ghost' | 'outline' }) {
  return (
    <>
      <Button variant={signIn} asChild>
        <Link to={paths.auth.href()}>Sign In</Link>
      </Button>
      <Button asChild>
        <Link to={paths.auth.href('signup')}>Get Started</Link>
      </Button>
    </>
  );
}

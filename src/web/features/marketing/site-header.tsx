import { MenuIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Logo } from '#web/components/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';

const LINKS = [
  { label: 'Features', href: '/#features' },
  { label: 'Testimonials', href: '/#testimonials' },
  { label: 'Pricing', href: '/pricing' },
  { label: 'Help', href: '/help' },
];

/** The public site's header: logo, section links, and the way in. */
export function SiteHeader() {
  const [open, setOpen] = useState(false);
  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
        <Link to="/" aria-label="Parley home">
          <Logo size="sm" />
        </Link>
        <nav aria-label="Site" className="hidden items-center gap-6 text-sm md:flex">
          {LINKS.map((link) => (
            <a key={link.label} href={link.href} className="text-muted-foreground transition-colors hover:text-foreground">
              {link.label}
            </a>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <Button variant="ghost" asChild>
            <Link to="/auth">Sign In</Link>
          </Button>
          <Button asChild>
            <Link to="/auth">Start free trial</Link>
          </Button>
        </div>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label={open ? 'Close menu' : 'Open menu'} aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? <XIcon /> : <MenuIcon />}
        </Button>
      </div>
      {open && (
        <nav aria-label="Site menu" className="border-t px-4 py-3 md:hidden">
          <ul className="grid gap-1">
            {LINKS.map((link) => (
              <li key={link.label}>
                <a href={link.href} onClick={() => setOpen(false)} className="block rounded-md px-2 py-2 hover:bg-accent">
                  {link.label}
                </a>
              </li>
            ))}
            <li className="mt-2 grid grid-cols-2 gap-2">
              <Button variant="outline" asChild>
                <Link to="/auth">Sign In</Link>
              </Button>
              <Button asChild>
                <Link to="/auth">Start free trial</Link>
              </Button>
            </li>
          </ul>
        </nav>
      )}
    </header>
  );
}

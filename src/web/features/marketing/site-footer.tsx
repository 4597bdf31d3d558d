import { Link } from 'react-router';
import { Logo } from '#web/components/logo.tsx';

const COLUMNS = [
  { title: 'Product', links: [{ label: 'Features', to: '/#features' }, { label: 'Pricing', to: '/pricing' }, { label: 'Demo', to: '/demo' }] },
  { title: 'Resources', links: [{ label: 'Blog', to: '/blog' }, { label: 'Help', to: '/help' }, { label: 'Guides', to: '/guides' }] },
  { title: 'Company', links: [{ label: 'About', to: '/about' }, { label: 'Careers', to: '/careers' }, { label: 'Contact', to: '/contact' }] },
  { title: 'Legal', links: [{ label: 'Privacy', to: '/privacy' }, { label: 'Terms', to: '/terms' }] },
];

export function SiteFooter() {
  return (
    <footer className="border-t bg-muted/30">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 md:grid-cols-5">
        <div className="md:col-span-1">
          <Logo size="sm" />
          <p className="mt-3 text-sm text-muted-foreground">Your voice meeting assistant. Open source and self-hostable.</p>
        </div>
        {COLUMNS.map((column) => (
          <div key={column.title}>
            <h2 className="text-sm font-semibold">{column.title}</h2>
            <ul className="mt-3 grid gap-2 text-sm">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link to={link.to} className="text-muted-foreground hover:text-foreground">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="border-t py-6 text-center text-xs text-muted-foreground">© {new Date().getFullYear()} Parley · MIT licensed</div>
    </footer>
  );
}

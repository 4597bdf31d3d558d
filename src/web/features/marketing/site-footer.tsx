import { Link } from 'react-router';
import { Logo } from '#web/components/logo.tsx';
import { paths } from '#web/app/paths.ts';

const COLUMNS = [
  {
    title: 'Product',
    links: [
      { label: 'Features', to: paths.home.href('features') },
      { label: 'Testimonials', to: paths.home.href('testimonials') },
      { label: 'Pricing', to: paths.pricing.href() },
      { label: 'Demo', to: paths.demo.href() },
    ],
  },
  {
    title: 'Resources',
    links: [
      { label: 'Blog', to: paths.blog.href() },
      { label: 'Help', to: paths.help.href() },
      { label: 'Guides', to: paths.guides.href() },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'About', to: paths.about.href() },
      { label: 'Careers', to: paths.careers.href() },
      { label: 'Contact', to: paths.contact.href() },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Privacy', to: paths.privacy.href() },
      { label: 'Terms', to: paths.terms.href() },
    ],
  },
] as const;

/** The public site's footer: product, resources, company and legal links. */
export function SiteFooter() {
  return (
    <footer className="border-t bg-muted/30">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-12 sm:px-6 md:grid-cols-6">
        <div className="col-span-2">
          <Link to={paths.home.href()} aria-label="Parley home" className="inline-block rounded-md">
            <Logo size="sm" />
          </Link>
          <p className="mt-3 max-w-xs text-sm text-muted-foreground">Your voice meeting assistant: record, transcribe and understand every meeting.</p>
        </div>
        {COLUMNS.map((column) => (
          <div key={column.title}>
            <h2 className="text-sm font-semibold">{column.title}</h2>
            <ul className="mt-3 grid gap-2 text-sm">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link to={link.to} className="text-muted-foreground transition-colors hover:text-foreground">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="border-t">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-xs text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>© {new Date().getFullYear()} Parley. MIT licensed.</p>
          <p>Open source and self-hostable.</p>
        </div>
      </div>
    </footer>
  );
}

import type { ReactNode } from 'react';
import { MAIN_CONTENT_ID } from '#web/components/layout/skip-link.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** Header, the page, footer: the frame of every public page. */
export function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-svh flex-col bg-background">
      <SiteHeader />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 outline-none">
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

/** Typography for the sections of a text page (headings, paragraphs, lists, inline code). */
const PROSE =
  'grid gap-10 leading-7 ' +
  '[&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-foreground [&_h2+*]:mt-3 ' +
  '[&_p]:text-muted-foreground [&_p+p]:mt-3 [&_p+ul]:mt-3 [&_ul+p]:mt-3 [&_ol+p]:mt-3 ' +
  '[&_ul]:grid [&_ul]:list-disc [&_ul]:gap-2 [&_ul]:pl-5 [&_ul]:text-muted-foreground [&_ul]:marker:text-primary ' +
  '[&_ol]:grid [&_ol]:list-decimal [&_ol]:gap-2 [&_ol]:pl-5 [&_ol]:text-muted-foreground [&_ol]:marker:text-primary ' +
  '[&_strong]:font-semibold [&_strong]:text-foreground ' +
  '[&_code]:rounded [&_code]:bg-muted [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em] [&_code]:text-foreground [&_code]:break-words';

/** A text page of the public site: an eyebrow, a title (the page's h1), a lead, and sections. */
export function ContentPage({ eyebrow, title, lead, children }: { eyebrow?: string; title: string; lead: ReactNode; children: ReactNode }) {
  return (
    <SiteLayout>
      <div className="border-b bg-gradient-to-b from-accent/60 to-background">
        <div className="mx-auto max-w-3xl px-4 py-14 sm:px-6 md:py-20">
          {eyebrow && <p className="mb-3 text-sm font-medium text-primary">{eyebrow}</p>}
          <h1 className="text-3xl font-bold tracking-tight text-balance md:text-5xl">{title}</h1>
          <p className="mt-4 text-lg text-pretty text-muted-foreground">{lead}</p>
        </div>
      </div>
      <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 md:py-16">
        <div className={PROSE}>{children}</div>
      </article>
    </SiteLayout>
  );
}

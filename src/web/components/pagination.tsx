import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from './ui/button.tsx';

export const totalPages = (total: number, pageSize: number): number => Math.max(1, Math.ceil(total / pageSize));

/**
 * The page buttons to show: all of them when there are few, otherwise the first, the last and the
 * current page with its neighbours, with 'gap' where pages are skipped.
 */
export function pageItems(page: number, pages: number): (number | 'gap')[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  const shown = new Set([1, pages, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pages));
  if (page <= 3) [2, 3, 4].forEach((p) => shown.add(p));
  if (page >= pages - 2) [pages - 3, pages - 2, pages - 1].forEach((p) => shown.add(p));
  const sorted = [...shown].sort((a, b) => a - b);
  const items: (number | 'gap')[] = [];
  for (const p of sorted) {
    const previous = items.at(-1);
    if (typeof previous === 'number' && p - previous > 1) items.push('gap');
    items.push(p);
  }
  return items;
}

type PaginationProps = { page: number; pages: number; hrefFor: (page: number) => string };

/** Previous, the page numbers (current one highlighted) and Next; plain links, so each page has a URL. */
export function Pagination({ page, pages, hrefFor }: PaginationProps) {
  const edge = (target: number, label: string, icon: ReactNode, iconFirst: boolean) => {
    const content = iconFirst ? (
      <>
        {icon}
        {label}
      </>
    ) : (
      <>
        {label}
        {icon}
      </>
    );
    return target < 1 || target > pages ? (
      <Button variant="outline" disabled>
        {content}
      </Button>
    ) : (
      <Button variant="outline" asChild>
        <Link to={hrefFor(target)}>{content}</Link>
      </Button>
    );
  };
  return (
    <nav aria-label="Pagination" className="mt-8 flex flex-wrap items-center justify-center gap-1">
      {edge(page - 1, 'Previous', <ChevronLeftIcon aria-hidden="true" />, true)}
      {pageItems(page, pages).map((item, i) =>
        item === 'gap' ? (
          <span key={`gap-${i}`} aria-hidden="true" className="px-2 text-muted-foreground">
            …
          </span>
        ) : (
          <Button key={item} variant={item === page ? 'default' : 'outline'} size="icon" asChild>
            <Link to={hrefFor(item)} aria-label={`Page ${item}`} aria-current={item === page ? 'page' : undefined}>
              {item}
            </Link>
          </Button>
        ),
      )}
      {edge(page + 1, 'Next', <ChevronRightIcon aria-hidden="true" />, false)}
    </nav>
  );
}

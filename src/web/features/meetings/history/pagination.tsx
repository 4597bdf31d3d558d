import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { pageItems } from './history-params.ts';

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

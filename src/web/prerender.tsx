import type { ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/app.tsx';

/**
 * A page of the app as static HTML, rendered by the build (vite.config.ts: the landing page) from the
 * same tree as main.tsx, once every chunk it needs has loaded. Anything that fails while rendering
 * fails the build: React would otherwise leave the part that failed empty, for the browser to fill.
 */
export async function renderPage(url: string): Promise<string> {
  const errors: unknown[] = [];
  const AtUrl = ({ children }: { children: ReactNode }) => <StaticRouter location={url}>{children}</StaticRouter>;
  const { prelude } = await prerender(<App Router={AtUrl} />, { onError: (error) => void errors.push(error) });
  if (errors.length > 0) throw new Error(`rendering ${url} failed`, { cause: errors[0] });
  return new Response(prelude).text();
}

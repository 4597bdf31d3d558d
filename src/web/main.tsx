import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app.tsx';
import { preloadPage } from './app/router.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The first page renders once its chunks are here, so it shows whole at once (see lazyRoute); until
// then the page is blank, as it would be while they download. A chunk that failed shows RouteError.
// As a transition, React renders it in slices that leave the main thread free between them (a
// phone's CPU takes a few hundred milliseconds over a signed-in page), and shows it once all is done.
void preloadPage(window.location.pathname).then(() => startTransition(() => createRoot(root).render(<App Router={BrowserRouter} />)));

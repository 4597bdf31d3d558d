import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { AppProvider } from './provider.tsx';
import { AppRoutes } from './router.tsx';

/**
 * The whole app under a router: the browser's in main.tsx, one fixed location where the build
 * prerenders a page (prerender.tsx), so both render the same tree.
 */
export function App({ Router }: { Router: ComponentType<{ children: ReactNode }> }) {
  return (
    <StrictMode>
      <AppProvider>
        <Router>
          <AppRoutes />
        </Router>
      </AppProvider>
    </StrictMode>
  );
}

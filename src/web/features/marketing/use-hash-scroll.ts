import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * Client-side navigation to '/#features' does not scroll by itself: once the page has rendered,
 * bring the element named by the hash into view (on every navigation, so a second click works too).
 */
export function useHashScroll() {
  const { hash, key } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    target?.scrollIntoView({ block: 'start' });
  }, [hash, key]);
}

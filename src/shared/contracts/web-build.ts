/**
 * The static landing page: the web build (vite.config.ts) prerenders `/` into this file beside
 * index.html, and the server (http/spa.ts) sends it for `/`.
 */
export const LANDING_PAGE_FILE = 'landing.html';

/**
 * The window property /app-config.js sets before the app's module loads. A module of its own, free
 * of zod, so the web app's entry chunk (the landing page's first download) does not carry zod.
 */
export const APP_CONFIG_GLOBAL = '__PARLEY_CONFIG__';

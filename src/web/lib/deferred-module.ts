/**
 * A module loaded once, when first asked for, whose value can then be read synchronously: what the
 * first page can do without (sonner; Radix's menus, tooltips and sheet with their positioning). A
 * failed download (a dropped connection, a new deployment's files) is forgotten, so the next ask
 * tries again.
 */
export type DeferredModule<T> = { load: () => Promise<T>; current: () => T | undefined };

export function deferredModule<T>(load: () => Promise<T>): DeferredModule<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    load: () =>
      (loading ??= load().then(
        (module) => (value = module),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
    current: () => value,
  };
}

import type { ExternalToast, toast as sonnerToast } from 'sonner';
import { deferredModule } from './deferred-module.ts';

/**
 * The app's toasts: sonner's `toast`, with sonner itself loaded off the first page's critical path.
 * Imported directly, it came with every page that toasts (the shell and the dashboard among them):
 * 9 KiB gzip that had to arrive before the first render, though nothing toasts until someone acts.
 * Now it arrives with the toasts' host (app/provider.tsx loads components/ui/sonner.tsx beside the
 * first page), and a toast raised before then shows once it has, in the order raised.
 */
type Sonner = typeof sonnerToast;
type Message = Parameters<Sonner>[0];
type ToastId = string | number;

const sonner = deferredModule(() => import('sonner').then((module) => module.toast));

let lastId = 0;

/**
 * Raises a toast of one kind once sonner is here. Its id is chosen now (the caller's, or a new one),
 * so a caller can update the toast it raised (a loading toast turned into its outcome) before sonner
 * has even arrived; the updates follow it in order.
 */
function raise(show: (toast: Sonner, message: Message, data: ExternalToast) => ToastId) {
  return (message: Message, data?: ExternalToast): ToastId => {
    const id = data?.id ?? `toast-${++lastId}`;
    sonner.load().then(
      (toast) => show(toast, message, { ...data, id }),
      // Its script did not load (the network dropped, or a new version replaced it): the next toast tries again.
      (error: unknown) => console.error('A toast could not be shown: sonner did not load.', error),
    );
    return id;
  };
}

export const toast = Object.assign(
  raise((toast, message, data) => toast(message, data)),
  {
    success: raise((toast, message, data) => toast.success(message, data)),
    info: raise((toast, message, data) => toast.info(message, data)),
    warning: raise((toast, message, data) => toast.warning(message, data)),
    error: raise((toast, message, data) => toast.error(message, data)),
    loading: raise((toast, message, data) => toast.loading(message, data)),
  },
);

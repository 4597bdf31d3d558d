import { Slot as SlotPrimitive } from 'radix-ui';
import { useRef, useState, type ButtonHTMLAttributes, type ReactElement, type ReactNode } from 'react';
import { deferredModule } from '#web/lib/deferred-module.ts';
import type * as DialogKitModule from './dialog.tsx';
import { useDeferredModule } from './use-deferred-module.ts';

type DialogKit = typeof DialogKitModule;
const dialogKit = deferredModule(() => import('./dialog.tsx'));

/** Said when the dialog's code cannot be downloaded; the next press tries again. */
const DIALOG_LOAD_FAILED = 'This dialog could not be downloaded. Check your connection and try again.';

/**
 * The trigger's props go onto the element given, as Radix's `asChild` puts them: its own handlers run
 * first, its own class and attributes win, and its ref is kept beside this one. (Radix's slot, already
 * on the first page with the buttons.)
 */
const TriggerSlot = SlotPrimitive.createSlot<HTMLButtonElement, ButtonHTMLAttributes<HTMLButtonElement>>('DeferredDialogTrigger');

/**
 * A modal dialog whose trigger shows at once and whose code (Radix's dialog, its focus trap and scroll
 * lock: some 9 KiB gzip) comes after the first page: fetched when the person points at or focuses the
 * trigger, and asked for when they press it. A press before it is here opens the dialog when it
 * arrives; a failed download says so and leaves the dialog closed, and the next press tries again.
 *
 * The trigger is the same element throughout (not Radix's DialogTrigger, which needs the code), so it
 * keeps the focus across the code's arrival; it says what Radix's would (a button opening a dialog,
 * expanded while it is open), and the focus comes back to it when the dialog closes. `children` draws
 * what is inside the dialog's content with the loaded components.
 */
export function DeferredDialog({ trigger, children }: { trigger: ReactElement; children: (kit: DialogKit) => ReactNode }) {
  const [kit, want] = useDeferredModule(dialogKit, DIALOG_LOAD_FAILED);
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);

  return (
    <>
      <TriggerSlot
        ref={triggerRef}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        data-state={open ? 'open' : 'closed'}
        onPointerEnter={() => void want({ quiet: true })}
        onFocus={() => void want({ quiet: true })}
        onClick={(event) => {
          // The trigger's own handler has run (the slot calls it first), and may have kept the dialog shut.
          if (event.defaultPrevented) return;
          setOpen(true);
          // Not left open after a failure: the arrival of a later prefetch would open the dialog unasked.
          void want().then((loaded) => loaded || setOpen(false));
        }}
      >
        {trigger}
      </TriggerSlot>
      {kit && (
        <kit.Dialog open={open} onOpenChange={setOpen}>
          <kit.DialogContent
            // Radix returns the focus to its own trigger, which there is none of: to this one instead.
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              triggerRef.current?.focus();
            }}
          >
            {children(kit)}
          </kit.DialogContent>
        </kit.Dialog>
      )}
    </>
  );
}

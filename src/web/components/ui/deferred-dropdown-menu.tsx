import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type ComponentProps,
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { deferredModule } from '#web/lib/deferred-module.ts';
import type * as DropdownMenuKit from './dropdown-menu.tsx';
import { useDeferredModule } from './use-deferred-module.ts';

type MenuKit = typeof DropdownMenuKit;
const menuKit = deferredModule(() => import('./dropdown-menu.tsx'));

/** The keys that open a Radix dropdown menu from its trigger. */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

type TriggerProps = ComponentProps<'button'>;

/** How the person opened the menu before its code was here: a pointer press, or one of the opening keys. */
type EarlyPress = { by: 'pointer' } | { by: 'key'; key: string };

/**
 * A dropdown menu whose trigger shows at once and whose code (Radix's menu and its positioning) comes
 * after the first page: fetched when the person points at, focuses or presses the trigger. (Fetched
 * when the browser was idle instead, it rendered both menus again inside the first page's busiest
 * seconds: Lighthouse's blocking time on /dashboard rose by some 60 ms.) A press before it is here
 * opens the menu when it arrives — a key press as that key would have (Radix then moves the focus
 * into the items) — and the trigger keeps the focus it had. `children` draws the content with the
 * loaded components.
 */
export function DeferredDropdownMenu({
  trigger,
  modal,
  children,
}: {
  trigger: ReactElement<TriggerProps>;
  modal?: boolean;
  children: (kit: MenuKit) => ReactNode;
}) {
  const [kit, want] = useDeferredModule(menuKit);
  const [early, setEarly] = useState<EarlyPress>();
  const real = useRef<HTMLButtonElement>(null);
  // Whether the placeholder trigger holds the focus. Its removal may blur it (browsers differ), so
  // only a focus that went somewhere else counts as leaving.
  const [hadFocus, setHadFocus] = useState(false);

  // After Radix's own effects (this component's run after its children's): its menu listens for keys by now.
  useEffect(() => {
    const node = real.current;
    if (!kit || !node) return;
    // Radix's trigger replaced the placeholder: it takes over the focus the placeholder had.
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if ((hadFocus && focusLost) || early?.by === 'key') node.focus();
    if (early?.by === 'key') node.dispatchEvent(new KeyboardEvent('keydown', { key: early.key, bubbles: true, cancelable: true }));
    // Once, when the code arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kit]);

  if (!kit) {
    const press = (how: EarlyPress) => {
      setEarly(how);
      want();
    };
    return cloneElement(trigger, {
      onPointerEnter: () => want({ quiet: true }),
      onFocus: () => {
        setHadFocus(true);
        want({ quiet: true });
      },
      onBlur: (event: FocusEvent<HTMLButtonElement>) => {
        if (event.relatedTarget) setHadFocus(false);
      },
      onPointerDown: (event: PointerEvent<HTMLButtonElement>) => event.button === 0 && !event.ctrlKey && press({ by: 'pointer' }),
      onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        press({ by: 'key', key: event.key });
      },
    } as TriggerProps);
  }
  return (
    <kit.DropdownMenu modal={modal} defaultOpen={early?.by === 'pointer'}>
      <kit.DropdownMenuTrigger asChild ref={real}>
        {trigger}
      </kit.DropdownMenuTrigger>
      {children(kit)}
    </kit.DropdownMenu>
  );
}

export type PlayerAction = 'toggle' | 'back' | 'forward';

/** Where keys belong to what has focus: typing, choosing from a list or menu, a dialog. */
const OWNS_KEYS =
  'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"], [role="listbox"], [role="menu"], [role="menuitem"], [role="dialog"], [role="alertdialog"], [role="tablist"], [role="radiogroup"]';
/** These press themselves on space; the player must not toggle as well. */
const PRESSES_ON_SPACE = 'button, a[href], summary, [role="button"], [role="checkbox"], [role="switch"], [role="link"]';

/**
 * The player's keyboard shortcuts, anywhere on the meeting page except where the key already means
 * something: space plays or pauses, ← and → skip back and forward. undefined: leave the key alone.
 */
export function playerShortcut(
  event: Pick<KeyboardEvent, 'key' | 'target' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'repeat' | 'defaultPrevented'>,
): PlayerAction | undefined {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return undefined;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest(OWNS_KEYS)) return undefined;
  if (event.key === ' ') return event.repeat || target?.closest(PRESSES_ON_SPACE) ? undefined : 'toggle';
  if (event.key === 'ArrowLeft') return 'back';
  if (event.key === 'ArrowRight') return 'forward';
  return undefined;
}

import { describe, expect, it } from 'vitest';
import { playerShortcut } from './player-keys.ts';

/** A key pressed with focus on `html` (the first element it makes), as the document's listener sees it. */
function press(key: string, html = '<div></div>', modifiers: Partial<KeyboardEvent> = {}) {
  const host = document.createElement('div');
  host.innerHTML = html;
  document.body.append(host);
  const target = host.querySelector('[data-focus]') ?? host.firstElementChild!;
  const action = playerShortcut({
    key,
    target,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    repeat: false,
    defaultPrevented: false,
    ...modifiers,
  });
  host.remove();
  return action;
}

describe("the player's keyboard shortcuts", () => {
  it('space plays or pauses and the arrows skip, with focus on the page', () => {
    expect(press(' ')).toBe('toggle');
    expect(press('ArrowLeft')).toBe('back');
    expect(press('ArrowRight')).toBe('forward');
    expect(press('ArrowUp')).toBeUndefined();
    expect(press('k')).toBeUndefined();
  });

  it('leave typing, lists, menus and dialogs alone, and modified keys too', () => {
    for (const html of [
      '<input />',
      '<textarea></textarea>',
      '<select></select>',
      '<div contenteditable="true"></div>',
      '<div role="menu"><span data-focus>item</span></div>',
      '<div role="dialog"><span data-focus>inside</span></div>',
    ]) {
      expect(press(' ', html), html).toBeUndefined();
      expect(press('ArrowRight', html), html).toBeUndefined();
    }
    expect(press('ArrowRight', '<div></div>', { ctrlKey: true })).toBeUndefined();
    expect(press(' ', '<div></div>', { shiftKey: true })).toBeUndefined();
  });

  it('leave space to a focused button or link, which presses itself, but skip with the arrows there', () => {
    expect(press(' ', '<button>Edit</button>')).toBeUndefined();
    expect(press(' ', '<a href="/x">x</a>')).toBeUndefined();
    expect(press('ArrowRight', '<button>Edit</button>')).toBe('forward');
    // Held down, space toggles once.
    expect(press(' ', '<div></div>', { repeat: true })).toBeUndefined();
  });
});

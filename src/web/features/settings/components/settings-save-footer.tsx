import type { ReactNode } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { CardFooter } from '#web/components/ui/card.tsx';

type SettingsSaveFooterProps = {
  /** The button's text, as the spec names it per tab ("Save Settings", "Save Preferences", …). */
  label: string;
  /** A save is under way: the button is disabled and marked busy. */
  isSaving: boolean;
  /** Called on click; without it the button submits the form it sits in. */
  onSave?: () => void;
  /** Other controls of the footer, placed before the save button. */
  children?: ReactNode;
};

/** A settings card's footer: its save button (busy while saving), right-aligned after any other controls. */
export function SettingsSaveFooter({ label, isSaving, onSave, children }: SettingsSaveFooterProps) {
  return (
    <CardFooter className="flex-wrap justify-end gap-2">
      {children}
      <Button type={onSave ? undefined : 'submit'} onClick={onSave} disabled={isSaving} aria-busy={isSaving}>
        {label}
      </Button>
    </CardFooter>
  );
}

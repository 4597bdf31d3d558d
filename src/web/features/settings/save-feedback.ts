import { toast } from 'sonner';
import { SETTINGS_MESSAGES } from './settings-messages.ts';

/** The save buttons of the browser-stored tabs: the spec's toast when stored, an error otherwise. */
export function reportSaved(stored: boolean, message: string): void {
  if (stored) toast.success(message);
  else toast.error(SETTINGS_MESSAGES.notStored, { description: SETTINGS_MESSAGES.notStoredDescription });
}

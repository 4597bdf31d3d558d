import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toaster } from '#web/components/ui/sonner.tsx';
import { toast } from './toast.ts';

describe('toast', () => {
  it('shows toasts raised before sonner has loaded, in order, and a loading toast turned into its outcome is one toast', async () => {
    // Raised before the host is there and before sonner's module has loaded (the first call loads it).
    const id = toast.loading('Preparing PDF...');
    toast.success('Downloaded PDF', { id, description: 'Weekly Team Standup' });
    toast.error('Could not save the title');
    render(<Toaster />);

    const region = await screen.findByRole('region', { name: /Notifications/ });
    await within(region).findByText('Downloaded PDF');
    expect(within(region).queryByText('Preparing PDF...')).toBeNull();
    expect(within(region).getByText('Weekly Team Standup')).toBeTruthy();
    const shown = within(region)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    // Newest first, as sonner stacks them: the error raised last, then the download's one toast.
    expect(shown).toEqual([expect.stringContaining('Could not save the title'), expect.stringContaining('Downloaded PDF')]);
  });
});

import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { availabilityVariant } from '#web/features/team/team-data.ts';
import { Component as TeamRoute } from './team.tsx';

const stats = vi.hoisted(() => ({ data: undefined as { meetings: number } | undefined }));
vi.mock('#web/features/meetings/api.ts', () => ({ useMeetingStats: () => stats }));

afterEach(() => {
  cleanup();
  stats.data = undefined;
});

describe('/team', () => {
  it('maps status to the spec badge styles', () => {
    expect(availabilityVariant('active')).toBe('default');
    expect(availabilityVariant('busy')).toBe('destructive');
    expect(availabilityVariant('away')).toBe('outline');
  });

  it('lists you first, as Owner and Available, with your own meeting count; everyone else is a Sample', () => {
    stats.data = { meetings: 7 };
    render(<TeamRoute />, { wrapper: SignedIn });
    const members = within(screen.getByRole('list', { name: 'Team members' })).getAllByRole('listitem');
    expect(members).toHaveLength(6);
    const [you, ...others] = members;
    const mine = within(you!);
    mine.getByRole('heading', { name: 'Ada Lovelace' });
    mine.getByText('Owner');
    mine.getByText('ada@example.com');
    expect(mine.getAllByText('7')).toHaveLength(2); // recorded and attended
    expect(mine.queryByText('Sample')).toBeNull();
    expect(mine.getByText('Available').getAttribute('data-variant')).toBe('default');
    for (const other of others) within(other).getByText('Sample');
  });

  it('shows a dash for your counts while they load, and the details in View Profile', () => {
    render(<TeamRoute />, { wrapper: SignedIn });
    const you = within(within(screen.getByRole('list', { name: 'Team members' })).getAllByRole('listitem')[0]!);
    expect(you.getAllByText('—')).toHaveLength(2);
    fireEvent.click(you.getByRole('button', { name: 'View Profile of Ada Lovelace' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Ada Lovelace' }));
    dialog.getByText('ada@example.com');
    dialog.getByText('You');
  });
});

import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryError } from './query-error.tsx';

afterEach(cleanup);

const error = new Error('The database is not answering.');

describe('QueryError', () => {
  it('says what could not be loaded, with the reason under it by default, and Try again loads again', () => {
    const retry = vi.fn();
    render(<QueryError error={error} retry={retry} title="Your meetings could not be loaded." />);
    expect(screen.getByRole('alert').textContent).toBe('Your meetings could not be loaded.The database is not answering.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('keeps each screen’s wording: the reason in the same sentence, or left out', () => {
    const { rerender } = render(<QueryError error={error} retry={() => {}} title="The status could not be loaded:" reason="inline" />);
    expect(screen.getByRole('alert').textContent).toBe('The status could not be loaded: The database is not answering.');
    rerender(<QueryError error={error} retry={() => {}} title="Insights could not be loaded." reason="none" />);
    expect(screen.getByRole('alert').textContent).toBe('Insights could not be loaded.');
  });

  it('keeps a card heading and holds Try again while a retry is under way', () => {
    render(<QueryError error={error} retry={() => {}} title="Your settings could not be loaded." reason="inline" heading="Billing Information" retrying />);
    expect(screen.getByText('Billing Information')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' }).hasAttribute('disabled')).toBe(true);
  });
});

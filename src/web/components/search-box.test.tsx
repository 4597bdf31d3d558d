import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS, SearchBox } from './search-box.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** The box wired as /history wires it: the committed query is state the box is told about. */
function Harness({ onSearch }: { onSearch: (q: string) => void }) {
  const [q, setQ] = useState('');
  return (
    <>
      <SearchBox
        label="Search meetings"
        placeholder="Search titles, summaries and transcripts..."
        value={q}
        onSearch={(next) => {
          onSearch(next);
          setQ(next);
        }}
      />
      <button type="button" onClick={() => setQ('')}>
        reset from outside
      </button>
    </>
  );
}

const box = () => screen.getByRole('searchbox', { name: 'Search meetings' }) as HTMLInputElement;

describe('SearchBox', () => {
  it('searches once, after the typing pauses, with the trimmed text', () => {
    const onSearch = vi.fn();
    render(<Harness onSearch={onSearch} />);
    for (const text of ['r', 'ro', 'road', 'roadmap ']) {
      fireEvent.change(box(), { target: { value: text } });
      act(() => void vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 50));
    }
    expect(onSearch).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(50));
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('roadmap');
  });

  it('searches at once on Enter, and follows a query cleared from outside', () => {
    const onSearch = vi.fn();
    render(<Harness onSearch={onSearch} />);
    fireEvent.change(box(), { target: { value: 'budget' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('budget');
    fireEvent.click(screen.getByRole('button', { name: 'reset from outside' }));
    expect(box().value).toBe('');
    act(() => void vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2));
    expect(onSearch).toHaveBeenCalledTimes(1);
  });
});

import { SearchIcon, XIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Input } from './ui/input.tsx';

/** Waits this long after the last keystroke before searching, so typing a word is one request. */
export const SEARCH_DEBOUNCE_MS = 300;

type SearchBoxProps = {
  value: string;
  onSearch: (q: string) => void;
  /** The box's accessible name ("Search meetings"). */
  label: string;
  placeholder: string;
};

/**
 * The search box: typed text goes to the URL after a pause. When the URL changes underneath it
 * (back button, Clear filters) the box follows, without fighting what the person is typing.
 */
export function SearchBox({ value, onSearch, label, placeholder }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const [lastValue, setLastValue] = useState(value);
  if (value !== lastValue) {
    // Adjusting state to a changed prop during render (React's recommended pattern, no effect).
    setLastValue(value);
    if (text.trim() !== value) setText(value);
  }

  useEffect(() => {
    const q = text.trim();
    if (q === value) return;
    const timer = setTimeout(() => onSearch(q), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);

  return (
    <div className="relative flex-1">
      <SearchIcon aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
        value={text}
        maxLength={200}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          // Enter searches at once instead of waiting for the pause.
          if (e.key === 'Enter' && text.trim() !== value) onSearch(text.trim());
        }}
      />
      {text && (
        <button
          type="button"
          aria-label="Clear search"
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded-sm p-1 text-muted-foreground hover:text-foreground"
          onClick={() => {
            setText('');
            onSearch('');
          }}
        >
          <XIcon className="size-4" aria-hidden="true" />
        </button>
      )}
    </div>
  );
}

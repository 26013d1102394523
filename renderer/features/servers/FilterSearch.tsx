import { useId } from 'react';
import type { ReactNode } from 'react';

interface FilterSearchProps {
  /** What the box searches, as a screen reader names it and its placeholder says it. */
  label: string;
  placeholder: string;
  value: string;
  onSearch(text: string): void;
  /** "12 of 40 lines": how much the filter lets through, read as the box's description and announced as it changes. */
  count: string;
  /** What sits between the box and the count (a chip saying what else narrows the list). */
  children?: ReactNode;
}

/** A filter bar's search box and, after it, the count it narrows the list to. */
export function FilterSearch({ label, placeholder, value, onSearch, count, children }: FilterSearchProps) {
  const countId = useId();
  return (
    <>
      <input type="search" className="log-search" aria-label={label} aria-describedby={countId} placeholder={placeholder} value={value} onChange={(event) => onSearch(event.target.value)} />
      {children}
      <span className="log-count muted" id={countId} aria-live="polite">
        {count}
      </span>
    </>
  );
}

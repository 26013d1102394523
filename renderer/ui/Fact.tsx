import { useId } from 'react';
import type { ReactNode } from 'react';

/** One term and its value in a `<dl className="about-facts">`; the value is named by its term, so it can be found by that name. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  const termId = useId();
  return (
    <div className="about-fact">
      <dt id={termId}>{term}</dt>
      <dd aria-labelledby={termId}>{children}</dd>
    </div>
  );
}

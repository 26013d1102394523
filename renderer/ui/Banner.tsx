import type { ReactNode } from 'react';

/** A full-width message; `alert` interrupts a screen reader, `info` waits its turn. */
export function Banner({ tone, children }: { tone: 'info' | 'warning' | 'alert'; children: ReactNode }) {
  return (
    <div className={`banner banner-${tone}`} role={tone === 'alert' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

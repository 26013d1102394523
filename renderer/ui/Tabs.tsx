import { useId, useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';

interface TabsProps<Name extends string> {
  /** The tab list's accessible name. */
  label: string;
  tabs: readonly { name: Name; label: string }[];
  selected: Name;
  onSelect(name: Name): void;
  /** The selected tab's content. */
  children: ReactNode;
}

/**
 * Tabs as the ARIA pattern has them: one tab in the Tab order (the selected one), arrows, Home and End
 * move between tabs and show each at once, and the panel is named by its tab.
 */
export function Tabs<Name extends string>({ label, tabs, selected, onSelect, children }: TabsProps<Name>) {
  const baseId = useId();
  const buttons = useRef(new Map<Name, HTMLButtonElement>());
  const tabId = (name: Name) => `${baseId}-tab-${name}`;
  const panelId = `${baseId}-panel`;

  const move = (event: KeyboardEvent) => {
    const at = tabs.findIndex((tab) => tab.name === selected);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length];
    if (!target) return;
    onSelect(target.name);
    buttons.current.get(target.name)?.focus();
  };

  return (
    <>
      <div className="detail-tabs" role="tablist" aria-label={label} onKeyDown={move}>
        {tabs.map((tab) => (
          <button
            key={tab.name}
            ref={(element) => {
              if (element) buttons.current.set(tab.name, element);
              else buttons.current.delete(tab.name);
            }}
            id={tabId(tab.name)}
            type="button"
            role="tab"
            className="view-tab"
            aria-selected={tab.name === selected}
            aria-controls={panelId}
            tabIndex={tab.name === selected ? 0 : -1}
            onClick={() => onSelect(tab.name)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div className="detail-body" role="tabpanel" id={panelId} aria-labelledby={tabId(selected)} tabIndex={0}>
        {children}
      </div>
    </>
  );
}

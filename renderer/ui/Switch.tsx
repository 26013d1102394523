interface SwitchProps {
  checked: boolean;
  /** The accessible name; the visible text is `children`. */
  label: string;
  disabled?: boolean;
  /**
   * While its change is under way: shown as unavailable, clicks ignored, but it keeps the keyboard (a
   * disabled control would drop it on the page's body).
   */
  busy?: boolean;
  onChange(checked: boolean): void;
  children: string;
}

/** An on/off control with the ARIA switch role, so it reads as "Enabled, on" rather than a checkbox. */
export function Switch({ checked, label, disabled, busy, onChange, children }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      className="switch"
      disabled={disabled}
      aria-disabled={busy || undefined}
      onClick={() => {
        if (!busy) onChange(!checked);
      }}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span className="switch-text">{children}</span>
    </button>
  );
}

interface SwitchProps {
  checked: boolean;
  /** The accessible name; the visible text is `children`. */
  label: string;
  disabled?: boolean;
  onChange(checked: boolean): void;
  children: string;
}

/** An on/off control with the ARIA switch role, so it reads as "Enabled, on" rather than a checkbox. */
export function Switch({ checked, label, disabled, onChange, children }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      className="switch"
      disabled={disabled}
      onClick={() => onChange(!checked)}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span className="switch-text">{children}</span>
    </button>
  );
}

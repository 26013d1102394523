import type { ReactNode } from 'react';

export interface RadioChoice<T extends string> {
  value: T;
  label: string;
}

interface RadioChoicesProps<T extends string> {
  legend: string;
  /** The group's name: radios of one name are one choice, moved through with the arrow keys. */
  name: string;
  choices: readonly RadioChoice<T>[];
  value: T;
  onChange(value: T): void;
  /** Shown under the choices: what they mean beyond their labels. */
  children?: ReactNode;
}

/** One choice among a few, as radio buttons grouped under a legend that names them. */
export function RadioChoices<T extends string>({ legend, name, choices, value, onChange, children }: RadioChoicesProps<T>) {
  return (
    <fieldset className="field radio-choices">
      <legend>{legend}</legend>
      {choices.map((choice) => (
        <label key={choice.value} className="field-check">
          <input type="radio" name={name} value={choice.value} checked={value === choice.value} onChange={() => onChange(choice.value)} />
          {choice.label}
        </label>
      ))}
      {children}
    </fieldset>
  );
}

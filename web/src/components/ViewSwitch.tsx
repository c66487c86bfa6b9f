// A checkbox that shows or hides one layer of the timeline (the latency lens, the tlb_gen
// charts), with what it draws as its tooltip and, once on, an optional note beside it.
import type { ReactNode } from 'react';

interface Props {
  label: string;
  title: string;
  on: boolean;
  onChange: (on: boolean) => void;
  /** Shown after the label while the switch is on (e.g. how many intervals it found). */
  note?: ReactNode;
}

export function ViewSwitch({ label, title, on, onChange, note }: Props) {
  return (
    <label title={title}>
      <input type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked)} /> {label}
      {on && note}
    </label>
  );
}

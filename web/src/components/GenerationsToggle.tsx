// The tlb_gen charts' switch. A comparison step turns them off by default: stacked A and B
// need that height for their lanes, and a step about generations says so by highlighting them.
interface Props {
  on: boolean;
  onChange: (on: boolean) => void;
}

export function GenerationsToggle({ on, onChange }: Props) {
  return (
    <label
      className="gens-toggle"
      title="Draw each mm's tlb_gen and how far each CPU's slot lags it, under the lanes"
    >
      <input type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked)} /> tlb_gen
      charts
    </label>
  );
}

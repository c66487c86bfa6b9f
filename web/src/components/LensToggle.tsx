// The latency lens's switch: on, the timeline measures the waits that matter (non-preemptible
// waits, IPIs held off by interrupts-off windows, wakeup latencies) as labelled brackets.
interface Props {
  on: boolean;
  onChange: (on: boolean) => void;
  /** How many intervals the lens finds in the run (shown once it is on). */
  count: number | null;
}

export function LensToggle({ on, onChange, count }: Props) {
  return (
    <label
      className="lens-toggle"
      title="Draw non-preemptible waits, IPIs held off by interrupts-off windows and wakeup latencies as labelled intervals"
    >
      <input type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked)} /> Latency
      lens
      {on && count !== null && (
        <span className="muted"> ({count === 0 ? 'no waits in this run' : `${count} shown`})</span>
      )}
    </label>
  );
}

// The design toggles and workload knobs the controls offer, in the simulator's own vocabulary
// (the same keys as scenario files, `--set` on the CLI and CSV `variant` columns). The
// simulator validates every value; these lists only shape the controls.
export interface Setting {
  key: string;
  label: string;
  help: string;
  values?: readonly string[];
  min?: number;
  max?: number;
  step?: number;
}

export const SETTINGS: readonly Setting[] = [
  {
    key: 'flush_info',
    label: 'flush_tlb_info',
    help: 'Where flush_tlb_mm_range() keeps its descriptor: per-CPU (2019, 3db6d5a5ecaf), on the stack aligned (2026, ed15468787dd), or on the stack unaligned.',
    values: ['percpu', 'stack', 'stack_unaligned'],
  },
  {
    key: 'preempt',
    label: 'Preemption during the wait',
    help: 'pinned: preemption off for the whole flush including the remote wait (pre-2026). preemptible_wait: preemptible after dispatch (2026 series).',
    values: ['pinned', 'preemptible_wait'],
  },
  {
    key: 'pcid',
    label: 'PCID',
    help: 'Process-context identifiers: six ASID slots per CPU let switches keep TLB entries.',
    values: ['on', 'off'],
  },
  { key: 'cpus', label: 'CPUs', help: 'Simulated CPUs (1 to 512).', min: 1, max: 512, step: 1 },
  {
    key: 'flushes',
    label: 'Flushes',
    help: 'How many flushes the workload issues.',
    min: 0,
    max: 1_000_000,
    step: 1,
  },
  {
    key: 'pages',
    label: 'Pages per flush',
    help: 'Pages per flush; over 33 the kernel flushes the whole PCID instead.',
    min: 1,
    max: 4096,
    step: 1,
  },
  {
    key: 'irqs_off_probability',
    label: 'Remote IRQs-off chance',
    help: 'Chance that a target CPU has interrupts disabled when the IPI arrives.',
    min: 0,
    max: 1,
    step: 0.05,
  },
  {
    key: 'irqs_off_max_ns',
    label: 'Remote IRQs-off max (ns)',
    help: 'Longest interrupts-off window on a target; the IPI stays pending in the APIC until it ends.',
    min: 0,
    max: 100_000_000,
    step: 1000,
  },
];

/** The value an override list sets for `key`, if any (the last assignment wins). */
export function valueOf(overrides: readonly string[], key: string): string | undefined {
  let v: string | undefined;
  for (const o of overrides) {
    const i = o.indexOf('=');
    if (i > 0 && o.slice(0, i) === key) v = o.slice(i + 1);
  }
  return v;
}

/** `overrides` with `key` set to `value` (or removed when `value` is undefined). */
export function withValue(
  overrides: readonly string[],
  key: string,
  value: string | undefined,
): string[] {
  const rest = overrides.filter((o) => !o.startsWith(`${key}=`));
  return value === undefined || value === '' ? rest : [...rest, `${key}=${value}`];
}

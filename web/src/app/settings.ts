// The design toggles and workload knobs the controls offer, in the simulator's own vocabulary
// (the same keys as scenario files, `--set` on the CLI and CSV `variant` columns). Keys, the
// architecture each belongs to, choices and bounds come from the simulator's settings table
// (vocabulary.generated.ts, written by `npm run vocab`); this file adds only how the controls
// present them. The simulator validates every value.
import { VOCABULARY, type SettingKey } from '../sim/vocabulary.generated';

export interface Setting {
  key: string;
  /** Only meaningful on this architecture (the simulator rejects it on the other). */
  arch?: 'x86' | 'arm64';
  label: string;
  help: string;
  values?: readonly string[];
  min?: number;
  max?: number;
  step?: number;
}

/** How a control presents one setting of the vocabulary. */
interface Shown {
  key: SettingKey;
  label: string;
  help: string;
  step?: number;
  /** A slider range narrower than the simulator's bound (a control's choice, not a limit). */
  sliderMax?: number;
}

const SHOWN: readonly Shown[] = [
  {
    key: 'arch',
    label: 'Architecture',
    help: 'Run the same workload on the x86 model (IPI shootdowns) or the arm64 model (broadcast TLBI); the other architecture’s toggles of the scenario are dropped and noted in the summary.',
  },
  {
    key: 'machine',
    label: 'Machine preset',
    help: 'Cost parameters of a measured machine (the docs’ model reference gives each parameter’s source).',
  },
  {
    key: 'flush_info',
    label: 'flush_tlb_info',
    help: 'Where flush_tlb_mm_range() keeps its descriptor: per-CPU (2019, 3db6d5a5ecaf), on the stack aligned (2026, ed15468787dd), or on the stack unaligned.',
  },
  {
    key: 'preempt',
    label: 'Preemption during the wait',
    help: 'pinned: preemption off for the whole flush including the remote wait (pre-2026). preemptible_wait: preemptible after dispatch (2026 series).',
  },
  {
    key: 'wait_mask',
    label: 'Wait mask',
    help: 'task: the 2026 task-local IPI mask; percpu: the per-CPU cfd->cpumask, which a preemptible wait lets another flush overwrite (race R2).',
  },
  {
    key: 'pcid',
    label: 'PCID',
    help: 'Process-context identifiers: six ASID slots per CPU let switches keep TLB entries.',
  },
  {
    key: 'pti',
    label: 'PTI',
    help: 'Page-table isolation (Meltdown): a kernel and a user PCID per slot, CR3 switched on every kernel entry and exit, each flushed user page flushed in both PCIDs (race R11). Default from the machine preset’s CPU.',
  },
  {
    key: 'invlpgb',
    label: 'INVLPGB broadcast (AMD)',
    help: 'The 2025 series: an mm active on more than 3 CPUs gets a global ASID and flushes with INVLPGB + TLBSYNC instead of IPIs (races R12, R13). Needs PCID.',
  },
  {
    key: 'plus_one_rule',
    label: 'The +1 rule',
    help: 'flush_tlb_func() flushes partially only when new_tlb_gen == local_gen + 1; off removes that protection (race R8).',
  },
  {
    key: 'lazy_freed_tables',
    label: 'Lazy CPUs when tables are freed',
    help: 'ipi: freed page tables interrupt lazy CPUs too (mainline); skip: they are skipped like any lazy CPU (race R6).',
  },
  {
    key: 'switch_mm_barrier',
    label: 'switch_mm barrier',
    help: 'full: switch_mm_irqs_off() publishes LOADED_MM_SWITCHING before it reads tlb_gen (the atomic cpumask_set_cpu() or smp_mb(), 83b0177a6c48, 2025); none: no smp_mb() when its mm_cpumask bit is already set (209954cbc7d0 until that fix), so the stores wait in the store buffer and a concurrent flush can miss the CPU (race R7).',
  },
  {
    key: 'broadcast_skip',
    label: 'Skip TLBI broadcast',
    help: 'The 2020 series: flush locally when only this CPU runs the mm (nr_active_mm), broadcast otherwise.',
  },
  {
    key: 'dsb_before_dec',
    label: 'DSB before nr_active_mm--',
    help: 'Andrea’s fix: complete in-flight page walks (DSB ISH) before the count drops; off replays race R16.',
  },
  {
    key: 'skip_rule',
    label: 'Skip rule',
    help: 'active_mm (v2): count CPUs with the mm active, kernel threads included; mm_users (RFC): count users, which misses lazy kernel threads (race R15).',
  },
  {
    key: 'tlbi_range',
    label: 'Range TLBI (FEAT_TLBIRANGE)',
    help: 'on: a ranged flush is a few range TLBIs (ARMv8.4); off: one TLBI per page, each a DVM message every core performs, and a whole-ASID flush from max_dvm_ops (512) pages on. Default from the machine preset’s CPU.',
  },
  {
    key: 'cpu_id',
    label: 'smp_processor_id()',
    help: 'thread_info: read current_thread_info()->cpu (bf0baa5bbdc9); percpu: the per-CPU cpu_number with its preempt-count cost.',
  },
  {
    key: 'locks',
    label: 'Shared locks',
    help: 'Kernel locks as FIFO queues: off (none); per_vma: faults and MADV_DONTNEED take each thread’s VMA lock; mmap_lock: they queue for the address space’s mmap_lock. Both add the zone and LRU locks of the page allocator.',
  },
  {
    key: 'asid_bits',
    label: 'ASID bits',
    help: 'Width of the hardware ASID; small values force frequent rollovers.',
    step: 1,
  },
  { key: 'cpus', label: 'CPUs', help: 'Simulated CPUs (1 to 512).', step: 1 },
  {
    key: 'sockets',
    label: 'Sockets',
    help: 'The CPUs split into this many sockets, numbered socket by socket: on x86 a cache line a flush moves between two sockets costs socket_transfer_ns instead of cacheline_transfer_ns. Default from the machine preset.',
    step: 1,
  },
  {
    key: 'tlb_index',
    label: 'TLB set index',
    help: 'How a page picks its TLB set. hash: a stand-in for an unpublished index, scattering pages at random; xor7: Skylake’s STLB as TLBleed (2018) measured it, page number bits 0–6 XOR 7–13 over 128 sets, PCID not indexed. Default from the machine preset.',
  },
  {
    key: 'flushes',
    label: 'Flushes',
    help: 'How many flushes the workload issues.',
    step: 1,
  },
  {
    key: 'pages',
    label: 'Pages per flush',
    help: 'Pages per flush; over 33 the kernel flushes the whole PCID instead.',
    sliderMax: 4096,
    step: 1,
  },
  {
    key: 'victims',
    label: 'Victim-compute processes',
    help: 'Unrelated processes that only compute, one per CPU after the busy threads; the summary shows how much of their work got done while the others flush.',
    step: 1,
  },
  {
    key: 'irqs_off_probability',
    label: 'Remote IRQs-off chance',
    help: 'Chance that a target CPU has interrupts disabled when the IPI arrives.',
    step: 0.05,
  },
  {
    key: 'irqs_off_max_ns',
    label: 'Remote IRQs-off max (ns)',
    help: 'Longest interrupts-off window on a target; the IPI stays pending in the APIC until it ends.',
    sliderMax: 100_000_000,
    step: 1000,
  },
];

type Spec = (typeof VOCABULARY.settings)[number];

/** A control for `shown`, with the key, architecture, choices and bounds of the simulator. */
function control(shown: Shown): Setting {
  const spec: Spec | undefined = VOCABULARY.settings.find((s) => s.key === shown.key);
  if (!spec) throw new Error(`setting ${shown.key} is not in the simulator's vocabulary`);
  const { sliderMax, ...presentation } = shown;
  const out: Setting = { ...presentation, ...(spec.arch ? { arch: spec.arch } : {}) };
  if (spec.type === 'choice') out.values = spec.choices;
  // on/off lists the default first, as the controls always have.
  if (spec.type === 'onoff') out.values = spec.default === 'off' ? ['off', 'on'] : ['on', 'off'];
  if (spec.type === 'int' || spec.type === 'float') {
    out.min = spec.min;
    out.max = sliderMax === undefined ? spec.max : Math.min(sliderMax, spec.max);
  }
  return out;
}

export const SETTINGS: readonly Setting[] = SHOWN.map(control);

/** The settings that apply to a run on `arch`. */
export function settingsFor(arch: string): Setting[] {
  return SETTINGS.filter((s) => s.arch === undefined || s.arch === arch);
}

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

/**
 * `overrides` switched to architecture `arch`: the reader's toggles of the other architecture
 * go, since the simulator refuses them there (a scenario file's own it drops with a note).
 * `kernel=` goes too off x86: its steps are x86 kernels (the history slider sets it).
 */
export function withArch(overrides: readonly string[], arch: string): string[] {
  const other = (o: string) => {
    const key = o.slice(0, Math.max(0, o.indexOf('=')));
    if (key === 'kernel') return arch !== 'x86';
    const spec = VOCABULARY.settings.find((s) => s.key === key);
    return !!spec?.arch && spec.arch !== arch;
  };
  return withValue(
    overrides.filter((o) => !other(o)),
    'arch',
    arch,
  );
}

/** Where the value a control shows comes from. */
export type SettingSource = 'scenario' | 'step' | 'you';

export interface ControlState {
  /** The value in effect ('' while no run has reported it). */
  value: string;
  source: SettingSource;
  /** Whether the reader may reset it to the scenario's own value. */
  overridden: boolean;
}

/**
 * What a control shows: the value the run used (its file, its preset's defaults, or an
 * override), and whose choice it is. An override the current guided step sets is the step's,
 * any other override the reader's.
 */
export function controlState(
  key: string,
  overrides: readonly string[],
  effective: Readonly<Record<string, string>> | undefined,
  stepSet: readonly string[] = [],
): ControlState {
  const own = valueOf(overrides, key);
  if (own === undefined)
    return { value: effective?.[key] ?? '', source: 'scenario', overridden: false };
  const source = valueOf(stepSet, key) === own ? 'step' : 'you';
  return { value: own, source, overridden: true };
}

// "Model this recording": the scenario and settings whose run B mirrors a kernel recording
// (its CPUs, its op, its loop count, the CPUs the mm kept busy, the nearest machine preset),
// each with the reason a reader can check against the recording. Pure: the recording layer
// gathers the facts (recording/modelFacts.ts), this only decides.
import { VOCABULARY } from '../sim/vocabulary.generated';

/** What a recording says that a model run can be set to. */
export interface RecordingFacts {
  /** The CPU count of the recording's header (#P:n) or the highest CPU seen. */
  cpus: number;
  /** The CPU that sent the most IPIs (-1: none): the benchmark's op thread. */
  initiator: number;
  /** Its shootdowns (tlb_flush "remote IPI send"). */
  shootdowns: number;
  /** tlb_flush "local MM shootdown" events: one per op when no other CPU needed telling. */
  localShootdowns: number;
  /** IPIs the initiator sent, by target CPU: the CPUs running the mm's other threads. */
  targets: Record<number, number>;
  /** Pages of the initiator's shootdowns, the most common count (-1: whole mm); null: unknown. */
  pages: number | null;
  /** The .source.json's machine and command, when the recording came with one. */
  machine: string | null;
  command: string | null;
}

export interface ProposedSetting {
  key: string;
  value: string;
  reason: string;
}

export interface ModelProposal {
  scenario: string;
  scenarioReason: string;
  settings: ProposedSetting[];
}

type Op = 'madvise' | 'munmap' | 'mprotect';

/** x86's tlb_single_page_flush_ceiling: more pages than this flush the whole PCID. */
const FLUSH_CEILING = 33;

// Words in a machine description that name a preset's CPU family; the first match wins.
const MACHINE_WORDS: [RegExp, string][] = [
  [/ice ?lake|8336c/i, 'icelake-8336c-128'],
  [/epyc|zen ?3|7763|amd/i, 'zen3-epyc-7763-128'],
  [/skylake.*(laptop|kvm)|kvm.*skylake/i, 'skylake-laptop-kvm'],
  [/skylake/i, 'skylake-desktop-4'],
  [/thunder ?x2/i, 'thunderx2-2s'],
  [/altra|neoverse.?n1/i, 'altra-n1-80'],
  [/ampere/i, 'ampere-32'],
];
const ARM64_WORDS = /arm64|aarch64|ampere|altra|neoverse|thunder ?x|graviton|cortex-a/i;

const presetArch = (id: string) => VOCABULARY.presets.find((p) => p.id === id)?.arch;

/** The preset nearest the recorded machine, with why. */
export function nearestPreset(machine: string | null): { id: string; reason: string } {
  const arch = machine && ARM64_WORDS.test(machine) ? 'arm64' : 'x86';
  for (const [re, id] of MACHINE_WORDS) {
    const m = machine ? re.exec(machine) : null;
    if (m && presetArch(id) === arch) {
      return { id, reason: `the nearest preset to the recorded "${m[0]}" (${machine})` };
    }
  }
  const generic = VOCABULARY.presets
    .filter((p) => p.arch === arch && p.id.startsWith('generic'))
    .sort((a, b) => a.cpus - b.cpus)[0];
  const why = machine
    ? `no preset matches the recorded machine (${machine})`
    : 'the recording does not name its machine';
  return {
    id: generic?.id ?? `generic-${arch}`,
    reason: `${why}: the ${arch} generic preset, its tlb_flush events being ${arch === 'x86' ? "x86's" : "the kernel's"}`,
  };
}

function opOf(command: string | null): { op: Op; reason: string } {
  const m = command ? /\b(madvise|munmap|mprotect)/.exec(command) : null;
  if (m) return { op: m[1] as Op, reason: `the recorded command runs ${m[0]} (\`${command}\`)` };
  return {
    op: 'madvise',
    reason:
      'tlb_flush reasons do not name the op and no command was recorded: madvise, the model default',
  };
}

/** `-n 400` (madvise_touch's loop count) in the recorded command, or null. */
function loopsOf(command: string | null): number | null {
  const m = command ? /(?:^|\s)-n\s+(\d+)/.exec(command) : null;
  return m ? Number(m[1]) : null;
}

export function modelOfRecording(f: RecordingFacts): ModelProposal {
  const preset = nearestPreset(f.machine);
  const arch = presetArch(preset.id) ?? 'x86';
  const { op, reason: opReason } = opOf(f.command);
  const settings: ProposedSetting[] = [{ key: 'machine', value: preset.id, reason: preset.reason }];
  const cpus = Math.max(1, f.cpus);
  settings.push({
    key: 'cpus',
    value: String(cpus),
    reason: `${cpus} CPU${cpus === 1 ? '' : 's'}: the recording's cpus=${f.cpus}`,
  });
  const initiator = f.initiator >= 0 ? f.initiator : 0;
  const busy = Object.entries(f.targets)
    .map(([cpu, n]) => [Number(cpu), n] as const)
    .filter(([cpu, n]) => cpu !== initiator && n > 0)
    .sort((a, b) => a[0] - b[0]);
  settings.push({
    key: 'threads',
    value: '1',
    reason:
      f.initiator >= 0
        ? `one op thread: CPU ${f.initiator} sent the recording's shootdowns`
        : 'one op thread: no CPU sent an IPI, so the ops were seen on one CPU',
  });
  // The model places busy threads on the CPUs after the op thread's: only how many matters.
  const maxBusy = Math.max(0, cpus - 1);
  const nBusy = Math.min(busy.length, maxBusy);
  settings.push({
    key: 'busy_threads',
    value: String(nBusy),
    reason:
      busy.length > 0
        ? `${nBusy} busy: ${busy.map(([cpu, n]) => `CPU ${cpu} took ${n} of its IPIs`).join(', ')}`
        : 'none busy: no CPU was sent an IPI by the op thread',
  });
  const loops = loopsOf(f.command);
  const flushes =
    loops ?? (f.shootdowns > 0 ? f.shootdowns : f.localShootdowns > 0 ? f.localShootdowns : 1);
  settings.push({
    key: 'flushes',
    value: String(flushes),
    reason:
      loops !== null
        ? `${loops} loops: the recorded command's -n ${loops}`
        : f.shootdowns > 0
          ? `${f.shootdowns} shootdowns (remote IPI send) in the recording`
          : f.localShootdowns > 0
            ? `${f.localShootdowns} local MM shootdowns in the recording (no IPI was sent)`
            : 'the recording has no shootdown: one op',
  });
  settings.push({ key: 'op', value: op, reason: opReason });
  if (f.pages !== null) {
    const full = f.pages < 0;
    const pages = full ? FLUSH_CEILING + 1 : Math.max(1, f.pages);
    settings.push({
      key: 'pages',
      value: String(pages),
      reason: full
        ? `the recording's shootdowns flush everything (pages:-1): more than the ${FLUSH_CEILING}-page ceiling`
        : `${pages} page${pages === 1 ? '' : 's'}: the recording's shootdowns most often flush pages:${f.pages}`,
    });
  }
  const scenario = arch === 'arm64' ? 'arm64-mprotect-skip-broadcast' : 'x86-madvise-touch';
  return {
    scenario,
    scenarioReason:
      arch === 'arm64'
        ? `an arm64 op loop (${opReason})`
        : `an op loop with busy threads of the same mm, as the recording's benchmark (${opReason})`,
    settings,
  };
}

/** The proposal as `setB=` overrides, in order (the preset first: later keys refine it). */
export function overridesOf(p: ModelProposal): string[] {
  return p.settings.map((s) => `${s.key}=${s.value}`);
}

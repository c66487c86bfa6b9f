// @ts-check
// The CLI's help, one entry per command: `tlbscope --help` prints every synopsis and the notes,
// `tlbscope <command> --help` one command's, and web/scripts/cli-docs.mjs writes docs/cli.md
// from the same table, so the reference cannot drift from what the command line says.

/**
 * @typedef {object} CommandHelp
 * @property {string} name
 * @property {string} synopsis  its usage line(s), continuation lines indented
 * @property {string} summary   one sentence
 * @property {[string, string][]} options  flag → what it does
 * @property {string} details   paragraphs for the command's own help and the reference
 * @property {string[]} examples
 */

/** @type {CommandHelp[]} */
export const COMMANDS = [
  {
    name: 'list',
    synopsis: 'tlbscope list',
    summary: 'Lists the scenarios of content/scenarios/ with their architecture and title.',
    options: [],
    details: '',
    examples: ['tlbscope list'],
  },
  {
    name: 'settings',
    synopsis: 'tlbscope settings [--format text|json]',
    summary:
      'Prints every setting (key, section, values, default, architecture, meaning) and every cost parameter, from the simulator’s own table.',
    options: [['--format text|json', 'text (default) or the vocabulary as JSON']],
    details:
      'Settings use one vocabulary everywhere: scenario files, set= in a link, --set on the command line and the variant column of a dataset CSV.',
    examples: ['tlbscope settings', 'tlbscope settings --format json'],
  },
  {
    name: 'run',
    synopsis: `tlbscope run <scenario file|id> [--set key=value ...] [--costs file] [--seed N]
             [--format json|csv|perfetto] [--band]`,
    summary: 'Runs one scenario and prints its summary.',
    options: [
      ['--set key=value', 'one setting, repeatable, e.g. --set flush_info=stack'],
      [
        '--costs file',
        'a [machine] preset + [costs] file (what fit --out writes) as --set overrides',
      ],
      ['--seed N', 'the run’s seed, 0 to 4294967295 (default 1)'],
      [
        '--format json|csv|perfetto',
        'the summary as JSON (default), CSV rows in the dataset schema, or the whole run as a Chrome JSON trace for ui.perfetto.dev',
      ],
      [
        '--band',
        'run twice more, every estimated cost at the low and then the high end of its range, and add `band`: each figure’s low, central and high value and width (high ÷ low); JSON only',
      ],
    ],
    details:
      'A run that reaches its event or memory budget prints the summary of what ran and exits 1; a simulator trap exits 3 with the command line that reproduces it. Every cost the model estimates has a range (listed by the settings command; docs/model.md says how the ranges were chosen); --band runs the model at both ends of all of them at once, so the band is the widest the ranges allow, not a confidence interval. Costs given with --set or --costs are yours and stay as given.',
    examples: [
      'tlbscope run x86-munmap-shootdown',
      'tlbscope run x86-madvise-touch --set flush_info=stack --set preempt=preemptible_wait',
      'tlbscope run x86-munmap-shootdown --set cpus=16 --set costs.ipi_delivery_ns=800',
      'tlbscope run x86-lazy-tlb --format perfetto > run.json',
      'tlbscope run x86-munmap-shootdown --band',
    ],
  },
  {
    name: 'sweep',
    synopsis: `tlbscope sweep <scenario file|id> --vary key=v1,v2,... [--vary ...] [--set key=value ...]
               [--costs file] [--seed N] [--format csv|json] [--max-combinations N]
               [--progress] [--band]`,
    summary: 'Runs every combination of its --vary lists.',
    options: [
      ['--vary key=v1,v2,...', 'values of one setting, repeatable; every combination runs'],
      ['--set key=value', 'a setting every run shares'],
      ['--costs file', 'as for run'],
      ['--seed N', 'as for run'],
      ['--format csv|json', 'CSV in the dataset schema (default) or JSON'],
      ['--max-combinations N', 'run more than 1000 combinations (the default cap), up to N'],
      [
        '--progress',
        'runs done, elapsed time and an estimate of the rest on stderr (always shown when stderr is a terminal)',
      ],
      ['--band', 'as for run, for every combination (JSON, the default with --band)'],
    ],
    details:
      'A sweep of more combinations than its cap is refused before it starts, naming the count and --max-combinations.',
    examples: [
      'tlbscope sweep x86-wis-tlb-flush2 --vary threads=1,2,4,8,16 --vary processes=off,on',
      'tlbscope sweep x86-madvise-touch --vary invlpgb=off,on --set machine=zen3-epyc-7763-128',
    ],
  },
  {
    name: 'calibrate',
    synopsis: `tlbscope calibrate [--costs file] [--strict] [--leave-one-out [--max-runs N]]
                   [--format text|json|csv] [--band]`,
    summary:
      'Compares every machine preset with the measurements it was made from (content/calibration.json).',
    options: [
      ['--costs file', 'calibrate these costs instead of the presets’ own'],
      ['--strict', 'also exit 1 on a known gap'],
      [
        '--leave-one-out',
        'predict each row with the machine’s free costs fitted on its other rows only (text or json)',
      ],
      ['--max-runs N', 'with --leave-one-out: the fit’s run budget, 10 to 100000'],
      ['--format text|json|csv', 'the report’s format (default text)'],
      [
        '--band',
        'also predict each row with every estimated cost at the low and at the high end of its range: the band, its width and whether the measurement is in it',
      ],
    ],
    details:
      'Each row shows the measurement, the prediction, the error and the tolerance, and PASS, FAIL or GAP. Exits 1 if a row is out of tolerance (or a known gap, with --strict). --leave-one-out checks how well a preset generalises: each row is predicted with the machine’s free cost parameters (fitParams in content/benchmarks.json) fitted on the same machine’s other rows only, starting from the preset’s values, and printed beside its in-sample error with a summary per machine. Rows compared only as ratios, and machines with a single row, are listed as not predicted.',
    examples: ['tlbscope calibrate', 'tlbscope calibrate --leave-one-out'],
  },
  {
    name: 'fit',
    synopsis: `tlbscope fit <dataset.csv> [--benchmark id] [--params name,name,...] [--machine preset]
             [--out fitted.toml] [--max-runs N] [--map column=header ...] [--fix column=value ...]
             [--separator ,|;|tab] [--decimal .|,] [--header-row N] [--format text|json]
             [--leave-one-out]`,
    summary:
      'Fits cost parameters by least squares to the op_latency rows of a dataset CSV and prints them with each row’s residual.',
    options: [
      ['--benchmark id', 'only the rows of this benchmark'],
      ['--params a,b', 'the cost parameters to fit (default: the benchmark’s own)'],
      ['--machine preset', 'the preset to start from'],
      ['--out fitted.toml', 'write the result as a costs file that run, sweep and calibrate take'],
      ['--max-runs N', 'the fit’s run budget, 10 to 100000'],
      ['--map column=header', 'name the CSV header that holds a schema column, repeatable'],
      [
        '--fix column=value',
        'one value of machine, benchmark, metric, unit or variant for every row, repeatable',
      ],
      ['--separator ,|;|tab', 'the field separator (default: detected)'],
      ['--decimal .|,', 'the decimal mark (default: detected; a comma reads 2,412 as 2.412)'],
      ['--header-row N', 'the header’s line, counted from 1 (default: detected)'],
      ['--format text|json', 'the report’s format (default text)'],
      [
        '--leave-one-out',
        'predict each row from a fit on the other rows of its machine, grouped by the machine column',
      ],
    ],
    details:
      'The file is read as the page’s CSV import reads it: title rows above the header and a units row under it are skipped, the separator and decimal mark detected, `perf stat -x,` output and will-it-scale’s table recognised, throughput converted to latency. Columns are found by the same names and synonyms; --map names any other.',
    examples: [
      'tlbscope fit content/datasets/local-amd-epyc-2-tlb-flush.csv --leave-one-out',
      'tlbscope fit my.csv --machine generic-x86 --out fitted.toml',
      'tlbscope fit will-it-scale.csv --fix machine=icelake-8336c-128 --fix benchmark=wis-tlb-flush1',
    ],
  },
  {
    name: 'import',
    synopsis: 'tlbscope import <recording> [--format text|json|perfetto]',
    summary: 'Reads a kernel recording of shootdowns and prints its summary in the model’s terms.',
    options: [
      [
        '--format text|json|perfetto',
        'the summary as text (default) or JSON, or the recording as a Chrome JSON trace',
      ],
    ],
    details:
      'Reads tracefs trace / trace_pipe text, trace-cmd report and perf script output (bench/kit/trace.sh records one). Exits 1 only when nothing could be read.',
    examples: ['tlbscope import content/recordings/madvise-touch-kvm-2cpu.trace'],
  },
  {
    name: 'analyze',
    synopsis: `tlbscope analyze <recording|scenario file|id> [--top N] [--set key=value ...]
                 [--costs file] [--seed N] [--format text|json]`,
    summary:
      'Cuts every IPI shootdown of a recording or a model run into the parts of its critical path and prints the slowest, each with the part that dominated and what delayed it.',
    options: [
      ['--top N', 'how many of the slowest shootdowns to show, 1 to 1000 (default 5)'],
      ['--set key=value', 'a setting of the scenario’s run (not for a recording)'],
      ['--costs file', 'as for run (not for a recording)'],
      ['--seed N', 'as for run'],
      ['--format text|json', 'text (default) or JSON'],
    ],
    details:
      'A shootdown’s parts, in order: its entry to the first IPI sent; the sends up to the one whose target acked last; that IPI’s delivery (send to handler entry), with what held it: interrupts off on the target, another handler running, the target idle, or the delivery itself; the handler until it unlocked the initiator’s csd (the ack); and the return after it (when the initiator’s own flush ends after every ack, the path runs through that instead). The parts of a path sum to the flush’s latency. A part whose events a recording lacks (no call_function or csd events) is printed as unknown, never estimated. Without irq_disable/irq_enable events a recording does not say whether interrupts were off, except where its timer ticks (local_timer_entry) show it: the tick due while an IPI waited was taken only with it, so interrupts were held off, and the cause is named as inferred, with the task that ran. Then each part’s percentiles over all shootdowns, and per CPU how often it acked last and why. An argument ending in .toml or naming no file is a scenario; any other file is read as a recording.',
    examples: [
      'tlbscope analyze content/recordings/madvise-touch-kvm-2cpu.trace',
      'tlbscope analyze x86-munmap-shootdown --set cpus=16 --top 3',
    ],
  },
  {
    name: 'fit-recording',
    synopsis: 'tlbscope fit-recording <recording> [--out preset.toml] [--format text|json]',
    summary:
      'Estimates the model’s costs from a recording’s flushes (your machine as a model) and writes them as a costs file.',
    options: [
      ['--out file', 'write the costs file there (without it, it is printed after the table)'],
      ['--format text|json', 'text (default) or JSON'],
    ],
    details:
      'Each flush is cut into parts as `analyze` does; a cost is the median of the parts that measure it, printed with its p10–p90 spread and how many samples it rests on: ipi_delivery_ns from IPI sends to handler entries that nothing the recording shows held, ipi_handler_ns from handler entry to csd unlock less flush_tlb_func, ipi_send_ns from the gaps between a flush’s sends, invlpg_ns from the slope of flush_tlb_func’s median over flushes of several sizes (record them with bench/kit/trace.sh MADV_PAGES="1 8 32"; with timestamps in whole µs the slope rarely shows, so use TRACER=perf). syscall_ns from syscalls around one shootdown (raw_syscalls:sys_enter/sys_exit, which bench/kit/trace.sh records for madvise and munmap), entry to exit less the shootdown. A cost the recording has no events for is not estimated. The file refines the preset nearest the machine its .source.json names (the generic one otherwise); the run command’s `--costs <file>` applies it, and the link parameters printed under the table open the explorer with the same settings, so every design toggle runs on your machine.',
    examples: [
      'tlbscope fit-recording content/recordings/madvise-touch-kvm-2cpu.trace --out my-machine.toml',
    ],
  },
  {
    name: 'history',
    synopsis: `tlbscope history <scenario file|id> [--set key=value ...] [--costs file] [--seed N]
                 [--format text|json]`,
    summary:
      'Replays an x86 scenario under every kernel= step (4.13 … 7.3) and prints, per step, the op and flush latency, preemption-off time, IPIs, violations and the commit that made the change.',
    options: [
      ['--set key=value', 'a setting every kernel’s run keeps'],
      ['--costs file', 'as for run'],
      ['--seed N', 'as for run'],
      ['--format text|json', 'text (default) or JSON'],
    ],
    details: '',
    examples: ['tlbscope history x86-madvise-touch'],
  },
  {
    name: 'check',
    synopsis: `tlbscope check <scenario file|id> [--set key=value ...] [--max-steps N] [--max-states N]
               [--reduce none|por|sym|all] [--format text|json]
tlbscope check --race <id> [--max-steps N] [--max-states N] [--reduce none|por|sym|all]
               [--format text|json]`,
    summary:
      'Explores every interleaving of a small scenario’s events and prints "holds", the shortest counterexample, or the bound it reached.',
    options: [
      ['--race <id>', 'check a modelled race’s scenario, faulty and fixed (R1, R2, R6, R7, …)'],
      ['--set key=value', 'a setting of the checked scenario'],
      ['--max-steps N', 'events along one interleaving, 1 to 10000 (default 400)'],
      ['--max-states N', 'states explored, 1 to 10000000 (default 1000000)'],
      [
        '--reduce none|por|sym|all',
        'reductions besides state merging: por (partial-order reduction by sleep sets), sym (CPU symmetry), all (default: both) or none',
      ],
      ['--format text|json', 'text (default) or JSON'],
    ],
    details:
      'Each race (R1–R18) and invariant (I1–I18) is explained in docs/model.md under its lowercase id: docs/model.md#r8 is race R8, docs/model.md#i3 invariant I3. Exits 0 when it holds (with --race: every verdict as promised), 1 violated (--race: a verdict not as promised), 4 bound reached, 2 bad input.',
    examples: [
      'tlbscope check x86-r6-lazy-freed-tables',
      'tlbscope check x86-r6-lazy-freed-tables --set lazy_freed_tables=ipi',
      'tlbscope check --race R7',
    ],
  },
];

/** Continuation lines of a synopsis under a "usage:" heading, indented two more. */
const indent = (/** @type {string} */ s, /** @type {string} */ by) =>
  s
    .split('\n')
    .map((l) => by + l)
    .join('\n');

/** Every command's usage, then the notes every command shares. */
export const USAGE = `usage:
${COMMANDS.map((c) => indent(c.synopsis, '  ')).join('\n')}

Settings use the simulator's vocabulary (tlbscope settings lists every key, its values and
default, and every cost parameter, as the simulator declares them), e.g. --set flush_info=stack
--set preempt=preemptible_wait --set cpus=16 --set costs.ipi_delivery_ns=800.
<scenario file|id> is a path or an id from content/scenarios/ (tlbscope list).
tlbscope <command> --help describes one command.
`;

/** `text` broken into lines of at most `width` characters, at spaces. */
export function wrap(/** @type {string} */ text, width = 96, prefix = '') {
  const lines = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(prefix + line);
  return lines.join('\n');
}

/** One command's help: its usage, what it does, its options and examples. */
export function commandHelp(/** @type {string} */ name) {
  const c = COMMANDS.find((x) => x.name === name);
  if (!c) throw new Error(`no help for ${name}`);
  const width = Math.max(0, ...c.options.map(([flag]) => flag.length));
  const options = c.options
    .map(([flag, text]) => {
      const body = wrap(text, 96, ' '.repeat(width + 4)).trimStart();
      return `  ${flag.padEnd(width)}  ${body}`;
    })
    .join('\n');
  return `usage:
${indent(c.synopsis, '  ')}

${wrap(`${c.summary} ${c.details}`)}
${options ? `\noptions:\n${options}\n` : ''}
examples:
${c.examples.map((e) => `  ${e}`).join('\n')}
`;
}

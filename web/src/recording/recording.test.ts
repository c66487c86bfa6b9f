// The importer on real recordings from the project's 2-CPU KVM guest (tests/fixtures/recordings,
// recorded with bench/kit/trace.sh) and on broken variants of them. Expected counts are taken
// from the files themselves with independent regexes, not written down.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ARROW_ACK, ARROW_IPI, ARROW_UNPAIRED, toArrows } from '../model/ipis';
import { EventKind, toTrace } from '../trace/trace';
import { detectFormat } from './detect';
import { parseCpumask, REASON_SEND_IPI } from './payload';
import { parseRecording, RecordingError, RecordingParser, type Recording } from './parse';

const dir = new URL('../../../tests/fixtures/recordings/', import.meta.url);
const read = (f: string) => readFileSync(new URL(f, dir), 'utf8');

const FIXTURES = [
  ['tracefs.trace', 'tracefs'],
  ['trace-pipe.txt', 'tracefs'],
  ['tracefs-latency.trace', 'tracefs-latency'],
  ['trace-cmd-report.txt', 'trace-cmd'],
  ['perf-script.txt', 'perf'],
  ['madvise-touch-2cpu-quiet.trace', 'tracefs'],
  ['madvise-touch-2cpu-busy-loop.trace', 'tracefs'],
] as const;

const countLines = (text: string, re: RegExp) => text.split('\n').filter((l) => re.test(l)).length;
const traceOf = (r: Recording) => toTrace({ ...r.columns, cpus: r.cpus, strings: [] });

describe.each(FIXTURES)('%s', (file, format) => {
  const text = read(file);
  const rec = parseRecording(text, file);

  test(`is detected as ${format} and read without unreadable lines`, () => {
    expect(rec.format).toBe(format);
    expect(rec.issueCount).toBe(0);
  });

  test('counts every tlb_flush and every IPI send in the file', () => {
    expect(rec.summary.tlb_flush).toBe(countLines(text, /\btlb_flush:\s/));
    expect(rec.summary.tlb_flush).toBeGreaterThan(0);
    expect(rec.summary.ipi_sends).toBe(countLines(text, /\bipi_send_cpu:\s/));
    const byReason = Object.values(rec.summary.flushes_by_reason).reduce((a, b) => a + b, 0);
    expect(byReason).toBe(rec.summary.tlb_flush);
    expect(rec.summary.shootdowns).toBe(countLines(text, /tlb_flush:.*reason[:=].*\(4\)\s*$/));
  });

  test('rows are in time order from 0 with the flush reason on every flush row', () => {
    const c = rec.columns;
    expect(c.time[0]).toBe(0);
    for (let i = 1; i < c.time.length; i++) expect(c.time[i]).toBeGreaterThanOrEqual(c.time[i - 1]);
    for (let i = 0; i < c.time.length; i++) {
      if (c.kind[i] === EventKind.FlushRange) expect(c.reason[i]).toBe(REASON_SEND_IPI);
      if (c.reason[i] >= 0) expect(c.line[i]).toBeGreaterThan(0);
    }
  });

  test('IPI arrows go from a send to a handler on its target, later in time', () => {
    const trace = traceOf(rec);
    const arrows = toArrows(trace);
    let ipis = 0;
    let unpaired = 0;
    for (let j = 0; j < arrows.n; j++) {
      if (arrows.kind[j] === ARROW_IPI) {
        ipis++;
        const send = arrows.fromRow[j];
        const handler = arrows.toRow[j];
        expect(trace.kind[send]).toBe(EventKind.IpiSent);
        expect(trace.kind[handler]).toBe(EventKind.IpiHandler);
        expect(trace.arg[send]).toBe(trace.cpu[handler]);
        expect(trace.time[handler]).toBeGreaterThanOrEqual(trace.time[send]);
      } else if (arrows.kind[j] === ARROW_UNPAIRED) {
        unpaired++;
        const send = arrows.row[j];
        expect(trace.kind[send]).toBe(EventKind.IpiSent);
        expect([arrows.fromCpu[j], arrows.toCpu[j]]).toEqual([trace.cpu[send], trace.arg[send]]);
      } else {
        expect(arrows.kind[j]).toBe(ARROW_ACK);
        // The ack comes from the CPU that ran the flush, back to the one that asked for it.
        expect(arrows.toCpu[j]).not.toBe(arrows.fromCpu[j]);
      }
    }
    expect(ipis).toBe(rec.summary.paired_ipis);
    // Every send no handler answers is drawn, marked unpaired: none is left without a mark.
    expect(ipis + unpaired).toBe(rec.summary.ipi_sends);
    // Every handler is drawn; those whose send was before the recording began have no arrow.
    let orphans = 0;
    for (let i = 0; i < trace.n; i++) {
      if (trace.kind[i] === EventKind.IpiHandler && trace.parent[i] < 0) orphans++;
    }
    expect(ipis + orphans).toBe(countLines(text, /call_function(_single)?_entry:/));
    expect(orphans).toBeLessThanOrEqual(1);
  });
});

test('without handler events every IPI send is drawn as an unpaired send to its target', () => {
  const text = read('tracefs.trace')
    .split('\n')
    .filter((l) => !/call_function(_single)?_(entry|exit):/.test(l))
    .join('\n');
  const rec = parseRecording(text, 'no-handlers.trace');
  const trace = traceOf(rec);
  const arrows = toArrows(trace);
  const kinds = Array.from(arrows.kind);
  expect(kinds.filter((k) => k === ARROW_IPI)).toHaveLength(0);
  expect(kinds.filter((k) => k === ARROW_UNPAIRED)).toHaveLength(rec.summary.ipi_sends);
  expect(rec.summary.ipi_sends).toBeGreaterThan(0);
  expect(rec.summary.warnings.join(' ')).toMatch(/drawn unpaired/);
});

test('tasks come from sched_switch: the next task runs on that CPU from the switch on', () => {
  const text = read('tracefs.trace');
  const rec = parseRecording(text, 'tracefs.trace');
  const lines = text.split('\n');
  const i = lines.findIndex((l) => /sched_switch:.*next_pid=[1-9]/.test(l));
  const pid = Number(/next_pid=(\d+)/.exec(lines[i])?.[1]);
  const cpu = Number(/\[(\d+)\]/.exec(lines[i])?.[1]);
  const c = rec.columns;
  const row = [...c.line].findIndex((l, r) => l === i + 1 && c.kind[r] === EventKind.TaskRun);
  expect(row).toBeGreaterThanOrEqual(0);
  expect(c.arg[row]).toBe(pid);
  expect(c.cpu[row]).toBe(cpu);
  // A pid keeps the last name it ran under (a fork that execs the benchmark is renamed).
  const names = lines.flatMap((l) => new RegExp(`^\\s*(\\S+)-${pid}\\s+\\[`).exec(l)?.[1] ?? []);
  expect(rec.tasks[pid]).toBe(names.at(-1) ?? /next_comm=(.*?) next_pid/.exec(lines[i])?.[1]);
});

test('the flags column is counted per event where a format has one, never drawn as a span', () => {
  const rec = (f: string) => parseRecording(read(f), f);
  for (const f of ['tracefs-latency.trace', 'tracefs.trace']) {
    expect(rec(f).summary.irqs_off_marks).toBeGreaterThan(0);
    expect(new Set(rec(f).columns.kind).has(EventKind.IrqsOff)).toBe(false);
  }
  const perf = rec('perf-script.txt');
  expect(perf.summary.irqs_off_marks).toBe(0);
  expect(perf.summary.warnings.join()).toMatch(/no flags column/);
});

test('streaming in arbitrary chunks reads exactly what a whole-text parse reads', () => {
  const text = read('tracefs.trace');
  const whole = parseRecording(text, 'x');
  const p = new RecordingParser('x');
  for (let i = 0; i < text.length; i += 97) p.push(text.slice(i, i + 97));
  const streamed = p.finish();
  expect(streamed.summary).toEqual(whole.summary);
  expect([...streamed.columns.time]).toEqual([...whole.columns.time]);
});

describe('bad input', () => {
  const text = read('tracefs.trace');
  const lines = text.split('\n');
  const flushLine = lines.findIndex((l) => l.includes('tlb_flush:'));

  test('a truncated line is named by number and everything else is kept', () => {
    const cut = [...lines];
    cut[flushLine] = cut[flushLine].slice(0, cut[flushLine].indexOf('tlb_flush'));
    const rec = parseRecording(cut.join('\n'), 'cut.trace');
    expect(rec.issueCount).toBe(1);
    expect(rec.issues[0].line).toBe(flushLine + 1);
    expect(rec.issues[0].message).toMatch(/truncated/);
    expect(rec.summary.tlb_flush).toBe(countLines(text, /tlb_flush:/) - 1);
  });

  test('a line padded to 24,000 characters is an issue, read at once', () => {
    const padded = [...lines];
    padded[flushLine] = `${padded[flushLine]}${' '.repeat(24_000)}x`;
    padded.splice(3, 0, `${' '.repeat(30_000)}x`);
    const start = performance.now();
    const rec = parseRecording(padded.join('\n'), 'padded.trace');
    // Matched by the line patterns, such a line took seconds (their time grows as its square).
    expect(performance.now() - start).toBeLessThan(2000);
    expect(rec.issueCount).toBe(2);
    expect(rec.issues[0]).toMatchObject({ line: 4 });
    expect(rec.issues[1].line).toBe(flushLine + 2);
    expect(rec.issues[1].message).toMatch(/longer than 4096 characters/);
    expect(rec.summary.tlb_flush).toBe(countLines(text, /tlb_flush:/) - 1);
  });

  test('a file cut off mid-line says so on its last line', () => {
    const rec = parseRecording(text.slice(0, text.lastIndexOf('tlb_flush') + 5), 'short.trace');
    expect(rec.issues.at(-1)?.message).toMatch(/no newline/);
  });

  test('binary files are refused with what to run instead', () => {
    expect(() => parseRecording('\x17\x08Dtracing6\0\0\0', 'trace.dat')).toThrow(
      /trace-cmd report/,
    );
    expect(() => parseRecording('PERFILE2h\0\0\0', 'perf.data')).toThrow(/perf script/);
    expect(() => parseRecording('ab\0cd\n'.repeat(50), 'x.bin')).toThrow(/binary/);
  });

  test("another tracer's output is refused, naming a line", () => {
    const fn = [
      '# tracer: function',
      '#',
      '            bash-1234    [000] ...1.   100.000001: do_sys_open <-__x64_sys_openat',
      '            bash-1234    [000] ...1.   100.000002: getname <-do_sys_open',
    ].join('\n');
    expect(() => parseRecording(fn, 'fn.trace')).toThrow(/line 3: function tracer output/);
    expect(() => parseRecording('time,cpu,event\n1,2,3\n', 'x.csv')).toThrow(
      /not a trace this importer reads.*line 1/,
    );
    expect(() => parseRecording('', 'empty')).toThrow(RecordingError);
  });

  test('a trace that looks right but has none of the tlb events says what it found', () => {
    const other = lines.map((l) =>
      l.replace(
        /\b(tlb_flush|ipi_send_cpu|sched_switch|csd_\w+|call_function\w*):/,
        'irq_handler_entry:',
      ),
    );
    expect(() => parseRecording(other.join('\n'), 'irq.trace')).toThrow(
      /none of the events this importer reads.*irq_handler_entry \(\d+\)/,
    );
    const schedOnly = lines.filter((l) => l.startsWith('#') || l.includes('sched_switch:'));
    const rec = parseRecording(schedOnly.join('\n'), 'sched.trace');
    expect(rec.summary.tlb_flush).toBe(0);
    expect(rec.summary.warnings[0]).toMatch(/no tlb_flush events/);
  });

  test('events the importer does not know are counted by name, not dropped silently', () => {
    const extra = [...lines];
    extra.splice(
      flushLine,
      0,
      lines[flushLine].replace(/tlb_flush: .*/, 'mm_page_alloc: page=0x1 order=0'),
    );
    const rec = parseRecording(extra.join('\n'), 'extra.trace');
    expect(rec.unknown).toEqual({ mm_page_alloc: 1 });
    expect(rec.summary.unknown_events).toEqual({ mm_page_alloc: 1 });
  });

  test('a bad field is named with its line, the rest of the line-level data kept', () => {
    const bad = [...lines];
    bad[flushLine] = bad[flushLine].replace(/reason:.*/, 'reason:');
    const rec = parseRecording(bad.join('\n'), 'bad.trace');
    expect(rec.issues).toEqual([expect.objectContaining({ line: flushLine + 1 })]);
    expect(rec.issues[0].message).toMatch(/reason/);
  });
});

test('detection needs no header for trace_pipe and perf script text', () => {
  expect(detectFormat(read('trace-pipe.txt'))).toEqual({ format: 'tracefs' });
  expect(detectFormat(read('perf-script.txt'))).toEqual({ format: 'perf' });
  expect(detectFormat(read('trace-cmd-report.txt'))).toEqual({ format: 'trace-cmd' });
});

test('cpumasks: CPU lists, %*pb hex groups and perf ARRAY bytes', () => {
  expect(parseCpumask('0-2,5')).toEqual([0, 1, 2, 5]);
  expect(parseCpumask('1')).toEqual([1]);
  expect(parseCpumask('00000001,00000006')).toEqual([1, 2, 32]);
  expect(parseCpumask('ARRAY[06, 01]')).toEqual([1, 2, 8]);
  expect(parseCpumask('zz')).toBeNull();
});

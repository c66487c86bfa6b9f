import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoadError } from './csv';
import {
  describeEventIssues,
  missingEventColumns,
  parseMeasuredEvents,
  suggestEventMapping,
  type MeasuredEvents,
} from './eventCsv';

const header = 'time_ns,cpu,event,duration_ns,machine,source';
const ok = (text: string): MeasuredEvents => {
  const m = parseMeasuredEvents(text, 'e.csv');
  if (isLoadError(m)) throw new Error(m.message);
  return m;
};

describe('parseMeasuredEvents', () => {
  it('reads one event per row, sorted by time, with the provenance label', () => {
    const m = ok(readFileSync(resolve('tests/fixtures/measured-events.csv'), 'utf8'));
    expect(m.events.map((e) => [e.time, e.cpu, e.event, e.duration, e.row])).toEqual([
      [600, 0, 'tlb_flush', 400, 2],
      [1500, 1, 'ipi:call_function_entry', 300, 3],
      [1550, 2, 'ipi:call_function_entry', 0, 4],
    ]);
    expect(m.labels).toEqual(['measured on local-test-vm (ftrace)']);
    expect(m.issues).toEqual([]);
  });

  it('finds columns by name in any order and takes a missing duration as instants', () => {
    const m = ok('source;machine;CPU;event;time_ns\nperf;box;3;ipi;10\n');
    expect(m.events[0]).toMatchObject({ time: 10, cpu: 3, duration: 0, machine: 'box' });
  });

  it('refuses a file without a required column, naming it', () => {
    const m = parseMeasuredEvents('time_ns,cpu,event\n1,0,x\n', 'e.csv');
    expect(isLoadError(m) && m.message).toMatch(/e\.csv: no `machine`, `source` column/);
  });

  it('locates bad cells by row and column and keeps the good rows', () => {
    const m = ok(
      `${header}\n1,0,flush,2,m,s\nabc,0,flush,2,m,s\n5,1.5,flush,2,m,s\n6,0,flush,-1,m,s\n7,0,,1,m,s\n8,0,"=cmd|x",1,m,s\n`,
    );
    expect(m.events.map((e) => e.row)).toEqual([2, 7]);
    expect(describeEventIssues(m, 10)).toEqual([
      'row 3, column time_ns: `abc` is not a number',
      'row 4, column cpu: `1.5` must be a whole number ≥ 0',
      'row 5, column duration_ns: `-1` must be ≥ 0',
      'row 6, column event: is empty',
      expect.stringMatching(
        /^row 7, column event: `=cmd\|x` starts with = like a spreadsheet formula/,
      ),
    ]);
  });

  it('refuses what is not a CSV, as the dataset importer does', () => {
    const m = parseMeasuredEvents('just one line without a delimiter', 'e.csv');
    expect(isLoadError(m)).toBe(true);
  });
});

describe('a per-event CSV named otherwise, read by a mapping', () => {
  const text = 'ts (ns),core,what,took,box\n600,0,tlb_flush,400,vm-1\n1500,1,ipi,,vm-1\n';

  it('suggests the columns it knows other names for, and not a time of unknown unit', () => {
    const m = suggestEventMapping(['timestamp', 'core', 'Event Name', 'dur_ns', 'Host', 'tool']);
    expect(m).toEqual({ time_ns: -1, cpu: 1, event: 2, duration_ns: 3, machine: 4, source: 5 });
  });

  it('reads the mapped columns, with a value fixed for every row', () => {
    const reading = {
      mapping: { time_ns: 0, cpu: 1, event: 2, duration_ns: 3, machine: 4, source: -1 },
      fixed: { source: 'bpftrace' },
    };
    expect(missingEventColumns(reading)).toEqual([]);
    const m = parseMeasuredEvents(text, 'o.csv', reading);
    if (isLoadError(m)) throw new Error(m.message);
    expect(m.events.map((e) => [e.time, e.cpu, e.event, e.duration, e.row])).toEqual([
      [600, 0, 'tlb_flush', 400, 2],
      [1500, 1, 'ipi', 0, 3],
    ]);
    expect(m.labels).toEqual(['measured on vm-1 (bpftrace)']);
  });

  it('names what is still unmapped', () => {
    const reading = {
      mapping: { time_ns: -1, cpu: 1, event: 2, duration_ns: -1, machine: 4, source: -1 },
      fixed: {},
    };
    expect(missingEventColumns(reading)).toEqual(['time_ns', 'source']);
    const m = parseMeasuredEvents(text, 'o.csv', reading);
    expect(isLoadError(m) && m.message).toBe(
      'o.csv: no column chosen for `time_ns`, `source`; pick one or give a value for every row.',
    );
  });
});

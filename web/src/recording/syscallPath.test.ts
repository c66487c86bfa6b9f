// A syscall's own path, around a shootdown (raw_syscalls:sys_enter/sys_exit, which
// bench/kit/trace.sh records for madvise and munmap): entry to exit less the shootdown, only
// for syscalls that began exactly one and returned without error.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { parseRecording } from './parse';

const HEAD = '# tracer: nop\n#\n';
const line = (cpu: number, us: number, body: string) =>
  `   madvise_touch-7   [00${cpu}] d..2. 100.${String(us).padStart(6, '0')}: ${body}\n`;
/** One madvise on CPU 0 whose shootdown to CPU 1 lasts from `s` to `a` µs. */
const madvise = (enter: number, s: number, a: number, exit: number, result = '0') =>
  line(0, enter, 'sys_enter: NR 28 (7f0000000000, 1000, 4, 0, 0, 0)') +
  line(0, s, 'tlb_flush: pages:1 reason:remote IPI send (4)') +
  line(0, s, 'csd_queue_cpu: cpu=1 callsite=x+0x1/0x2 func=flush_tlb_func csd=00000000aa') +
  line(0, s, 'ipi_send_cpu: cpu=1 callsite=x+0x1/0x2 callback=y+0x0/0x10') +
  line(1, s + 2, 'call_function_single_entry: vector=251') +
  line(1, s + 2, 'csd_function_entry: func=flush_tlb_func, csd=00000000aa') +
  line(1, s + 3, 'tlb_flush: pages:1 reason:remote shootdown (1)') +
  line(1, a, 'csd_function_exit: func=flush_tlb_func, csd=00000000aa') +
  line(1, a, 'call_function_single_exit: vector=251') +
  line(0, exit, `sys_exit: NR 28 = ${result}`);

test('entry to exit less the shootdown, for syscalls around one shootdown that succeeded', () => {
  const text =
    HEAD +
    madvise(0, 10, 20, 25) + // 25 µs, of which the shootdown 10: 15
    madvise(100, 103, 110, 112) + // 12 µs, shootdown 7: 5
    madvise(200, 201, 205, 230, '-22'); // an error: not counted
  const rec = parseRecording(text, 'syscalls.trace');
  expect(rec.unknown).toEqual({});
  expect(rec.issueCount).toBe(0);
  expect(rec.summary.syscall_path_ns).toEqual({ samples: 2, p10: 5000, p50: 5000, p90: 15000 });
});

test('without raw_syscalls events there is no syscall path', () => {
  const rec = parseRecording(
    HEAD + line(0, 1, 'tlb_flush: pages:1 reason:local MM shootdown (3)'),
    'x',
  );
  expect(rec.summary.syscall_path_ns).toBeNull();
});

test('the kit’s quiet recording: one path per madvise, microseconds long', () => {
  const name = 'madvise-touch-2cpu-ticks.trace';
  const rec = parseRecording(
    readFileSync(resolve('tests/fixtures/recordings', name), 'utf8'),
    name,
  );
  const p = rec.summary.syscall_path_ns;
  expect(p?.samples).toBeGreaterThan(300);
  expect(p?.p50).toBeGreaterThanOrEqual(1000);
  expect(p?.p50).toBeLessThan(20_000);
});

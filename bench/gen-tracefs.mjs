// Writes a synthetic tracefs recording (the text of /sys/kernel/tracing/trace) of about N event
// lines for the UI benchmark's large-recording case: IPI shootdowns from a few initiators to the
// other CPUs, in the event names and field layout of tests/fixtures/recordings/tracefs.trace
// (a real 2-CPU recording), with timestamps rising 1 µs a line. Not a measurement of anything:
// it only has the size and shape of a long recording.
//
//   node bench/gen-tracefs.mjs OUT.trace [--lines N (default 10,000,000)] [--cpus N (default 64)]
import { createWriteStream } from 'node:fs';
import { exitIfHelp } from '../web/scripts/scriptHelp.mjs';

exitIfHelp(import.meta.url);

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

/**
 * The recording's text in pieces of about 1 MB, header first: `lines` event lines (rounded up
 * to whole cycles). One cycle is an initiator's remote flush and one target's handler: 11 lines.
 * (tests/e2e/recording-remote.spec.ts builds a small one in memory.)
 */
export function* tracefsChunks(lines, cpus) {
  yield (
    `# tracer: nop\n#\n# entries-in-buffer/entries-written: ${lines}/${lines}   #P:${cpus}\n#\n` +
    '#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n' +
    '#              | |         |   |||||     |         |\n'
  );
  let us = 1_000_000_000; // 1000 s after boot, in µs
  const stamp = () => {
    us += 1;
    return `${Math.floor(us / 1e6)}.${String(us % 1e6).padStart(6, '0')}`;
  };
  const cpu = (c) => `[${String(c).padStart(3, '0')}]`;
  let written = 0;
  let chunk = '';
  for (let k = 0; written < lines; k++) {
    const from = (k % 4) * Math.max(1, Math.floor(cpus / 4)); // four initiators
    const to = (from + 1 + (k % (cpus - 1))) % cpus;
    const init = `       bench-${1000 + from}    ${cpu(from)}`;
    const targ = `       other-${2000 + to}    ${cpu(to)}`;
    const csd = (0x1000 + to).toString(16).padStart(16, '0');
    chunk +=
      `${init} ...1.  ${stamp()}: tlb_flush: pages:-1 reason:remote IPI send (4)\n` +
      `${init} ...2.  ${stamp()}: csd_queue_cpu: cpu=${to} callsite=on_each_cpu_cond_mask+0x20/0x60 func=flush_tlb_func csd=${csd}\n` +
      `${init} ...2.  ${stamp()}: ipi_send_cpu: cpu=${to} callsite=on_each_cpu_cond_mask+0x20/0x60 callback=generic_smp_call_function_single_interrupt+0x0/0x10\n` +
      `${init} d..2.  ${stamp()}: csd_function_entry: func=flush_tlb_func, csd=0000000000000000\n` +
      `${init} d..2.  ${stamp()}: tlb_flush: pages:-1 reason:local MM shootdown (3)\n` +
      `${init} d..2.  ${stamp()}: csd_function_exit: func=flush_tlb_func, csd=0000000000000000\n` +
      `${targ} d.h..  ${stamp()}: call_function_single_entry: vector=251\n` +
      `${targ} d.h..  ${stamp()}: csd_function_entry: func=flush_tlb_func, csd=${csd}\n` +
      `${targ} d.h..  ${stamp()}: tlb_flush: pages:0 reason:remote wrong CPU (5)\n` +
      `${targ} d.h..  ${stamp()}: csd_function_exit: func=flush_tlb_func, csd=${csd}\n` +
      `${targ} d.h..  ${stamp()}: call_function_single_exit: vector=251\n`;
    written += 11;
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** Streams the recording to `out`, resolving with the lines written (header excluded). */
export async function writeTracefs(out, lines, cpus) {
  const file = createWriteStream(out);
  const write = (s) =>
    file.write(s) ? Promise.resolve() : new Promise((r) => file.once('drain', r));
  for (const piece of tracefsChunks(lines, cpus)) await write(piece);
  await new Promise((r) => file.end(r));
  return Math.ceil(lines / 11) * 11;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const out = process.argv[2];
  if (!out || out.startsWith('--')) {
    console.error('usage: node bench/gen-tracefs.mjs OUT.trace [--lines N] [--cpus N]');
    process.exitCode = 2;
  } else {
    const n = await writeTracefs(out, arg('lines', 10_000_000), arg('cpus', 64));
    console.log(`${out}: ${n.toLocaleString('en-US')} event lines`);
  }
}

// Hostile runs through the real CLI and WASM build: each stops at its budget with a message
// naming the field to raise, prints what it simulated, and never traps.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runOnce, SimulatorTrap } from './run.mjs';

const cli = (...args) =>
  spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('the run budget on the real WASM build', { timeout: 90_000 }, () => {
  it('stops a task that never ends (repeat = 0) and prints the partial run', () => {
    const r = cli('run', 'sim-wasm/tests/fixtures/forever.toml', '--set', 'max_memory_mb=32');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /forever\.toml: machine\.max_memory_mb: the run reached its memory budget of 32 MB/,
    );
    expect(r.stderr).toMatch(/--set max_memory_mb=<MB> \(at most 1024\)/);
    expect(r.stderr).not.toMatch(/ownership|unreachable|RuntimeError/);
    const partial = JSON.parse(r.stdout);
    expect(partial.trace_rows).toBeGreaterThan(100_000);
  });

  it('stops the flushes=10000000 link with its limits at their ceilings at the default budget', () => {
    const r = cli(
      'run',
      'x86-munmap-shootdown',
      ...['--set', 'flushes=10000000', '--set', 'max_events=100000000'],
      ...['--set', 'max_time_ns=1000000000000'],
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/machine\.max_memory_mb: the run reached its memory budget of 256 MB/);
    expect(JSON.parse(r.stdout).events).toBeGreaterThan(1_000_000);
  });

  it('refuses an event budget over its ceiling, naming the field and the ceiling', () => {
    const r = cli('run', 'x86-munmap-shootdown', '--set', 'max_events=1000000000');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /--set machine\.max_events: must be between 1 and 100000000, got 1000000000/,
    );
  });

  it('stops a 512-CPU run with a large workload', () => {
    const r = cli(
      'run',
      'x86-munmap-shootdown',
      ...['--set', 'cpus=512', '--set', 'threads=256', '--set', 'lazy_cpus=128'],
      ...['--set', 'busy_threads=64', '--set', 'flushes=1000000', '--set', 'max_memory_mb=64'],
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/memory budget of 64 MB/);
  });

  it('names the event budget when that is what stops the run', () => {
    const r = cli('run', 'sim-wasm/tests/fixtures/forever.toml', '--set', 'max_events=1000');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /machine\.max_events: the run reached its event budget of 1,000 events/,
    );
  });

  it('refuses a machine whose state alone is over the budget, naming the field', () => {
    const r = cli(
      'run',
      'x86-munmap-shootdown',
      ...['--set', 'cpus=512', '--set', 'threads=512', '--set', 'processes=true'],
      ...['--set', 'mm_pages=1048576'],
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--set workload\.mm_pages: the machine's state needs \d+ MB/);
  });
});

describe('a trap in the simulator', () => {
  // A stand-in for a trapped instance: run() traps and free() then throws what wasm-bindgen
  // throws on a poisoned instance, which used to replace the real error.
  const trappingWasm = {
    Simulator: class {
      run() {
        throw new WebAssembly.RuntimeError('unreachable');
      }
      free() {
        throw new Error('attempted to take ownership of Rust value while it was borrowed');
      }
    },
  };

  it('is reported as a trap with the command line that reproduces it', () => {
    let err;
    try {
      runOnce(trappingWasm, '', 'f.toml', ['cpus=8'], 3);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SimulatorTrap);
    expect(err.message).toMatch(/WebAssembly trap: unreachable/);
    expect(err.message).toMatch(/f\.toml --set cpus=8 --seed 3/);
  });
});

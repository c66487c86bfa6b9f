import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const cli = (...args) => spawnSync('node', ['web/cli/tlbscope.mjs', ...args], { encoding: 'utf8' });

describe('tlbscope history', () => {
  it('replays a scenario under every kernel, oldest first, each step with its commit', () => {
    const r = cli('history', 'x86-madvise-touch', '--set', 'flushes=50', '--format', 'json');
    expect(r.status, r.stderr).toBe(0);
    const steps = JSON.parse(r.stdout);
    expect(steps.map((s) => s.kernel)).toEqual([
      '4.13',
      '4.14',
      '4.15',
      '5.3',
      '5.18',
      '6.15',
      '7.3',
    ]);
    const by = Object.fromEntries(steps.map((s) => [s.kernel, s]));
    expect(by['5.3'].change).toMatch(/^3db6d5a5ecaf /);
    expect(by['7.3'].change).toMatch(/a5a162fe1ae1/);
    // 7.3 lets the wait for remote CPUs be preempted: the flush stays as long, the window
    // with preemption off shrinks. The per-CPU descriptor of 5.3 keeps it for the whole flush
    // (the longest window against the mean flush: the first flush, whose protocol lines come
    // from memory, is a few ns shorter than the rest).
    const { preemptOffMaxNs: off53, flushLatencyNs: flush53 } = by['5.3'];
    expect(off53).toBeGreaterThanOrEqual(flush53);
    expect(off53 - flush53).toBeLessThan(flush53 / 100);
    expect(by['7.3'].preemptOffMaxNs).toBeLessThan(by['5.3'].preemptOffMaxNs);
    expect(steps.every((s) => s.violated.length === 0 && s.ipis === 150)).toBe(true);
  });

  it('switches INVLPGB on only from the kernel that has it, on the machine that has it', () => {
    const r = cli('history', 'x86-invlpgb-r12-r13', '--format', 'json');
    expect(r.status, r.stderr).toBe(0);
    const ipis = Object.fromEntries(JSON.parse(r.stdout).map((s) => [s.kernel, s.ipis]));
    // Three flushes to three CPUs by IPI; from 6.15 only the first flush and the stragglers.
    expect(ipis['5.3']).toBe(9);
    expect(ipis['6.15']).toBeLessThan(9);
  });

  it('prints a table and refuses what it cannot replay', () => {
    const r = cli('history', 'x86-madvise-touch', '--set', 'flushes=20');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^kernel +op latency +flush latency +max preempt-off +IPIs +safety/m);
    expect(r.stdout).toMatch(/^ {2}4\.14: 10af6235e0d3 /m);
    const own = cli('history', 'x86-madvise-touch', '--set', 'kernel=5.3');
    expect(own.status).toBe(1);
    expect(own.stderr).toMatch(/history sets kernel= itself/);
    const arm = cli('history', 'arm64-fork-cow');
    expect(arm.status).toBe(1);
    expect(arm.stderr).toMatch(/kernel/);
  });
});

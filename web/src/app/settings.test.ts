import { describe, expect, it } from 'vitest';
import { controlState, settingsFor, valueOf, withArch, withValue } from './settings';

describe('override lists', () => {
  it('read the last assignment of a key', () => {
    expect(valueOf(['cpus=4', 'pcid=off', 'cpus=8'], 'cpus')).toBe('8');
    expect(valueOf(['cpus=4'], 'pcid')).toBeUndefined();
  });

  it('replace a key without touching the others, and drop it when cleared', () => {
    expect(withValue(['cpus=4', 'pcid=off'], 'cpus', '16')).toEqual(['pcid=off', 'cpus=16']);
    expect(withValue(['cpus=4', 'pcid=off'], 'cpus', undefined)).toEqual(['pcid=off']);
  });

  it('drop the other architecture’s toggles and the kernel when the architecture changes', () => {
    const x86 = ['cpus=8', 'kernel=5.3', 'flush_info=percpu', 'pcid=on', 'locks=off'];
    expect(withArch(x86, 'arm64')).toEqual(['cpus=8', 'locks=off', 'arch=arm64']);
    expect(withArch(['broadcast_skip=on', 'cpus=8', 'arch=arm64'], 'x86')).toEqual([
      'cpus=8',
      'arch=x86',
    ]);
    expect(withArch(x86, 'x86')).toEqual([...x86, 'arch=x86']);
  });

  it('do not confuse keys that share a prefix', () => {
    expect(
      withValue(['irqs_off_max_ns=5', 'irqs_off_probability=0.5'], 'irqs_off_max_ns', '9'),
    ).toEqual(['irqs_off_probability=0.5', 'irqs_off_max_ns=9']);
  });
});

describe('settings by architecture', () => {
  it('offers x86 toggles on x86 and arm64 toggles on arm64, and the shared ones on both', () => {
    const x86 = settingsFor('x86').map((s) => s.key);
    const arm = settingsFor('arm64').map((s) => s.key);
    expect(x86).toContain('flush_info');
    expect(x86).not.toContain('broadcast_skip');
    expect(arm).toContain('broadcast_skip');
    expect(arm).toContain('dsb_before_dec');
    expect(arm).not.toContain('pcid');
    const barrier = settingsFor('x86').find((s) => s.key === 'switch_mm_barrier');
    expect(barrier?.values).toEqual(['full', 'none']);
    expect(barrier?.help).toContain('83b0177a6c48');
    expect(arm).not.toContain('switch_mm_barrier');
    for (const shared of ['arch', 'machine', 'cpus', 'tlb_index']) {
      expect(x86).toContain(shared);
      expect(arm).toContain(shared);
    }
  });
});

describe('controlState', () => {
  const effective = { flush_info: 'percpu', cpus: '4', preempt: 'pinned' };

  it('shows the value the run used and says it is the scenario’s when nothing overrides it', () => {
    expect(controlState('flush_info', [], effective)).toEqual({
      value: 'percpu',
      source: 'scenario',
      overridden: false,
    });
  });

  it('credits an override to the guided step that sets it, any other to the reader', () => {
    const set = ['preempt=preemptible_wait'];
    expect(controlState('preempt', set, effective, set)).toMatchObject({
      value: 'preemptible_wait',
      source: 'step',
    });
    expect(controlState('cpus', [...set, 'cpus=64'], effective, set)).toMatchObject({
      value: '64',
      source: 'you',
      overridden: true,
    });
  });

  it('shows nothing rather than a guess before the first run reports its settings', () => {
    expect(controlState('cpus', [], undefined).value).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { namedCpus } from './namedCpus';

describe('namedCpus', () => {
  it('reads single CPUs, lists, ranges and repeated "CPU"', () => {
    expect(namedCpus('none goes to CPU 7')).toEqual([7]);
    expect(namedCpus('CPUs 1-3 and CPUs 4–6')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(namedCpus('the threads on CPUs 1 to 5')).toEqual([1, 2, 3, 4, 5]);
    expect(namedCpus('CPU 1 and 2 are lazy')).toEqual([1, 2]);
    expect(namedCpus('CPUs 0, 1 and 2')).toEqual([0, 1, 2]);
    expect(namedCpus('CPU 6 and CPU 0 make the same mistake')).toEqual([0, 6]);
    expect(namedCpus('migrates from CPU 2 to CPU 3')).toEqual([2, 3]);
  });

  it('stops at a connective without a number, and reads no other numbers', () => {
    expect(namedCpus('switches CPU 1 to its idle task; generation 2 and 3')).toEqual([1]);
    expect(namedCpus('T runs on CPU 0, migrates to CPU 1, and a kernel thread')).toEqual([0, 1]);
    expect(namedCpus('waits for CPU 2 to leave; 40 pages, 33-page ceiling')).toEqual([2]);
    expect(namedCpus('no CPU is named here; cpus = 8')).toEqual([]);
  });
});

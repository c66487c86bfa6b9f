import { describe, expect, it } from 'vitest';
import { MAX_TASKS, ownScenarioProblem } from './ownScenario';

const tasks = (n: number) => '[[tasks]]\ncpu = 0\nprogram = "touch 0"\n'.repeat(n);

describe('own scenario pre-check', () => {
  it('refuses more [[tasks]] tables than the simulator takes, counting them', () => {
    expect(ownScenarioProblem(`[machine]\n${tasks(MAX_TASKS)}`)).toBeNull();
    expect(ownScenarioProblem(tasks(MAX_TASKS + 1))).toBe(
      'tasks: 4,097 [[tasks]] tables, over the 4,096 a scenario may have',
    );
    // How long the count takes is bench/main-thread-tasks.mjs's to measure, not a test's.
    expect(ownScenarioProblem(tasks(100_000))).toContain('100,000 [[tasks]] tables');
  });

  it('counts only table headers, not the word in comments or strings', () => {
    expect(ownScenarioProblem(`# [[tasks]]\n${'x = "[[tasks]]"\n'.repeat(5000)}`)).toBeNull();
    expect(ownScenarioProblem('  [[ tasks ]]\n'.repeat(MAX_TASKS + 1))).not.toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_TASKS, ownScenarioProblem } from './ownScenario';

const tasks = (n: number) => '[[tasks]]\ncpu = 0\nprogram = "touch 0"\n'.repeat(n);

describe('own scenario pre-check', () => {
  it('refuses more [[tasks]] tables than the simulator takes, counting them, quickly', () => {
    expect(ownScenarioProblem(`[machine]\n${tasks(MAX_TASKS)}`)).toBeNull();
    expect(ownScenarioProblem(tasks(MAX_TASKS + 1))).toBe(
      'tasks: 4,097 [[tasks]] tables, over the 4,096 a scenario may have',
    );
    const big = tasks(100_000);
    const t = performance.now();
    expect(ownScenarioProblem(big)).toContain('100,000 [[tasks]] tables');
    expect(performance.now() - t).toBeLessThan(100);
  });

  it('counts only table headers, not the word in comments or strings', () => {
    expect(ownScenarioProblem(`# [[tasks]]\n${'x = "[[tasks]]"\n'.repeat(5000)}`)).toBeNull();
    expect(ownScenarioProblem('  [[ tasks ]]\n'.repeat(MAX_TASKS + 1))).not.toBeNull();
  });
});

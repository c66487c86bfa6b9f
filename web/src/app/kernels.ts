// The kernels the history slider steps through: the simulator's own list (`kernel=`, oldest
// first, each with the commit that made its change), as `npm run vocab` wrote it.
import type { KernelStep } from '../model/kernelHistory';
import { VOCABULARY } from '../sim/vocabulary.generated';

export const KERNELS: readonly KernelStep[] = VOCABULARY.kernels;

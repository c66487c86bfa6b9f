// A trap in the worker's WASM instance: the run is rejected as a crash (not a scenario error),
// the trapped worker is terminated, and the next run starts a fresh worker without a reload.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRequest, WorkerMessage } from './protocol';
import { SimSession, SimulatorCrash } from './session';

/** Answers every run with a trap, as worker.ts does when the WASM instance traps. */
class TrappingWorker {
  static made: TrappingWorker[] = [];
  onmessage: ((e: MessageEvent<WorkerMessage>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  terminated = false;
  constructor() {
    TrappingWorker.made.push(this);
  }
  postMessage(req: RunRequest) {
    const msg: WorkerMessage = {
      type: 'error',
      id: req.id,
      path: '',
      line: 0,
      message: 'The simulator crashed (WebAssembly trap: unreachable).',
      scenario: false,
      trap: true,
    };
    queueMicrotask(() => this.onmessage?.({ data: msg } as MessageEvent<WorkerMessage>));
  }
  terminate() {
    this.terminated = true;
  }
}

const realWorker = globalThis.Worker;
afterEach(() => {
  globalThis.Worker = realWorker;
  TrappingWorker.made = [];
});

describe('SimSession after a trap', () => {
  it('rejects with SimulatorCrash and replaces the worker for the next run', async () => {
    globalThis.Worker = TrappingWorker as unknown as typeof Worker;
    const s = new SimSession();
    await expect(s.run('')).rejects.toBeInstanceOf(SimulatorCrash);
    expect(TrappingWorker.made).toHaveLength(1);
    expect(TrappingWorker.made[0].terminated).toBe(true);
    await expect(s.run('')).rejects.toThrow(/WebAssembly trap: unreachable/);
    expect(TrappingWorker.made).toHaveLength(2);
  });
});

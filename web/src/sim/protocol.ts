// Messages between the page and the simulator worker. Columns travel as transferable
// ArrayBuffers: moved, not copied, across the thread boundary.
import type { Summary } from './trace';

export interface RunRequest {
  type: 'run';
  id: number;
  text: string;
  overrides: string[];
  seed: number;
}

export interface Columns {
  time: Float64Array;
  dur: Float64Array;
  cpu: Uint16Array;
  kind: Uint8Array;
  mm: Uint16Array;
  asid: Uint16Array;
  gen: Uint32Array;
  addr: Float64Array;
  arg: Float64Array;
  parent: Int32Array;
}

export type WorkerMessage =
  | { type: 'progress'; id: number; events: number; nowNs: number }
  | {
      type: 'done';
      id: number;
      title: string;
      description: string;
      cpus: number;
      summary: Summary;
      columns: Columns;
      strings: string[];
    }
  | { type: 'error'; id: number; path: string; line: number; message: string; scenario: boolean };

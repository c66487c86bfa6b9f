// The simulator's state snapshot (sim-wasm/src/snapshot.rs) as typed data, and what the
// inspector derives from it: which PCID slots lag behind their mm's tlb_gen.

import type { Slot, Snapshot } from '../trace/shapes.generated';

// The shapes are generated from the Rust structs (trace/shapes.generated.ts), not retyped here.
export type { CpuState, MmState, Slot, Snapshot, TlbEntry } from '../trace/shapes.generated';

/** Parses the simulator's JSON; null for '{}' (no finished run) or anything unexpected. */
export function parseSnapshot(json: string): Snapshot | null {
  try {
    const v = JSON.parse(json) as Partial<Snapshot>;
    return Array.isArray(v.cpus) && Array.isArray(v.mms) ? (v as Snapshot) : null;
  } catch {
    return null;
  }
}

/** How many generations a slot is behind its mm (0 = current; null = empty slot). */
export function slotLag(snap: Snapshot, slot: Slot): number | null {
  if (slot.mm === null) return null;
  const mm = snap.mms.find((m) => m.mm === slot.mm);
  return mm ? Math.max(0, mm.tlb_gen - slot.tlb_gen) : null;
}

// The simulator's state snapshot (sim-wasm/src/snapshot.rs) as typed data, and what the
// inspector derives from it: which PCID slots lag behind their mm's tlb_gen.

export interface TlbEntry {
  mm: number;
  tag: number;
  vpn: number;
  version: number;
  stale: boolean;
}

export interface Slot {
  slot: number;
  mm: number | null;
  tlb_gen: number;
}

export interface CpuState {
  cpu: number;
  task: string | null;
  loaded_mm: number;
  loaded_asid: number;
  lazy: boolean;
  preempt_count: number;
  irqs_off: boolean;
  ipi_pending: boolean;
  queued_from: number[];
  slots: Slot[];
  tlb_entries: number;
  stale_entries: number;
  entries: TlbEntry[];
}

export interface MmState {
  mm: number;
  tlb_gen: number;
  cpumask: number[];
  asid: number | null;
  asid_generation: number | null;
  nr_active_mm: number | null;
}

export interface Snapshot {
  time_ns: number;
  arch: string;
  cpus: CpuState[];
  mms: MmState[];
  locked_csds: [number, number][];
  arm64: {
    generation: number;
    active_asids: number[];
    reserved_asids: number[];
    flush_pending: number[];
  } | null;
}

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

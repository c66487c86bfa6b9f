//! TLBI instructions (`arch/arm64/include/asm/tlbflush.h`) and the shared interconnect they broadcast on.
//!
//! A local op (`VALE1`, `VAE1`, `ASIDE1`, `VMALLE1` + `DSB NSH`) changes only this CPU's TLB.
//! A broadcast (`…IS` + `DSB ISH`) is a DVM message every PE must perform: the model gives the
//! interconnect one FIFO server, busy `dvm_op_ns` per op, so a broadcast waits behind every
//! broadcast queued before it — its latency grows linearly with the number of concurrent
//! broadcasters — and each op costs every other running CPU `victim_ns` (the victim
//! slowdown). The initiator's `DSB ISH` completes `dsb_ish_ns` after its last op was served.

pub use super::state::TlbiOp;
use super::state::{Job, NOTHING_CACHED};
use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::machine::{Ev, World, USER_BASE};
use crate::task::{Cont, FlushPhase};
use crate::trace::{Fields, Row};

/// Performs `op` on `cpu`'s TLB (and walk caches) right now.
pub fn apply(w: &mut World, cpu: CpuId, mm: MmId, asid: u16, op: TlbiOp, start: u32, pages: u32) {
    let c = cpu.index();
    let tlb = &mut w.cpus[c].tlb;
    match op {
        TlbiOp::Vale1 | TlbiOp::Vae1 => {
            for vpn in start..start.saturating_add(pages) {
                tlb.invalidate_page(asid, vpn);
            }
        }
        TlbiOp::Aside1 => tlb.flush_asid(asid),
        TlbiOp::Vmalle1 => tlb.flush_all(),
    }
    // Walk caches: every form but the leaf-only one drops the mm's intermediate entries.
    let synced = &mut w.arch_state.arm64.walk_synced[c];
    match op {
        TlbiOp::Vale1 => {}
        TlbiOp::Vae1 | TlbiOp::Aside1 => {
            if let (Some(s), Some(m)) = (synced.get_mut(mm.0 as usize), w.mms.get(mm.0 as usize)) {
                if *s != NOTHING_CACHED {
                    *s = m.tlb_gen;
                }
            }
        }
        TlbiOp::Vmalle1 => {
            for (s, m) in synced.iter_mut().zip(&w.mms) {
                if *s != NOTHING_CACHED {
                    *s = m.tlb_gen;
                }
            }
        }
    }
}

/// `DSB NSHST; TLBI <op>; DSB NSH` on `cpu` now: applies it and records a `LocalTlbi` span.
/// Returns its cost.
pub fn local(
    w: &mut World,
    cpu: CpuId,
    mm: MmId,
    op: TlbiOp,
    start: u32,
    pages: u32,
    parent: Option<Row>,
) -> Ns {
    let now = w.now();
    let asid = w.arch_state.arm64.loaded[cpu.index()].loaded_mm_asid;
    let asid = if op == TlbiOp::Vmalle1 {
        asid
    } else {
        w.arch_state.arm64.asid_of(mm).unwrap_or(asid)
    };
    let k = &w.cfg.costs.arm64;
    let per_op = if op == TlbiOp::Vmalle1 {
        k.tlbi_all_local_ns
    } else {
        k.tlbi_local_ns
    };
    let cost = per_op
        .saturating_mul(super::range::ops(&w.cfg, op, pages))
        .saturating_add(k.dsb_nsh_ns.saturating_mul(2));
    apply(w, cpu, mm, asid, op, start, pages);
    let f = Fields {
        mm,
        asid,
        addr: USER_BASE + start as u64 * 4096,
        arg: op.code(),
        parent,
        ..Fields::default()
    };
    w.trace.span(now, cost, cpu, EventKind::LocalTlbi, f);
    cost
}

/// `DSB ISHST; TLBI <op>IS × ops; DSB ISH` by task `t` on `cpu`: queues the ops on the
/// interconnect and stalls the task until its DSB completes (then `FlushPhase::LocalDone`).
/// Returns the `TlbiBroadcast` row (closed by the caller when the DSB completes).
#[allow(clippy::too_many_arguments)]
pub fn broadcast(
    w: &mut World,
    t: TaskId,
    cpu: CpuId,
    mm: MmId,
    op: TlbiOp,
    start: u32,
    pages: u32,
    parent: Row,
) -> Row {
    let now = w.now();
    let asid = w.arch_state.arm64.asid_of(mm).unwrap_or(0);
    let ops = super::range::ops(&w.cfg, op, pages);
    let k = &w.cfg.costs.arm64;
    let issue = now.saturating_add(k.dsb_ishst_ns);
    let served_from = issue.max(w.arch_state.arm64.free_at);
    let served_until = served_from.saturating_add(ops.saturating_mul(k.dvm_op_ns));
    let dsb_done = served_until.saturating_add(k.dsb_ish_ns);
    w.arch_state.arm64.free_at = served_until;
    let f = Fields {
        mm,
        asid,
        addr: USER_BASE + start as u64 * 4096,
        arg: ops,
        parent: Some(parent),
        ..Fields::default()
    };
    let row = w.trace.begin(now, cpu, EventKind::TlbiBroadcast, f);
    let queued = served_from - issue;
    w.stats.interconnect_queue.push(queued as f64);
    w.stats.broadcasts += 1;
    if queued > 0 {
        // From the TLBI issue (after DSB ISHST) until the interconnect takes the first op.
        let q = Fields {
            parent: Some(row),
            ..f
        };
        let dur = served_from - now;
        w.trace
            .span(now, dur, cpu, EventKind::InterconnectQueued, q);
    }
    w.arch_state.arm64.in_dsb[cpu.index()] = true;
    let job = Job {
        cpu,
        mm,
        asid,
        op,
        start,
        pages,
        ops,
        row,
    };
    let id = match w.arch_state.arm64.free_jobs.pop() {
        Some(i) => {
            w.arch_state.arm64.jobs[i as usize] = job;
            i
        }
        None => {
            w.arch_state.arm64.jobs.push(job);
            (w.arch_state.arm64.jobs.len() - 1) as u32
        }
    };
    w.queue.at(served_from, Ev::arch_timer(cpu.0, id));
    w.step(
        t,
        dsb_done.saturating_sub(now),
        false,
        Cont::Flush(FlushPhase::LocalDone),
    );
    row
}

/// The interconnect starts serving broadcast `id`: every PE performs the invalidation, and
/// every other CPU running a task loses `victim_ns` per op.
pub fn service(w: &mut World, id: u32) {
    let now = w.now();
    let Some(job) = w.arch_state.arm64.jobs.get(id as usize).copied() else {
        return;
    };
    w.arch_state.arm64.free_jobs.push(id);
    // One event that invalidates on every PE: the event budget counts each PE's ops.
    w.add_work(w.cfg.cpus as u64 * job.ops);
    w.stats.dvm_messages = w.stats.dvm_messages.saturating_add(job.ops);
    let stall = job.ops.saturating_mul(w.cfg.costs.arm64.victim_ns);
    for c in 0..w.cfg.cpus {
        let cpu = CpuId(c);
        apply(w, cpu, job.mm, job.asid, job.op, job.start, job.pages);
        if cpu == job.cpu || w.arch_state.arm64.in_dsb[cpu.index()] || stall == 0 {
            continue;
        }
        let busy = w.cpus[cpu.index()]
            .curr
            .is_some_and(|t| w.tasks[t.index()].deadline.is_some());
        if busy {
            w.shift_current_step(cpu, stall);
            w.stats.victim_stall_ns = w.stats.victim_stall_ns.saturating_add(stall);
            let f = Fields {
                mm: job.mm,
                asid: job.asid,
                arg: job.cpu.0 as u64,
                parent: Some(job.row),
                ..Fields::default()
            };
            w.trace.span(now, stall, cpu, EventKind::VictimStall, f);
        }
    }
}

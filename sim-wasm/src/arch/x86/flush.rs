//! TLB flushes on x86 (`arch/x86/mm/tlb.c`, `kernel/smp.c`), as the phases
//! of the initiating task:
//!
//! * `flush_tlb_mm_range` in both the pre-2026 (pinned for the whole flush) and the 2026
//!   form (preemptible after dispatch and the local flush), with the descriptor
//!   (`get_flush_tlb_info`) per CPU or on the stack;
//! * `native_flush_tlb_multi` / `should_flush_tlb` choose the targets, and the dispatch
//!   and wait of `smp_call_function_many_cond` (`kernel/smp.c`) send them, with the wait mask per CPU or
//!   per task;
//! * `flush_tlb_func`, locally and in each target's IPI handler: cpumask trimming, lazy
//!   → `init_mm`, the gen checks, and the full-vs-partial rule with the ceiling and the "+1"
//!   rule.

use super::checks;
use super::flush_entry;
use super::invlpgb;
use super::pti;
use super::state::slot_of;
use super::switch_mm::{switch_mm_irqs_off, tlb_tag};
use crate::config::{FlushInfo, Preempt, TlbGenRead, WaitMask};
use crate::cpu::Request;
use crate::events::EventKind;
use crate::ids::{mul_sat, CpuId, DescId, MmId, Ns, TaskId};
use crate::ipi::{take_line, FlushTlbInfo};
use crate::machine::{World, USER_BASE};
use crate::task::{Cont, FlushOp, FlushPhase};
use crate::trace::{Fields, Row};

/// What `flush_tlb_func` did (the `arg` of its `FlushTlbFunc` span).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncResult {
    /// Already up to date (gen checks).
    Nothing = 0,
    Partial = 1,
    Full = 2,
    /// `f->mm` is not loaded here: cleared this CPU from `mm_cpumask(f->mm)`.
    CpumaskCleared = 3,
    /// Lazy CPU: switched to `init_mm` instead of flushing.
    LeftLazy = 4,
}

/// Trims cpumasks at most once per second per mm (`should_trim_cpumask`).
const TRIM_PERIOD_NS: Ns = 1_000_000_000;

/// `should_flush_tlb(cpu, info)`, evaluated by the initiator for each remote CPU, on what it
/// can see of that CPU (a switch's buffered stores not yet: `switch_mm::visible_loaded`).
fn should_flush_tlb(w: &World, cpu: CpuId, info: &FlushTlbInfo) -> bool {
    let (loaded, lazy) = super::switch_mm::visible_loaded(w, cpu);
    if lazy {
        return false;
    }
    match loaded {
        // LOADED_MM_SWITCHING: it might end up with either mm.
        None => true,
        Some(mm) => info.mm == MmId::INIT_MM || mm == info.mm || info.trim_cpumask,
    }
}

/// `switch_mm_irqs_off` from `flush_tlb_func`, kept out of it: inlined there (twice), it
/// made every call, most of which find the CPU up to date, save six registers and reserve
/// a large frame.
#[cold]
#[inline(never)]
fn switch_in_handler(w: &mut World, cpu: CpuId, next: MmId) -> Ns {
    switch_mm_irqs_off(w, cpu, next)
}

/// `flush_tlb_func(info)` on `cpu`: applies its effects now, records its span and returns its
/// cost.
pub fn flush_tlb_func(w: &mut World, cpu: CpuId, desc: DescId, local: bool, parent: Row) -> Ns {
    let f = w.descs.get(desc as usize).copied().unwrap_or_default();
    // A remote call also pulls the descriptor's cache lines from the initiator, across the
    // socket link when the initiator is on another socket.
    let placement = if local {
        0
    } else if w.cfg.same_socket(f.initiating_cpu.0, cpu.0) {
        1
    } else {
        2
    };
    let mut cost = w.arch_state.x86.fixed.func_ns[placement];
    let ts = &w.arch_state.x86.cpu_tlbstate[cpu.index()];
    let (loaded, asid, lazy) = (ts.loaded_mm, ts.loaded_mm_asid, ts.is_lazy);
    // Before aa44284960d5 the call read the loaded mm's `tlb_gen` first of all, whatever it
    // did next: a lazy CPU, or one that only lingered in the mask, paid for the line too.
    let read_first = w.cfg.design.tlb_gen_read == TlbGenRead::Always && loaded != MmId::INIT_MM;
    let early_gen = read_first.then(|| {
        cost = cost.saturating_add(read_gen(w, cpu, loaded, cost));
        w.mms[loaded.0 as usize].tlb_gen
    });
    let result = if f.mm != MmId::INIT_MM && f.mm != loaded {
        // This CPU only lingered in the lazily maintained cpumask.
        if let Some(m) = w.mms.get_mut(f.mm.0 as usize) {
            m.cpumask.clear(cpu);
        }
        let fl = Fields {
            mm: f.mm,
            parent: Some(parent),
            ..Fields::default()
        };
        w.trace
            .instant(w.queue.now(), cpu, EventKind::CpumaskCleared, fl);
        FuncResult::CpumaskCleared
    } else if loaded == MmId::INIT_MM {
        FuncResult::Nothing
    } else if w.cfg.design.invlpgb && invlpgb::global_asid(w, loaded).is_some() {
        // Steps 3–4: pick up the global ASID if this CPU still runs a dynamic one; INVLPGB
        // does the rest.
        if !invlpgb::is_global(asid) {
            cost = cost.saturating_add(switch_in_handler(w, cpu, loaded));
        }
        FuncResult::Nothing
    } else if lazy {
        // Cheaper than a flush, and stops speculative walks of freed page tables (R6).
        cost = cost.saturating_add(switch_in_handler(w, cpu, MmId::INIT_MM));
        FuncResult::LeftLazy
    } else {
        let slot = w.arch_state.x86.cpu_tlbstate[cpu.index()].ctxs[slot_of(asid)];
        let local_gen = slot.tlb_gen;
        // Already covered by an earlier flush (`mm_tlb_gen` deliberately not read, since
        // aa44284960d5), or a concurrent flush already caught us up.
        let covered = w.cfg.design.tlb_gen_read == TlbGenRead::WhenNeeded
            && f.new_tlb_gen != 0
            && f.new_tlb_gen <= local_gen;
        let mm_gen = if covered {
            local_gen
        } else if let Some(gen) = early_gen {
            gen
        } else {
            cost = cost.saturating_add(read_gen(w, cpu, loaded, cost));
            w.mms[loaded.0 as usize].tlb_gen
        };
        if covered || local_gen == mm_gen {
            FuncResult::Nothing
        } else {
            let plus_one = !w.cfg.design.plus_one_rule
                || (f.new_tlb_gen == local_gen + 1 && f.new_tlb_gen == mm_gen);
            let tag = tlb_tag(w, cpu);
            let partial = !f.full && plus_one;
            if partial {
                checks::check_ceiling(w, cpu, f.mm, f.pages);
                checks::check_slot_advance(w, cpu, loaded, local_gen, mm_gen, f.start, f.pages);
                let tlb = &mut w.cpus[cpu.index()].tlb;
                for vpn in f.start..f.start.saturating_add(f.pages) {
                    tlb.invalidate_page(tag, vpn);
                }
                cost = cost.saturating_add(mul_sat(w.cfg.costs.invlpg_ns, f.pages as u64));
                cost = cost.saturating_add(pti::flush_user_pages(w, cpu, f.start, f.pages));
                w.stats.partial_flushes += 1;
                w.stats.x86_ops.invlpg += f.pages as u64;
            } else {
                // flush_tlb_local(): CR3 rewritten with its own value, without NOFLUSH. The
                // translations it drops are walked again by the accesses that need them.
                w.cpus[cpu.index()].tlb.flush_tag(tag);
                pti::invalidate_user_asid(w, cpu);
                cost = cost.saturating_add(w.cfg.costs.full_flush_ns);
                w.stats.full_flushes += 1;
                w.stats.x86_ops.cr3_writes += 1;
                w.stats.x86_ops.cr3_flushes += 1;
            }
            let ts = &mut w.arch_state.x86.cpu_tlbstate[cpu.index()];
            ts.ctxs[slot_of(asid)].tlb_gen = mm_gen;
            if partial {
                FuncResult::Partial
            } else {
                FuncResult::Full
            }
        }
    };
    let fl = Fields {
        mm: f.mm,
        asid,
        gen: f.new_tlb_gen,
        addr: USER_BASE + f.start as u64 * 4096,
        arg: result as u64,
        parent: Some(parent),
    };
    // The clock is read here, not held through the call (no time passes within it).
    w.trace
        .span(w.queue.now(), cost, cpu, EventKind::FlushTlbFunc, fl);
    cost
}

/// `flush_tlb_func`'s read of `mm->context.tlb_gen`, `spent` ns into the call: what it cost.
/// The read misses when another CPU touched the line last: its increment left the line
/// modified there, or another reader took it.
fn read_gen(w: &mut World, cpu: CpuId, mm: MmId, spent: Ns) -> Ns {
    w.stats.x86_ops.tlb_gen_reads += 1;
    let at = w.queue.now().saturating_add(spent);
    match flush_entry::read_tlb_gen(w, cpu, mm, at) {
        Some(ns) => {
            w.stats.x86_ops.tlb_gen_misses += 1;
            ns
        }
        None => 0,
    }
}

fn flush_op(w: &mut World, t: TaskId) -> Option<&mut FlushOp> {
    w.tasks[t.index()].flush.as_mut()
}

/// `put_cpu()` of the flush: ends its preemption-off span.
fn put_cpu(w: &mut World, t: TaskId) {
    let now = w.now();
    let Some(op) = flush_op(w, t) else {
        return;
    };
    let (cpu, row, start) = (op.cpu, op.poff_row.take(), op.poff_start);
    end_preempt_off(w, cpu, row, start, now);
}

/// What `put_cpu` does once the flush's open `PreemptOff` row (if any) is taken from it.
fn end_preempt_off(w: &mut World, cpu: CpuId, row: Option<Row>, start: Ns, now: Ns) {
    if let Some(r) = row {
        w.trace.end(r, now);
        w.stats.preempt_off.push(now.saturating_sub(start) as f64);
        let c = &mut w.cpus[cpu.index()];
        c.preempt_count = c.preempt_count.saturating_sub(1);
    }
}

/// `flush_tlb_mm_range()` begins: `get_cpu()`, the PTE change and `inc_mm_tlb_gen()`,
/// `get_flush_tlb_info()`, and `flush_tlb_multi()`'s choice of targets; then the dispatch.
// Not inlined into `X86::flush_step`: its frame (0x278 bytes, six saved registers) was then
// set up and torn down by every dispatch step too, eight of them per flush.
#[inline(never)]
pub fn flush_tlb_mm_range(w: &mut World, t: TaskId) {
    let now = w.now();
    // The flush stays in its task, borrowed beside the trace and the mm (moving the whole
    // `FlushOp` out and back in was two copies of it per flush); only its target list is
    // taken out while the rest of the world is used.
    let task = &mut w.tasks[t.index()];
    let cpu = task.cpu;
    let Some(op) = task.flush.as_mut() else {
        return w.step(t, 0, true, Cont::NextOp);
    };
    let mm = op.mm;
    // get_cpu()
    w.cpus[cpu.index()].preempt_count += 1;
    op.cpu = cpu;
    op.started = now;
    op.poff_start = now;
    let pf = Fields {
        mm,
        ..Fields::default()
    };
    op.poff_row = Some(w.trace.begin(now, cpu, EventKind::PreemptOff, pf));
    // init_flush_tlb_info(): ranges above the ceiling become full flushes.
    let ceiling = w.cfg.design.ceiling;
    let full = ceiling == 0 || op.pages > ceiling;
    let ff = World::open_flush_range(&mut w.trace, &mut w.mms[mm.0 as usize], op, cpu, now);
    World::trim_gen_ranges(&mut w.mms, &w.arch_state, mm);
    let gen = ff.gen;
    let (start, pages, freed_tables) = (op.start, op.pages, op.freed_tables);
    let gf = Fields {
        parent: Some(op.flush_row),
        ..ff
    };
    let mut targets = std::mem::take(&mut op.targets);
    w.trace.instant(now, cpu, EventKind::TlbGenIncremented, gf);
    // get_flush_tlb_info(): the per-CPU slot or this task's stack frame.
    let desc = match w.cfg.design.flush_info {
        FlushInfo::PerCpu => cpu.0 as DescId,
        FlushInfo::Stack | FlushInfo::StackUnaligned => w.cfg.cpus as DescId + t.0,
    };
    checks::check_descriptor_get(w, desc, t, cpu);
    // flush_tlb_multi() is taken when another CPU is in the cpumask; only then is
    // should_trim_cpumask() asked (at most once per second per mm).
    let m = &mut w.mms[mm.0 as usize];
    let others = m.cpumask.any_but(cpu);
    let trim = others && now >= m.next_trim;
    if trim {
        m.next_trim = now.saturating_add(TRIM_PERIOD_NS);
    }
    let info = FlushTlbInfo {
        mm,
        start,
        pages,
        full,
        new_tlb_gen: gen,
        initiating_cpu: cpu,
        freed_tables,
        trim_cpumask: trim,
        owner: Some(t),
    };
    if let Some(d) = w.descs.get_mut(desc as usize) {
        *d = info;
    }
    if invlpgb::uses_broadcast(w, mm) {
        return broadcast_tlb_flush(w, t, desc, targets, full);
    }
    // flush_tlb_multi(): who gets an IPI.
    let everyone = freed_tables && w.cfg.design.lazy_freed_tables_ipi;
    targets.clear();
    let (loaded, others_n) = walk_cpumask(w, cpu, &info, everyone, &mut targets);
    checks::check_cpumask_covers_loaded(w, cpu, mm, loaded);
    let entry = flush_entry::entry_cost(w, cpu, mm, others_n);
    if others {
        set_wait_mask(w, cpu, t, &targets);
    }
    if let Some(op) = flush_op(w, t) {
        op.desc = desc;
        op.targets = targets;
        op.next_target = 0;
        op.cursor = -1;
    }
    if entry == 0 {
        smp_call_function_many_cond(w, t);
    } else {
        w.step(t, entry, false, Cont::Flush(FlushPhase::Dispatch));
    }
}

/// `flush_tlb_multi()`'s pass over `mm_cpumask`, made once for the three things read from
/// it: the CPUs `should_flush_tlb()` picks, appended to `targets`; how many CPUs of the mask
/// have the mm loaded (I5); and how many besides `cpu` it holds, whose `should_flush_tlb()`
/// the entry work pays for.
fn walk_cpumask(
    w: &World,
    cpu: CpuId,
    info: &FlushTlbInfo,
    everyone: bool,
    targets: &mut Vec<u16>,
) -> (u32, u64) {
    let x86 = &w.arch_state.x86;
    let mask = &w.mms[info.mm.0 as usize].cpumask;
    if x86.switching_n != 0 || everyone {
        return walk_each(w, cpu, info, everyone, targets);
    }
    // No switch in flight: `should_flush_tlb` is on each CPU's own state, which the bitmaps
    // hold, so a word of the mask is decided at once (a look-up of each CPU in it cost ~32
    // instructions per CPU).
    let bits = &x86.loaded_bits;
    let (here, lazy) = (bits.of(info.mm), bits.lazy());
    let any_mm = info.mm == MmId::INIT_MM || info.trim_cpumask;
    let (mut loaded, mut members) = (0u32, 0u64);
    for (i, &m) in mask.words().iter().enumerate() {
        if m == 0 {
            // Most words of a big machine's mask (a count of bits is ~20 instructions where
            // the CPU has no instruction for it).
            continue;
        }
        let here = here.get(i).copied().unwrap_or(0);
        let lazy = lazy.get(i).copied().unwrap_or(0);
        loaded += (m & here).count_ones();
        members += m.count_ones() as u64;
        let mut pick = m & !lazy & if any_mm { u64::MAX } else { here };
        if i == cpu.index() / 64 {
            pick &= !(1 << (cpu.index() % 64));
        }
        while pick != 0 {
            targets.push((i * 64) as u16 + pick.trailing_zeros() as u16);
            pick &= pick - 1;
        }
    }
    let others = members - mask.contains(cpu) as u64;
    #[cfg(debug_assertions)]
    {
        let mut each = Vec::new();
        let counts = walk_each(w, cpu, info, everyone, &mut each);
        assert_eq!(
            (counts, each),
            ((loaded, others), targets.clone()),
            "bitmaps disagree"
        );
    }
    (loaded, others)
}

/// `walk_cpumask` CPU by CPU, on what the initiator can see of each (`should_flush_tlb`).
/// Collecting the mask into a list and scanning that four times (the I5 count, the entry
/// work's count, `any`, `retain`) cost ~74 instructions per CPU of the mask, this ~37.
fn walk_each(
    w: &World,
    cpu: CpuId,
    info: &FlushTlbInfo,
    everyone: bool,
    targets: &mut Vec<u16>,
) -> (u32, u64) {
    let states = &w.arch_state.x86.cpu_tlbstate;
    let (mut loaded, mut others) = (0u32, 0u64);
    w.mms[info.mm.0 as usize].cpumask.for_each(|c| {
        loaded += (states[c as usize].loaded_mm == info.mm) as u32;
        if c != cpu.0 {
            others += 1;
            if everyone || should_flush_tlb(w, CpuId(c), info) {
                targets.push(c);
            }
        }
    });
    (loaded, others)
}

/// The set of CPUs the wait will poll: the per-CPU `cfd->cpumask` or the task's own.
fn set_wait_mask(w: &mut World, cpu: CpuId, t: TaskId, targets: &[u16]) {
    match w.cfg.design.wait_mask {
        WaitMask::PerCpu => {
            checks::check_wait_mask_write(w, cpu, t);
            let cfd = &mut w.cfd[cpu.index()];
            cfd.mask.clear();
            cfd.mask.extend_from_slice(targets);
            cfd.mask_user = Some(t);
        }
        WaitMask::Task => {
            let task = &mut w.tasks[t.index()];
            task.ipi_mask.clear();
            task.ipi_mask.extend_from_slice(targets);
        }
    }
}

/// `broadcast_tlb_flush()`: the entry work, the INVLPGBs, then IPIs only to the CPUs
/// `finish_asid_transition()` finds still on a dynamic ASID; `TLBSYNC` comes at the end
/// (`flush_tlb_mm_range_done`).
fn broadcast_tlb_flush(w: &mut World, t: TaskId, desc: DescId, list: Vec<u16>, full: bool) {
    let Some(mut op) = w.tasks[t.index()].flush.take() else {
        return;
    };
    // `list` (the flush's own, taken out of it) is replaced by the stragglers' list.
    drop(list);
    op.desc = desc;
    let (cpu, mm) = (op.cpu, op.mm);
    let entry = flush_entry::entry_cost(w, cpu, mm, 0);
    let (start, pages) = (op.start, op.pages);
    let sent = {
        // The INVLPGBs leave after the entry work.
        let t0 = entry;
        invlpgb::issue(w, cpu, mm, start, pages, full, t0)
    };
    let mut targets = invlpgb::stragglers(w, mm);
    targets.retain(|&c| c != cpu.0);
    if !targets.is_empty() {
        set_wait_mask(w, cpu, t, &targets);
    }
    op.targets = targets;
    op.next_target = 0;
    op.cursor = -1;
    w.arch_state.x86.tlbsync_owed.insert(t.0);
    w.tasks[t.index()].flush = Some(op);
    w.step(
        t,
        entry.saturating_add(sent),
        false,
        Cont::Flush(FlushPhase::Dispatch),
    );
}

/// `smp_call_function_many_cond()`'s dispatch: `csd_lock` + `llist_add` + IPI, one target
/// per step; then the local `flush_tlb_func` (`SCF_RUN_LOCAL`).
pub fn smp_call_function_many_cond(w: &mut World, t: TaskId) {
    // Borrowed from the task, not through `flush_op`, so that it lives on beside the csd.
    // Its fields, the clock and the CPU count are read where they are used: read up front,
    // they were kept across the step in spilled registers.
    let Some(op) = w.tasks[t.index()].flush.as_mut() else {
        return;
    };
    let sender = op.cpu;
    if let Some(&target) = op.targets.get(op.next_target) {
        let target = CpuId(target);
        let csd = w.cfd[sender.index()].csd(target, w.cfg.cpus);
        if csd.locked {
            // The previous request from this CPU to the target is still running.
            w.spin_wait(t, false, Cont::Flush(FlushPhase::Dispatch));
            let epoch = w.tasks[t.index()].epoch;
            let cpus = w.cfg.cpus;
            w.cfd[sender.index()]
                .csd(target, cpus)
                .waiters
                .push((t, epoch));
            return;
        }
        csd.locked = true;
        csd.info = op.desc;
        // csd_lock() and the fill write the csd's line, which the target's unlock wrote last
        // unless this CPU's wait has read it back since; llist_add() writes the target's queue
        // head, which other senders and the target's handler write too.
        let from_csd = take_line(&mut csd.line, sender);
        op.next_target += 1;
        let cfg = &w.cfg;
        let costs = &cfg.costs;
        let c = &mut w.cpus[target.index()];
        let from_head = take_line(&mut c.queue_line, sender);
        let mut cost = costs.csd_queue_ns;
        for from in [from_csd, from_head].into_iter().flatten() {
            w.stats.x86_ops.request_line_misses += 1;
            cost = cost.saturating_add(cfg.line_ns(from, sender));
        }
        // `llist_add` of the csd to the target's queue, looked up once: a request queued behind
        // others rides on the IPI of the first; only an empty queue needs an IPI.
        let q = &mut c.call_queue;
        let sent = if let Some(first) = q.first() {
            first.sent
        } else {
            cost = cost.saturating_add(costs.ipi_send_ns);
            let arrive = cost.saturating_add(costs.ipi_delivery_ns);
            let f = Fields {
                mm: op.mm,
                gen: op.new_tlb_gen,
                arg: target.0 as u64,
                parent: Some(op.flush_row),
                ..Fields::default()
            };
            let row = w
                .trace
                .instant(w.queue.now(), sender, EventKind::IpiSent, f);
            w.stats.ipis += 1;
            w.queue
                .after(arrive, crate::machine::Ev::ipi_arrive(target.0, row));
            row
        };
        q.push(Request { sender, sent });
        w.step(t, cost, false, Cont::Flush(FlushPhase::Dispatch));
        return;
    }
    let (desc, flush_row, mm) = (op.desc, op.flush_row, op.mm);
    // SCF_RUN_LOCAL: after the IPIs are out, so local and remote flushes overlap.
    let info = w.descs.get(desc as usize).copied().unwrap_or_default();
    let in_mask = w.mms[mm.0 as usize].cpumask.contains(sender);
    // Under a global ASID the INVLPGBs flush this CPU too.
    let broadcast = invlpgb::runs_global(w, sender) && invlpgb::uses_broadcast(w, mm);
    if in_mask && !broadcast && should_flush_tlb(w, sender, &info) {
        w.cli(sender);
        let cost = flush_tlb_func(w, sender, desc, true, flush_row);
        w.step(t, cost, false, Cont::Flush(FlushPhase::LocalDone));
    } else {
        local_flush_done(w, t, false);
    }
}

/// The local flush is done: interrupts back on; with remote targets, the wait begins (after
/// `put_cpu()` in the 2026 form).
pub fn local_flush_done(w: &mut World, t: TaskId, irqs_were_off: bool) {
    let Some(op) = flush_op(w, t) else {
        return;
    };
    let (cpu, remote) = (op.cpu, !op.targets.is_empty());
    if irqs_were_off {
        w.sti(cpu);
    }
    if !remote {
        return flush_tlb_mm_range_done(w, t);
    }
    let broadcast = w.arch_state.x86.tlbsync_owed.contains(&t.0);
    if w.cfg.design.preempt == Preempt::PreemptibleWait && !broadcast {
        // 2026: put_cpu() once the requests are queued and the local call has run. The
        // INVLPGB path stays pinned until its TLBSYNC.
        put_cpu(w, t);
    }
    // The flush is looked up again, not its fields kept through `sti` and `put_cpu`.
    let Some(op) = w.tasks[t.index()].flush.as_mut() else {
        return;
    };
    let f = Fields {
        mm: op.mm,
        parent: Some(op.flush_row),
        ..Fields::default()
    };
    op.wait_row = Some(w.trace.begin(w.queue.now(), cpu, EventKind::IpiWait, f));
    csd_lock_wait(w, t);
}

/// `for_each_cpu(cpu, mask) csd_lock_wait(per_cpu_ptr(cfd->csd, cpu))`: the mask is read
/// afresh at each step (it may be the shared per-CPU one), the csds are those of the CPU
/// the flush was dispatched from.
pub fn csd_lock_wait(w: &mut World, t: TaskId) {
    // The flush is borrowed beside the mask (the task's own, or the CPU's), so the cursor is
    // moved without a second look-up of the task.
    let task = &mut w.tasks[t.index()];
    let Some(op) = task.flush.as_mut() else {
        return;
    };
    let sender = op.cpu;
    let cfd = &mut w.cfd[sender.index()];
    let csds = &mut cfd.csd;
    let mask = if w.cfg.design.wait_mask == WaitMask::PerCpu {
        &cfd.mask
    } else {
        &task.ipi_mask
    };
    // Nothing changes the mask during one poll, and it is ascending: the csds acknowledged
    // since the last poll are passed over in one walk from the cursor (a search of the mask
    // from its start and a look-up of the flush for each of them were over half of the
    // wait's own instructions). Each of them is read back from the target that unlocked it.
    let rest = &mask[first_after(mask, op.cursor)..];
    let mut locked = None;
    let mut passed = 0;
    for (i, &c) in rest.iter().enumerate() {
        match csds.get_mut(c as usize) {
            Some(csd) if csd.locked => {
                locked = Some(i);
                break;
            }
            Some(csd) => {
                if let Some(from) = take_line(&mut csd.line, sender) {
                    w.stats.x86_ops.request_line_misses += 1;
                    op.wait_read_ns = op.wait_read_ns.saturating_add(w.cfg.line_ns(from, sender));
                }
            }
            None => {}
        }
        passed = i + 1;
    }
    if passed > 0 {
        op.cursor = rest[passed - 1] as i32;
    }
    let Some(next) = locked.map(|i| rest[i]) else {
        return flush_tlb_mm_range_done(w, t);
    };
    let preemptible = w.cfg.design.preempt == Preempt::PreemptibleWait;
    w.spin_wait(t, preemptible, Cont::Flush(FlushPhase::Wait));
    let epoch = w.tasks[t.index()].epoch;
    let cpus = w.cfg.cpus;
    w.cfd[sender.index()]
        .csd(CpuId(next), cpus)
        .waiters
        .push((t, epoch));
}

/// Where the CPUs of the wait mask (ascending, as `for_each_cpu` walks it) after `cursor`
/// begin. The few targets of a typical flush are scanned; a binary search, whose branches a
/// predictor cannot learn, pays only for big masks.
fn first_after(mask: &[u16], cursor: i32) -> usize {
    if mask.len() <= 16 {
        mask.iter()
            .position(|&c| c as i32 > cursor)
            .unwrap_or(mask.len())
    } else {
        mask.partition_point(|&c| (c as i32) <= cursor)
    }
}

/// `TLBSYNC` on the CPU the task runs on now: returns whether it still waits. Pinned (the
/// kernel), the wait is one step on the issuing CPU; unpinned (R12) it polls preemptibly, so
/// the task may move and ask another CPU, which has nothing outstanding.
fn tlbsync(w: &mut World, t: TaskId) -> bool {
    let remaining = invlpgb::tlbsync_remaining(w, t);
    if let Some(op) = flush_op(w, t) {
        // The IPI wait (if any) is over: nothing more to poll in the mask.
        op.cursor = i32::MAX;
    }
    if remaining == 0 {
        w.arch_state.x86.tlbsync_owed.remove(&t.0);
        w.stats.x86_ops.tlbsync += 1;
        return false;
    }
    if w.cfg.design.tlbsync_pinned {
        w.step(t, remaining, false, Cont::Flush(FlushPhase::Wait));
    } else {
        put_cpu(w, t);
        let poll = w.cfg.costs.csd_poll_ns.max(1).min(remaining);
        w.step(t, poll, true, Cont::Flush(FlushPhase::Wait));
    }
    true
}

/// Every target acknowledged: `put_flush_tlb_info()`, `put_cpu()`, and
/// `flush_tlb_mm_range()` returns.
pub fn flush_tlb_mm_range_done(w: &mut World, t: TaskId) {
    let broadcast = w.arch_state.x86.tlbsync_owed.contains(&t.0);
    if broadcast && tlbsync(w, t) {
        return;
    }
    let Some(mut op) = w.tasks[t.index()].flush.take() else {
        return w.step(t, 0, true, Cont::NextOp);
    };
    // The wait's reads of the acknowledged csds end it: paid as this last step's time (the
    // rows below end after them) rather than as a step of their own, which would add
    // interleavings to every check and change nothing but time.
    let cost = op.wait_read_ns;
    let now = w.now().saturating_add(cost);
    // After flush_tlb_multi() returns: consider_global_asid(), only on the IPI path (an mm
    // whose other CPUs are all lazy is not active on them anyway).
    if !broadcast && !op.targets.is_empty() {
        invlpgb::consider_global_asid(w, op.mm);
    }
    if let Some(r) = op.wait_row {
        w.trace.end(r, now);
    }
    let cfd = &mut w.cfd[op.cpu.index()];
    if cfd.mask_user == Some(t) {
        cfd.mask_user = None;
    }
    // put_flush_tlb_info()
    if let Some(d) = w.descs.get_mut(op.desc as usize) {
        if d.owner == Some(t) {
            d.owner = None;
        }
    }
    // put_cpu(), on the flush while it is out of its task (putting it back for `put_cpu`
    // and taking it out again moved the whole `FlushOp` twice).
    let row = op.poff_row.take();
    end_preempt_off(w, op.cpu, row, op.poff_start, now);
    w.flush_returned(&op, now);
    // Keep the allocation of the target list for the task's next flush.
    let mut targets = op.targets;
    targets.clear();
    w.tasks[t.index()].ipi_mask.clear();
    w.scratch_targets.push(targets);
    // Before put_cpu() (unless the wait was preemptible), so no preemption inside the reads.
    let preemptible = cost == 0 || w.cfg.design.preempt == Preempt::PreemptibleWait;
    w.step(t, cost, preemptible, Cont::NextOp);
}

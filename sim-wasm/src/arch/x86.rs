//! x86: PCID slots, lazy TLB, and IPI shootdowns, after `arch/x86/mm/tlb.c` as described in
//! kernel-mechanics.md §2.1–§2.7.
//!
//! * `switch_mm_irqs_off` + `choose_new_asid` (§2.1, §2.2): case A (same mm, catch up after
//!   lazy) and case B (set the cpumask bit, read `tlb_gen`, find or evict a slot; flush only if
//!   the slot is behind or new, else CR3_NOFLUSH).
//! * `flush_tlb_mm_range` (§2.4) in both the pre-2026 (pinned for the whole flush) and the 2026
//!   form (preemptible after dispatch and the local flush), with the descriptor per CPU or on
//!   the stack.
//! * `native_flush_tlb_multi` / `should_flush_tlb` (§2.5) and the dispatch/wait of
//!   `smp_call_function_many_cond` (§2.6), with the wait mask per CPU or per task.
//! * `flush_tlb_func` (§2.7): cpumask trimming, lazy → `init_mm`, the gen checks, and the
//!   full-vs-partial rule with the ceiling and the "+1" rule.

use crate::arch::Arch;
use crate::config::{FlushInfo, Preempt, WaitMask};
use crate::cpu::{AsidSlot, NR_DYN_ASIDS};
use crate::events::EventKind;
use crate::ids::{CpuId, DescId, MmId, Ns, TaskId};
use crate::invariants;
use crate::ipi::FlushTlbInfo;
use crate::machine::{World, USER_BASE};
use crate::task::{Cont, FlushOp, FlushPhase};
use crate::trace::{Fields, Row};

pub struct X86;

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

impl X86 {
    /// `should_flush_tlb(cpu, info)`, evaluated by the initiator for each remote CPU.
    fn should_flush_tlb(w: &World, cpu: CpuId, info: &FlushTlbInfo) -> bool {
        let ts = &w.cpus[cpu.index()].tlbstate;
        if ts.is_lazy {
            return false;
        }
        if info.mm == MmId::INIT_MM || ts.loaded_mm == info.mm {
            return true;
        }
        info.trim_cpumask
    }

    /// `choose_new_asid(next, next_tlb_gen)` → (slot, need_flush).
    fn choose_new_asid(w: &mut World, cpu: CpuId, ctx_id: u64, next_gen: u64) -> (u16, bool) {
        if !w.cfg.design.pcid {
            return (0, true);
        }
        let ts = &mut w.cpus[cpu.index()].tlbstate;
        if let Some(i) = ts.ctxs.iter().position(|s| s.ctx_id == ctx_id) {
            return (i as u16, ts.ctxs[i].tlb_gen < next_gen);
        }
        let mut asid = ts.next_asid;
        ts.next_asid += 1;
        if asid as usize >= NR_DYN_ASIDS {
            asid = 0;
            ts.next_asid = 1;
        }
        (asid, true)
    }

    /// `flush_tlb_func(info)` on `cpu`: applies its effects now and returns (cost, span row).
    fn flush_tlb_func(
        w: &mut World,
        cpu: CpuId,
        desc: DescId,
        local: bool,
        parent: Row,
    ) -> (Ns, Row) {
        let now = w.now();
        let f = w.descs.get(desc as usize).copied().unwrap_or_default();
        let costs = &w.cfg.costs;
        let mut cost = costs.flush_func_ns;
        if !local {
            // The target pulls the descriptor's cache lines from the initiator.
            cost = cost.saturating_add(w.desc_lines.saturating_mul(costs.cacheline_transfer_ns));
        }
        let (invlpg, full_ns) = (costs.invlpg_ns, costs.full_flush_ns);
        let ts = &w.cpus[cpu.index()].tlbstate;
        let (loaded, asid, lazy) = (ts.loaded_mm, ts.loaded_mm_asid, ts.is_lazy);
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
            w.trace.instant(now, cpu, EventKind::CpumaskCleared, fl);
            FuncResult::CpumaskCleared
        } else if loaded == MmId::INIT_MM {
            FuncResult::Nothing
        } else if lazy {
            // Cheaper than a flush, and stops speculative walks of freed page tables (R6).
            cost = cost.saturating_add(X86.switch_mm(w, cpu, MmId::INIT_MM));
            FuncResult::LeftLazy
        } else {
            let slot = w.cpus[cpu.index()].tlbstate.ctxs[asid as usize % NR_DYN_ASIDS];
            let local_gen = slot.tlb_gen;
            let mm_gen = w.mms[loaded.0 as usize].tlb_gen;
            // Already covered by an earlier flush (`mm_tlb_gen` deliberately not read), or a
            // concurrent flush already caught us up.
            let covered = f.new_tlb_gen != 0 && f.new_tlb_gen <= local_gen;
            if covered || local_gen == mm_gen {
                FuncResult::Nothing
            } else {
                let plus_one = !w.cfg.design.plus_one_rule
                    || (f.new_tlb_gen == local_gen + 1 && f.new_tlb_gen == mm_gen);
                let tag = X86.tlb_tag(w, cpu);
                let partial = !f.full && plus_one;
                if partial {
                    invariants::check_ceiling(w, cpu, f.mm, f.pages);
                    invariants::check_slot_advance(
                        w, cpu, loaded, local_gen, mm_gen, f.start, f.pages,
                    );
                    let tlb = &mut w.cpus[cpu.index()].tlb;
                    for vpn in f.start..f.start.saturating_add(f.pages) {
                        tlb.invalidate_page(tag, vpn);
                    }
                    cost = cost.saturating_add(invlpg.saturating_mul(f.pages as u64));
                    w.stats.partial_flushes += 1;
                } else {
                    w.cpus[cpu.index()].tlb.flush_tag(tag);
                    cost = cost.saturating_add(full_ns);
                    w.stats.full_flushes += 1;
                }
                let ts = &mut w.cpus[cpu.index()].tlbstate;
                ts.ctxs[asid as usize % NR_DYN_ASIDS].tlb_gen = mm_gen;
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
        let row = w.trace.span(now, cost, cpu, EventKind::FlushTlbFunc, fl);
        (cost, row)
    }

    fn flush_op(w: &mut World, t: TaskId) -> Option<&mut FlushOp> {
        w.tasks[t.index()].flush.as_mut()
    }

    /// `put_cpu()` of the flush: ends its preemption-off span.
    fn put_cpu(w: &mut World, t: TaskId) {
        let now = w.now();
        let Some(op) = Self::flush_op(w, t) else {
            return;
        };
        let (cpu, row, start) = (op.cpu, op.poff_row.take(), op.poff_start);
        if let Some(r) = row {
            w.trace.end(r, now);
            w.stats.preempt_off.push(now.saturating_sub(start) as f64);
            let c = &mut w.cpus[cpu.index()];
            c.preempt_count = c.preempt_count.saturating_sub(1);
        }
    }

    fn begin(w: &mut World, t: TaskId) {
        let now = w.now();
        let Some(mut op) = w.tasks[t.index()].flush.take() else {
            return w.step(t, 0, true, Cont::NextOp);
        };
        let cpu = w.tasks[t.index()].cpu;
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
        let ff =
            World::open_flush_range(&mut w.trace, &mut w.mms[mm.0 as usize], &mut op, cpu, now);
        let gen = ff.gen;
        let gf = Fields {
            parent: Some(op.flush_row),
            ..ff
        };
        w.trace.instant(now, cpu, EventKind::TlbGenIncremented, gf);
        // get_flush_tlb_info(): the per-CPU slot or this task's stack frame.
        let desc = match w.cfg.design.flush_info {
            FlushInfo::PerCpu => cpu.0 as DescId,
            FlushInfo::Stack | FlushInfo::StackUnaligned => w.cfg.cpus as DescId + t.0,
        };
        invariants::check_descriptor_get(w, desc, t, cpu);
        // flush_tlb_multi() is taken when another CPU is in the cpumask; only then is
        // should_trim_cpumask() asked (at most once per second per mm).
        let mut members = std::mem::take(&mut op.targets);
        members.clear();
        w.mms[mm.0 as usize].cpumask.collect_into(&mut members);
        let others = members.iter().any(|&c| c != cpu.0);
        let m = &mut w.mms[mm.0 as usize];
        let trim = others && now >= m.next_trim;
        if trim {
            m.next_trim = now.saturating_add(TRIM_PERIOD_NS);
        }
        let info = FlushTlbInfo {
            mm,
            start: op.start,
            pages: op.pages,
            full,
            new_tlb_gen: gen,
            initiating_cpu: cpu,
            freed_tables: op.freed_tables,
            trim_cpumask: trim,
            owner: Some(t),
        };
        if let Some(d) = w.descs.get_mut(desc as usize) {
            *d = info;
        }
        op.desc = desc;
        // flush_tlb_multi(): who gets an IPI.
        invariants::check_cpumask_covers_loaded(w, cpu, mm, &members);
        let everyone = op.freed_tables && w.cfg.design.lazy_freed_tables_ipi;
        members.retain(|&c| c != cpu.0 && (everyone || Self::should_flush_tlb(w, CpuId(c), &info)));
        op.targets = members;
        op.next_target = 0;
        op.cursor = -1;
        if others {
            match w.cfg.design.wait_mask {
                WaitMask::PerCpu => {
                    invariants::check_wait_mask_write(w, cpu, t);
                    let cfd = &mut w.cfd[cpu.index()];
                    cfd.mask.clear();
                    cfd.mask.extend_from_slice(&op.targets);
                    cfd.mask_user = Some(t);
                }
                WaitMask::Task => {
                    let task = &mut w.tasks[t.index()];
                    task.ipi_mask.clear();
                    task.ipi_mask.extend_from_slice(&op.targets);
                }
            }
        }
        w.tasks[t.index()].flush = Some(op);
        Self::dispatch(w, t);
    }

    /// `csd_lock` + `llist_add` + IPI, one target per step; then the local flush.
    fn dispatch(w: &mut World, t: TaskId) {
        let now = w.now();
        let cpus = w.cfg.cpus;
        let Some(op) = Self::flush_op(w, t) else {
            return;
        };
        let (sender, desc, flush_row, mm, gen) =
            (op.cpu, op.desc, op.flush_row, op.mm, op.new_tlb_gen);
        if let Some(&target) = op.targets.get(op.next_target) {
            let target = CpuId(target);
            let csd = w.cfd[sender.index()].csd(target, cpus);
            if csd.locked {
                // The previous request from this CPU to the target is still running.
                w.spin_wait(t, false, Cont::Flush(FlushPhase::Dispatch));
                let epoch = w.tasks[t.index()].epoch;
                w.cfd[sender.index()]
                    .csd(target, cpus)
                    .waiters
                    .push((t, epoch));
                return;
            }
            csd.locked = true;
            csd.info = desc;
            if let Some(op) = Self::flush_op(w, t) {
                op.next_target += 1;
            }
            let costs = &w.cfg.costs;
            let need_ipi = w.cpus[target.index()].call_queue.is_empty();
            let mut cost = costs.csd_queue_ns;
            let sent = if need_ipi {
                cost = cost.saturating_add(costs.ipi_send_ns);
                let arrive = cost.saturating_add(costs.ipi_delivery_ns);
                let f = Fields {
                    mm,
                    gen,
                    arg: target.0 as u64,
                    parent: Some(flush_row),
                    ..Fields::default()
                };
                let row = w.trace.instant(now, sender, EventKind::IpiSent, f);
                w.stats.ipis += 1;
                w.queue
                    .after(arrive, crate::machine::Ev::ipi_arrive(target.0, row));
                row
            } else {
                flush_row
            };
            w.enqueue_request(target, sender, sent);
            w.step(t, cost, false, Cont::Flush(FlushPhase::Dispatch));
            return;
        }
        // SCF_RUN_LOCAL: after the IPIs are out, so local and remote flushes overlap.
        let info = w.descs.get(desc as usize).copied().unwrap_or_default();
        let in_mask = w.mms[mm.0 as usize].cpumask.contains(sender);
        if in_mask && Self::should_flush_tlb(w, sender, &info) {
            w.cli(sender);
            let (cost, _) = Self::flush_tlb_func(w, sender, desc, true, flush_row);
            w.step(t, cost, false, Cont::Flush(FlushPhase::LocalDone));
        } else {
            Self::local_done(w, t, false);
        }
    }

    fn local_done(w: &mut World, t: TaskId, irqs_were_off: bool) {
        let now = w.now();
        let Some(op) = Self::flush_op(w, t) else {
            return;
        };
        let (cpu, remote, flush_row, mm) = (op.cpu, !op.targets.is_empty(), op.flush_row, op.mm);
        if irqs_were_off {
            w.sti(cpu);
        }
        if !remote {
            return Self::done(w, t);
        }
        if w.cfg.design.preempt == Preempt::PreemptibleWait {
            // 2026: put_cpu() once the requests are queued and the local call has run.
            Self::put_cpu(w, t);
        }
        let f = Fields {
            mm,
            parent: Some(flush_row),
            ..Fields::default()
        };
        let row = w.trace.begin(now, cpu, EventKind::IpiWait, f);
        if let Some(op) = Self::flush_op(w, t) {
            op.wait_row = Some(row);
        }
        Self::wait(w, t);
    }

    /// `for_each_cpu(cpu, mask) csd_lock_wait(per_cpu_ptr(cfd->csd, cpu))`: the mask is read
    /// afresh at each step (it may be the shared per-CPU one), the csds are those of the CPU
    /// the flush was dispatched from.
    fn wait(w: &mut World, t: TaskId) {
        let preemptible = w.cfg.design.preempt == Preempt::PreemptibleWait;
        let per_cpu_mask = w.cfg.design.wait_mask == WaitMask::PerCpu;
        loop {
            let Some(op) = w.tasks[t.index()].flush.as_ref() else {
                return;
            };
            let (sender, cursor) = (op.cpu, op.cursor);
            let mask = if per_cpu_mask {
                &w.cfd[sender.index()].mask
            } else {
                &w.tasks[t.index()].ipi_mask
            };
            let i = mask.partition_point(|&c| (c as i32) <= cursor);
            let Some(&next) = mask.get(i) else {
                return Self::done(w, t);
            };
            if w.cfd[sender.index()].is_locked(CpuId(next)) {
                w.spin_wait(t, preemptible, Cont::Flush(FlushPhase::Wait));
                let epoch = w.tasks[t.index()].epoch;
                let cpus = w.cfg.cpus;
                w.cfd[sender.index()]
                    .csd(CpuId(next), cpus)
                    .waiters
                    .push((t, epoch));
                return;
            }
            if let Some(op) = Self::flush_op(w, t) {
                op.cursor = next as i32;
            }
        }
    }

    fn done(w: &mut World, t: TaskId) {
        let now = w.now();
        let Some(op) = w.tasks[t.index()].flush.take() else {
            return w.step(t, 0, true, Cont::NextOp);
        };
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
        w.tasks[t.index()].flush = Some(op);
        Self::put_cpu(w, t);
        let Some(op) = w.tasks[t.index()].flush.take() else {
            return;
        };
        w.flush_returned(&op);
        // Keep the allocation of the target list for the task's next flush.
        let mut targets = op.targets;
        targets.clear();
        w.tasks[t.index()].ipi_mask.clear();
        w.scratch_targets = targets;
        w.step(t, 0, true, Cont::NextOp);
    }
}

impl X86 {
    /// `switch_mm_irqs_off` proper (§2.1): case A / case B, the ASID choice and the CR3 write.
    fn switch_address_space(&self, w: &mut World, cpu: CpuId, next: MmId) -> Ns {
        let now = w.now();
        let ts = &mut w.cpus[cpu.index()].tlbstate;
        let prev = ts.loaded_mm;
        let was_lazy = ts.is_lazy;
        ts.is_lazy = false;
        if was_lazy {
            if let Some(r) = w.cpus[cpu.index()].lazy_row.take() {
                w.trace.end(r, now);
            }
        }
        let Some(next_mm) = w.mms.get(next.0 as usize) else {
            return 0;
        };
        let (ctx_id, next_gen) = (next_mm.ctx_id, next_mm.tlb_gen);
        let (asid, need_flush) = if prev == next {
            let ts = &w.cpus[cpu.index()].tlbstate;
            let asid = ts.loaded_mm_asid;
            // Case A: if we were not lazy we received every IPI; otherwise catch up on the
            // flushes we skipped (R9).
            if !was_lazy || ts.ctxs[asid as usize % NR_DYN_ASIDS].tlb_gen == next_gen {
                return 0;
            }
            (asid, true)
        } else {
            // Case B: publish ourselves in mm_cpumask before reading tlb_gen (I5); the bit of
            // prev is not cleared (lazy cpumask maintenance).
            w.mms[next.0 as usize].cpumask.set(cpu);
            Self::choose_new_asid(w, cpu, ctx_id, next_gen)
        };
        let costs = &w.cfg.costs;
        let mut cost = costs.switch_mm_ns;
        let ts = &mut w.cpus[cpu.index()].tlbstate;
        if need_flush {
            ts.ctxs[asid as usize % NR_DYN_ASIDS] = AsidSlot {
                ctx_id,
                tlb_gen: next_gen,
            };
        }
        ts.loaded_mm = next;
        ts.loaded_mm_asid = asid;
        if prev != next {
            if let Some(m) = w.mms.get_mut(prev.0 as usize) {
                m.loaded_on = m.loaded_on.saturating_sub(1);
            }
            w.mms[next.0 as usize].loaded_on += 1;
        }
        let tag = self.tlb_tag(w, cpu);
        let f = Fields {
            mm: next,
            asid,
            gen: next_gen,
            arg: need_flush as u64,
            ..Fields::default()
        };
        if need_flush {
            // CR3 write without NOFLUSH: this PCID's entries are gone.
            w.cpus[cpu.index()].tlb.flush_tag(tag);
            cost = cost.saturating_add(costs.full_flush_ns);
            w.stats.switch_flushes += 1;
        }
        w.trace.span(now, cost, cpu, EventKind::SwitchMm, f);
        cost
    }
}

impl Arch for X86 {
    fn name(&self) -> &'static str {
        "x86"
    }

    fn tlb_tag(&self, w: &World, cpu: CpuId) -> u16 {
        if w.cfg.design.pcid {
            w.cpus[cpu.index()].tlbstate.loaded_mm_asid
        } else {
            0
        }
    }

    fn switch_mm(&self, w: &mut World, cpu: CpuId, next: MmId) -> Ns {
        // A switch to a user task (not `flush_tlb_func` leaving lazy mode for `init_mm`) runs
        // the kernel's syscall, wakeup and scheduler paths first: their global translations.
        let kernel = if next == MmId::INIT_MM {
            0
        } else {
            w.touch_kernel(cpu)
        };
        kernel.saturating_add(self.switch_address_space(w, cpu, next))
    }

    fn enter_lazy_tlb(&self, w: &mut World, cpu: CpuId) {
        let now = w.now();
        let ts = &mut w.cpus[cpu.index()].tlbstate;
        if ts.loaded_mm == MmId::INIT_MM || ts.is_lazy {
            return;
        }
        ts.is_lazy = true;
        let f = Fields {
            mm: ts.loaded_mm,
            asid: ts.loaded_mm_asid,
            ..Fields::default()
        };
        let row = w.trace.begin(now, cpu, EventKind::Lazy, f);
        w.cpus[cpu.index()].lazy_row = Some(row);
    }

    fn prepare_flush(&self, w: &mut World, t: TaskId, page: u32, n: u32, freed_tables: bool) {
        let task = &w.tasks[t.index()];
        let targets = std::mem::take(&mut w.scratch_targets);
        let op = FlushOp::new(task.mm, task.cpu, page, n, freed_tables, targets);
        w.tasks[t.index()].flush = Some(op);
    }

    fn flush_step(&self, w: &mut World, t: TaskId, phase: FlushPhase) {
        match phase {
            FlushPhase::Begin => Self::begin(w, t),
            FlushPhase::Dispatch => Self::dispatch(w, t),
            FlushPhase::LocalDone => Self::local_done(w, t, true),
            FlushPhase::Wait => Self::wait(w, t),
        }
    }

    fn call_func(&self, w: &mut World, cpu: CpuId, sender: CpuId, handler: Row) -> (Ns, Row) {
        let cpus = w.cfg.cpus;
        let desc = w.cfd[sender.index()].csd(cpu, cpus).info;
        Self::flush_tlb_func(w, cpu, desc, false, handler)
    }
}

//! Task programs: starting each op and moving to the next one. User-mode work (touch, spin)
//! is preemptible; `madvise`/`munmap` zap the PTEs and hand over to the arch's
//! `flush_tlb_mm_range`; `cli`/`sti` open and close interrupts-off windows.

use crate::config::{Dist, LockMode, MAX_KERNEL_PAGES};
use crate::events::EventKind;
use crate::ids::{mul_sat, CpuId, MmId, Ns, TaskId};
use crate::invariants;
use crate::locks::LockWork;
use crate::machine::{Access, Arch as _, Ev, World, USER_BASE};
use crate::program::{Dur, Op};
use crate::task::{Cont, FlushPhase, TaskState};
use crate::trace::Fields;

/// Page numbers of the kernel translations: above any user page (`mm_pages` is far smaller).
const KERNEL_VPN_BASE: u32 = 0xF000_0000;
/// Where the kernel's pages are drawn in the trace (`__START_KERNEL_map`).
const KERNEL_BASE: u64 = 0xffff_ffff_8000_0000;

/// The page number of the kernel's `i`-th translation. Bits 14 and up hold `i`, so every
/// page is distinct; bits 0..13, the only ones the `xor7` index reads, are scattered by a
/// fixed mix of `i`, because the kernel's text and data pages (functions across the image,
/// slab objects, vmapped stacks, per-CPU chunks) sit at unrelated addresses.
fn kernel_vpn(i: u64) -> u32 {
    let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    KERNEL_VPN_BASE + ((i as u32) << 14) + (z as u32 & 0x3FFF)
}

impl World {
    /// The op at `pc` finished: advance, wrapping into the next iteration or finishing.
    // Inlined into `step_done`, its one caller: saves a call and a frame per op.
    #[inline(always)]
    pub fn next_op(&mut self, t: TaskId) {
        let now = self.now();
        let task = &mut self.tasks[t.index()];
        task.pc += 1;
        if task.pc >= self.programs[task.program].len() {
            if task.measure && !task.measured {
                let lat = now.saturating_sub(task.iter_start);
                self.stats.op_latency.push(lat as f64);
            }
            // A victim's first chunk also paid for its first switch into its mm: warm-up.
            if task.victim && task.iter > 0 {
                let lat = now.saturating_sub(task.iter_start);
                self.stats.victim_op.push(lat as f64);
            }
            let task = &mut self.tasks[t.index()];
            task.measured = false;
            task.iter = task.iter.saturating_add(1);
            if task.repeat != 0 && task.iter >= task.repeat {
                self.deschedule(t, TaskState::Done);
                self.task_done(t);
                return;
            }
            task.pc = 0;
            task.iter_start = now;
        }
        self.start_op(t);
    }

    pub fn start_op(&mut self, t: TaskId) {
        let now = self.now();
        let task = &self.tasks[t.index()];
        let Some(&op) = self.programs[task.program].get(task.pc) else {
            self.deschedule(t, TaskState::Done);
            self.task_done(t);
            return;
        };
        let (cpu, mm) = (task.cpu, task.mm);
        let costs = &self.cfg.costs;
        match op {
            Op::Touch { page, n } | Op::Read { page, n, .. } => {
                let faults_before = self.stats.page_faults;
                let cost = self.touch(cpu, mm, page, n);
                let faults = self.stats.page_faults - faults_before;
                // A read fault of a file mapping also looks the folio up in the page cache.
                let cost = match op {
                    Op::Read { from, .. } => cost.saturating_add(
                        (self.cfg.costs.page.read_fault_extra_ns(from)).saturating_mul(faults),
                    ),
                    _ => cost,
                };
                let allocs = if matches!(op, Op::Touch { .. }) {
                    faults
                } else {
                    0
                };
                let wait = self.wait_for_locks(t, cpu, mm, |_| LockWork {
                    faults,
                    allocs,
                    ..LockWork::default()
                });
                self.step(t, cost.saturating_add(wait), true, Cont::NextOp);
            }
            Op::Madvise { page, n }
            | Op::Munmap { page, n }
            | Op::Mprotect { page, n }
            | Op::Cow { page, n, .. } => {
                let freed = matches!(op, Op::Munmap { .. });
                let keep_present = matches!(op, Op::Mprotect { .. } | Op::Cow { .. });
                let cost = if let Op::Cow { from, .. } = op {
                    // The write fault, then a copy (or, of the zero page, a zero-filled page)
                    // for each page, then `ptep_clear_flush`.
                    let new_page = costs
                        .page
                        .write_fault_page_ns(from, costs.arm64.copy_page_ns);
                    costs.page_fault_ns.saturating_add(
                        (new_page.saturating_add(costs.zap_pte_ns)).saturating_mul(n as u64),
                    )
                } else {
                    costs
                        .syscall_ns
                        .saturating_add(mul_sat(costs.zap_pte_ns, n as u64))
                };
                let work = |w: &World| LockWork {
                    // A copy-on-write fault is a fault, not a call.
                    calls: !matches!(op, Op::Cow { .. }) as u64,
                    vma_call: matches!(op, Op::Madvise { .. }),
                    frees: if matches!(op, Op::Madvise { .. } | Op::Munmap { .. }) {
                        w.present_pages(mm, page, n)
                    } else {
                        0
                    },
                    faults: matches!(op, Op::Cow { .. }) as u64,
                    allocs: if matches!(op, Op::Cow { .. }) {
                        n as u64
                    } else {
                        0
                    },
                };
                let cost = cost.saturating_add(self.wait_for_locks(t, cpu, mm, work));
                let arch = self.arch;
                // The syscall (or the write fault) is one trip into the kernel and back.
                let cost = cost.saturating_add(arch.kernel_entry(self, cpu));
                arch.prepare_flush(self, t, page, n, freed);
                if let Some(f) = self.tasks[t.index()].flush.as_mut() {
                    f.keep_present = keep_present;
                }
                self.step(t, cost, true, Cont::Flush(FlushPhase::Begin));
            }
            Op::CpuId(n) => {
                let cost = self.arch.smp_processor_id_cost(self, n);
                self.step(t, cost, true, Cont::NextOp);
            }
            Op::ThisCpuInc => {
                let arch = self.arch;
                arch.this_cpu_inc(self, t);
            }
            Op::Spin(Some(d)) => self.step(t, d, true, Cont::NextOp),
            Op::Spin(None) => self.spin_wait(t, true, Cont::Start),
            Op::Cli => {
                self.cli(cpu);
                self.step(t, 0, false, Cont::NextOp);
            }
            Op::Sti => {
                self.sti(cpu);
                self.step(t, 0, true, Cont::NextOp);
            }
            Op::IrqsOff(d) => {
                let d = match d {
                    Dur::Fixed(d) => d,
                    Dur::Rand => self.draw_irqs_off(),
                };
                self.cli(cpu);
                self.step(t, d, false, Cont::StiThenNext);
            }
            Op::MaybeIrqsOff => {
                let p = self.cfg.workload.irqs_off_probability;
                if p > 0.0 && self.rng.chance(p) {
                    let d = self.draw_irqs_off();
                    self.cli(cpu);
                    self.step(t, d, false, Cont::StiThenNext);
                } else {
                    self.step(t, 0, true, Cont::NextOp);
                }
            }
            Op::Sleep(d) => self.block_until(t, now.saturating_add(d)),
            Op::At(at) => {
                if at <= now {
                    self.step(t, 0, true, Cont::NextOp);
                } else {
                    self.block_until(t, at);
                }
            }
            Op::Pace(d) => {
                if task.measure {
                    let lat = now.saturating_sub(task.iter_start);
                    self.stats.op_latency.push(lat as f64);
                    self.tasks[t.index()].measured = true;
                }
                let until = self.tasks[t.index()].iter_start.saturating_add(d);
                self.step(t, until.saturating_sub(now), true, Cont::NextOp);
            }
            Op::Speculate => {
                let arch = self.arch;
                arch.speculative_walk(self, cpu);
                self.step(t, 0, true, Cont::NextOp);
            }
            Op::Migrate(to) => {
                let to = CpuId(to.min(self.cfg.cpus.saturating_sub(1)));
                if to == cpu {
                    self.step(t, 0, true, Cont::NextOp);
                } else {
                    let task = &mut self.tasks[t.index()];
                    if !task.allowed.contains(&to) {
                        task.allowed.push(to);
                    }
                    task.cont = Cont::NextOp;
                    task.remaining = None;
                    self.deschedule(t, TaskState::Runnable);
                    let f = Fields {
                        mm,
                        arg: t.0 as u64,
                        ..Fields::default()
                    };
                    self.trace.instant(now, to, EventKind::TaskMigrated, f);
                    self.tasks[t.index()].cpu = to;
                    self.cpus[to.index()].rq.push(t);
                    self.schedule(to);
                }
            }
            Op::Yield => {
                let prio = task.prio;
                let other = self.cpus[cpu.index()]
                    .rq
                    .iter()
                    .any(|&o| self.tasks[o.index()].prio >= prio);
                if other {
                    self.tasks[t.index()].cont = Cont::NextOp;
                    self.tasks[t.index()].remaining = None;
                    self.deschedule(t, TaskState::Runnable);
                    self.cpus[cpu.index()].rq.push(t);
                    self.schedule(cpu);
                } else {
                    self.step(t, 0, true, Cont::NextOp);
                }
            }
        }
    }

    /// Queues task `t` on the shared locks `work` takes (`design.locks`); returns its wait.
    /// Without lock modelling the work is not even counted (the bench runs without).
    #[inline]
    fn wait_for_locks(
        &mut self,
        t: TaskId,
        cpu: CpuId,
        mm: MmId,
        work: impl FnOnce(&World) -> LockWork,
    ) -> Ns {
        let mode = self.cfg.design.locks;
        if mode == LockMode::Off {
            return 0;
        }
        let work = work(self);
        let now = self.now();
        let costs = &self.cfg.costs.locks;
        self.locks.run(mode, costs, now, cpu, mm, t, work)
    }

    /// Pages of `[page, page + n)` of `mm` that are mapped (what a zap frees).
    fn present_pages(&self, mm: MmId, page: u32, n: u32) -> u64 {
        let Some(m) = self.mms.get(mm.0 as usize) else {
            return 0;
        };
        let end = (page as usize + n as usize).min(m.pages.len());
        let start = (page as usize).min(end);
        m.pages[start..end].iter().filter(|p| p.present).count() as u64
    }

    fn block_until(&mut self, t: TaskId, at: Ns) {
        self.tasks[t.index()].cont = Cont::NextOp;
        self.tasks[t.index()].remaining = None;
        self.deschedule(t, TaskState::Blocked);
        let epoch = self.tasks[t.index()].epoch;
        self.queue.at(at, Ev::wake(t.0, epoch));
    }

    /// `local_irq_disable()`.
    pub fn cli(&mut self, cpu: CpuId) {
        let now = self.now();
        let c = &mut self.cpus[cpu.index()];
        c.irqs_off += 1;
        if c.irqs_off == 1 {
            let row = self
                .trace
                .begin(now, cpu, EventKind::IrqsOff, Fields::default());
            self.cpus[cpu.index()].irqs_off_row = Some(row);
        }
    }

    /// `local_irq_enable()`: a pending IPI is taken now; then a pending reschedule.
    pub fn sti(&mut self, cpu: CpuId) {
        let now = self.now();
        let c = &mut self.cpus[cpu.index()];
        if c.irqs_off == 0 {
            return;
        }
        c.irqs_off -= 1;
        if c.irqs_off == 0 {
            if let Some(r) = c.irqs_off_row.take() {
                self.trace.end(r, now);
            }
            self.irqs_back_on(cpu);
            self.check_resched(cpu);
        }
    }

    /// One interrupts-off window length from the workload's distribution.
    fn draw_irqs_off(&mut self) -> Ns {
        let w = &self.cfg.workload;
        let max = w.irqs_off_max_ns.max(1);
        let mean = w.irqs_off_mean_ns.max(1) as f64;
        let d = match w.irqs_off_dist {
            Dist::Uniform => return self.rng.range_u64(1, max),
            Dist::Exp => -mean * crate::rng::ln(1.0 - self.rng.next_f64()),
            // Pareto with α = 2: x_min / sqrt(u), mean 2·x_min. sqrt is exact in IEEE 754,
            // so native and wasm draw identical values.
            Dist::Pareto => (mean / 2.0) / (1.0 - self.rng.next_f64()).sqrt(),
        };
        (d.max(1.0) as u64).min(max)
    }

    /// The kernel's own accesses on a switch to a user task: `costs.kernel_pages` global
    /// translations (see `Costs::kernel_pages`), looked up in the CPU's TLB and refilled on a
    /// miss. Misses count as TLB misses (the seed's dTLB-miss counter sees kernel walks too).
    /// Returns the time taken.
    pub fn touch_kernel(&mut self, cpu: CpuId) -> Ns {
        let costs = &self.cfg.costs;
        // scenario::parse bounds kernel_pages; the min keeps kernel_vpn in range regardless.
        let n = costs.kernel_pages.min(MAX_KERNEL_PAGES);
        let (hit_ps, refill_ns) = (costs.tlb_hit_ps, costs.tlb_refill_ns);
        if n == 0 {
            return 0;
        }
        let tag = self.arch.kernel_tag(self, cpu);
        let tlb = &mut self.cpus[cpu.index()].tlb;
        let mut misses = 0u64;
        let mut first_miss = None;
        for i in 0..n {
            let vpn = kernel_vpn(i);
            let hit = match tag {
                None => tlb.touch_global(vpn),
                // Not global (x86 PTI): tagged like user entries, flushed with their tag.
                Some(tag) => {
                    let hit = tlb.lookup(tag, vpn).is_some();
                    if !hit {
                        tlb.fill(tag, MmId::INIT_MM, vpn, 0);
                    }
                    hit
                }
            };
            if !hit {
                misses += 1;
                first_miss.get_or_insert(i);
            }
        }
        let hits = n - misses;
        if misses > 0 {
            self.count_tlb_misses(misses);
            let f = Fields {
                mm: MmId::INIT_MM,
                addr: KERNEL_BASE + first_miss.unwrap_or(0) * 4096,
                arg: misses,
                ..Fields::default()
            };
            self.trace.instant(self.now(), cpu, EventKind::TlbMissed, f);
        }
        mul_sat(misses, refill_ns).saturating_add(mul_sat(hits, hit_ps).saturating_add(500) / 1000)
    }

    /// User accesses to `n` pages: TLB lookups (a stale hit is checked against the page
    /// table), page walks on misses, faults on non-present pages. Returns the time taken.
    fn touch(&mut self, cpu: CpuId, mm: MmId, page: u32, n: u32) -> Ns {
        if mm == MmId::INIT_MM || mm.0 as usize >= self.mms.len() {
            return 0;
        }
        let now = self.now();
        let arch = self.arch;
        let tag = arch.user_tag(self, cpu);
        let costs = &self.cfg.costs;
        let (hit_ps, refill_ns, fault_ns) =
            (costs.tlb_hit_ps, costs.tlb_refill_ns, costs.page_fault_ns);
        let mut cost: Ns = 0;
        let mut hits = 0u64;
        let mut misses = 0u64;
        let mut first_miss = None;
        let end = (page as usize + n as usize).min(self.mms[mm.0 as usize].pages.len());
        for vpn in page as usize..end {
            let vpn = vpn as u32;
            let p = self.mms[mm.0 as usize].pages[vpn as usize];
            let set = self.cpus[cpu.index()].tlb.set_of(tag, vpn);
            let version = match self.cpus[cpu.index()].tlb.lookup_in(set, tag, vpn) {
                Some(e) => {
                    hits += 1;
                    let entry = *e;
                    if (entry.version < p.version || entry.mm != mm)
                        && !entry.reported()
                        && invariants::check_translation_use(self, cpu, mm, vpn, entry)
                    {
                        if let Some(e) = self.cpus[cpu.index()].tlb.lookup(tag, vpn) {
                            crate::tlb::Tlb::mark_reported(e);
                        }
                    }
                    entry.version
                }
                None => {
                    misses += 1;
                    first_miss.get_or_insert(vpn);
                    cost += refill_ns;
                    let pg = &mut self.mms[mm.0 as usize].pages[vpn as usize];
                    let fault = !pg.present;
                    pg.present = true;
                    let version = pg.version;
                    if fault {
                        // The fault's trip into the kernel comes before the retried walk.
                        cost += fault_ns + arch.kernel_entry(self, cpu);
                        self.stats.page_faults += 1;
                    }
                    self.cpus[cpu.index()]
                        .tlb
                        .fill_in(set, tag, mm, vpn, version);
                    version
                }
            };
            if let Some(log) = &mut self.accesses {
                log.push(Access {
                    time: now,
                    cpu,
                    mm,
                    vpn,
                    version,
                });
            }
        }
        cost += mul_sat(hits, hit_ps).saturating_add(500) / 1000;
        if misses > 0 {
            self.count_tlb_misses(misses);
            let f = Fields {
                mm,
                addr: USER_BASE + first_miss.unwrap_or(0) as u64 * 4096,
                arg: misses,
                asid: tag,
                ..Fields::default()
            };
            self.trace.instant(now, cpu, EventKind::TlbMissed, f);
        }
        cost
    }
}

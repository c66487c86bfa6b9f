//! `preempt_disable()` / `preempt_enable()` with their `PreemptCountOp` rows and the
//! `PreemptOff` span of each window: generic, used wherever a path pins the task to its CPU
//! (arm64's `get_cpu()` in a flush, its `this_cpu_*` ops).

use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns};
use crate::machine::World;
use crate::trace::Fields;

impl World {
    /// `preempt_disable()` (`get_cpu()`): count + trace.
    pub fn preempt_disable(&mut self, cpu: CpuId, mm: MmId) {
        let now = self.now();
        let c = &mut self.cpus[cpu.index()];
        c.preempt_count += 1;
        let count = c.preempt_count;
        let f = Fields {
            mm,
            arg: count as u64,
            ..Fields::default()
        };
        self.trace.instant(now, cpu, EventKind::PreemptCountOp, f);
        if count == 1 {
            let row = self.trace.begin(now, cpu, EventKind::PreemptOff, f);
            self.cpus[cpu.index()].preempt_off_row = Some((row, now));
        }
    }

    /// `preempt_enable()` without the reschedule check (the caller reaches a preemption point
    /// next). Returns how long preemption was off if this closed the window.
    pub fn preempt_enable_no_resched(&mut self, cpu: CpuId) -> Option<Ns> {
        let now = self.now();
        let c = &mut self.cpus[cpu.index()];
        if c.preempt_count == 0 {
            return None;
        }
        c.preempt_count -= 1;
        let count = c.preempt_count;
        let f = Fields {
            arg: count as u64,
            ..Fields::default()
        };
        self.trace.instant(now, cpu, EventKind::PreemptCountOp, f);
        if count > 0 {
            return None;
        }
        let (row, start) = self.cpus[cpu.index()].preempt_off_row.take()?;
        self.trace.end(row, now);
        Some(now.saturating_sub(start))
    }

    /// `preempt_enable()`: closes the window and takes a pending reschedule.
    pub fn preempt_enable(&mut self, cpu: CpuId) {
        self.preempt_enable_no_resched(cpu);
        self.check_resched(cpu);
    }
}

//! The scheduler: per-CPU run queues with priorities, wakeups, preemption where it is
//! enabled, migration of preempted tasks to idle CPUs they may run on, and context switches
//! (which call the arch's `switch_mm` or, for kernel threads and idle, `enter_lazy_tlb`).
//!
//! No time slicing: equal-priority tasks run until they block, yield or finish. A
//! higher-priority wakeup preempts at once if the CPU is preemptible, else at the next
//! `preempt_enable`/`sti`/handler exit — the gap is the wakeup latency the issue measures.

use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::machine::{Arch as _, Ev, World};
use crate::task::{Cont, TaskState};
use crate::trace::Fields;

impl World {
    /// Schedules the completion of the task's current step `cost` from now.
    #[inline(always)]
    pub fn step(&mut self, t: TaskId, cost: Ns, preemptible: bool, cont: Cont) {
        let now = self.now();
        let task = &mut self.tasks[t.index()];
        task.epoch = task.epoch.wrapping_add(1);
        task.cont = cont;
        task.preemptible = preemptible;
        let at = now.saturating_add(cost);
        task.deadline = Some(at);
        let ev = Ev::step(t.0, task.epoch);
        self.queue.at(at, ev);
        if preemptible {
            let cpu = task.cpu;
            self.check_resched(cpu);
        }
    }

    /// The task spins (on a csd) or waits with no timed step; `cont` runs when it is woken
    /// by an unlock or switched back in.
    pub fn spin_wait(&mut self, t: TaskId, preemptible: bool, cont: Cont) {
        let task = &mut self.tasks[t.index()];
        task.epoch = task.epoch.wrapping_add(1);
        task.deadline = None;
        task.cont = cont;
        task.preemptible = preemptible;
        if preemptible {
            let cpu = task.cpu;
            self.check_resched(cpu);
        }
    }

    /// A timed step finished: run its continuation.
    // A dispatch with one caller (the event loop, for over half of all events): the wasm build
    // left it out of line, a call per step that Node 20's V8 does not inline.
    #[inline(always)]
    pub fn step_done(&mut self, t: TaskId) {
        let task = &mut self.tasks[t.index()];
        task.deadline = None;
        // One site for `next_op`, which is inlined here.
        match task.cont {
            Cont::Start => return self.start_op(t),
            Cont::NextOp => {}
            Cont::StiThenNext => {
                let cpu = task.cpu;
                self.sti(cpu);
            }
            Cont::PreemptEnableThenNext => {
                let cpu = task.cpu;
                self.preempt_enable(cpu);
            }
            Cont::Flush(phase) => {
                let arch = self.arch;
                return arch.flush_step(self, t, phase);
            }
        }
        self.next_op(t);
    }

    /// A blocked task becomes runnable (timer, start time).
    pub fn wake(&mut self, t: TaskId) {
        let now = self.now();
        let task = &mut self.tasks[t.index()];
        task.state = TaskState::Runnable;
        let (prio, mm) = (task.prio, task.mm);
        if prio > 0 {
            task.woken_at = Some(now);
        }
        let cpu = self.select_cpu(t);
        self.tasks[t.index()].cpu = cpu;
        if prio > 0 {
            let f = Fields {
                mm,
                arg: t.0 as u64,
                ..Fields::default()
            };
            self.trace.instant(now, cpu, EventKind::TaskWoken, f);
        }
        self.cpus[cpu.index()].rq.push(t);
        match self.cpus[cpu.index()].curr {
            None => self.schedule(cpu),
            Some(curr) if self.tasks[curr.index()].prio < prio => {
                self.cpus[cpu.index()].need_resched = true;
                self.check_resched(cpu);
            }
            Some(_) => {}
        }
    }

    /// The task's last CPU if it is free enough, else an idle CPU it may run on.
    fn select_cpu(&self, t: TaskId) -> CpuId {
        let task = &self.tasks[t.index()];
        let last = task.cpu;
        let busy = |c: CpuId| self.cpus[c.index()].curr.is_some();
        if !busy(last) || task.allowed.len() <= 1 {
            return last;
        }
        task.allowed
            .iter()
            .copied()
            .find(|&c| !busy(c) && self.cpus[c.index()].rq.is_empty())
            .unwrap_or(last)
    }

    /// Preemption point: preempt now if a reschedule is pending and the CPU allows it.
    // Inline, so that the common case (nothing pending) is one test at each of the many
    // preemption points rather than a call.
    #[inline]
    pub fn check_resched(&mut self, cpu: CpuId) {
        if self.cpus[cpu.index()].need_resched {
            self.resched_pending(cpu);
        }
    }

    /// `check_resched` with a reschedule pending.
    #[inline(never)]
    fn resched_pending(&mut self, cpu: CpuId) {
        let c = &self.cpus[cpu.index()];
        if c.preempt_count > 0 || !c.irqs_enabled() {
            return;
        }
        match c.curr {
            Some(t) if self.tasks[t.index()].preemptible => self.preempt(cpu),
            Some(_) => {}
            None => {
                self.cpus[cpu.index()].need_resched = false;
                self.schedule(cpu);
            }
        }
    }

    fn preempt(&mut self, cpu: CpuId) {
        let now = self.now();
        let Some(t) = self.cpus[cpu.index()].curr.take() else {
            return;
        };
        self.cpus[cpu.index()].need_resched = false;
        let task = &mut self.tasks[t.index()];
        task.epoch = task.epoch.wrapping_add(1);
        task.remaining = task.deadline.take().map(|d| d.saturating_sub(now));
        task.state = TaskState::Runnable;
        let mm = task.mm;
        if let Some(r) = self.cpus[cpu.index()].run_row.take() {
            self.trace.end(r, now);
        }
        let f = Fields {
            mm,
            arg: t.0 as u64,
            ..Fields::default()
        };
        self.trace.instant(now, cpu, EventKind::TaskPreempted, f);
        // Prefer an idle CPU the task may run on; otherwise it waits at the head of the queue.
        // (The checker decides instead: the task waits, and moving it is a choice.)
        let idle = self.tasks[t.index()]
            .allowed
            .iter()
            .copied()
            .find(|&c| c != cpu && self.cpus[c.index()].curr.is_none())
            .filter(|_| !self.migration_choices);
        match idle {
            Some(to) => {
                self.tasks[t.index()].cpu = to;
                self.trace.instant(now, to, EventKind::TaskMigrated, f);
                self.cpus[to.index()].rq.push(t);
                self.schedule(to);
            }
            None => self.cpus[cpu.index()].rq.insert(0, t),
        }
        self.schedule(cpu);
    }

    /// The load balancer moves queued task `t` to `to` (one of its allowed CPUs), which runs
    /// it at once if idle and preempts a lower-priority task as a wakeup would. False if `t`
    /// is not queued or may not run there.
    pub fn migrate_queued(&mut self, t: TaskId, to: CpuId) -> bool {
        let now = self.now();
        let Some(task) = self.tasks.get(t.index()) else {
            return false;
        };
        let from = task.cpu;
        if task.state != TaskState::Runnable || !task.allowed.contains(&to) || to == from {
            return false;
        }
        let Some(i) = self.cpus[from.index()].rq.iter().position(|&x| x == t) else {
            return false;
        };
        self.cpus[from.index()].rq.remove(i);
        let (prio, mm) = (task.prio, task.mm);
        self.tasks[t.index()].cpu = to;
        let f = Fields {
            mm,
            arg: t.0 as u64,
            ..Fields::default()
        };
        self.trace.instant(now, to, EventKind::TaskMigrated, f);
        self.cpus[to.index()].rq.push(t);
        match self.cpus[to.index()].curr {
            None => self.schedule(to),
            Some(curr) if self.tasks[curr.index()].prio < prio => {
                self.cpus[to.index()].need_resched = true;
                self.check_resched(to);
            }
            Some(_) => {}
        }
        true
    }

    /// Picks the next task for an idle CPU (highest priority, FIFO among equals) or idles.
    pub fn schedule(&mut self, cpu: CpuId) {
        let c = &mut self.cpus[cpu.index()];
        if c.curr.is_some() {
            return;
        }
        let tasks = &self.tasks;
        let best =
            c.rq.iter()
                .enumerate()
                .max_by_key(|&(i, &t)| (tasks[t.index()].prio, std::cmp::Reverse(i)))
                .map(|(i, _)| i);
        match best {
            Some(i) => {
                let t = c.rq.remove(i);
                self.switch_to(cpu, t);
            }
            None => {
                let arch = self.arch;
                arch.enter_lazy_tlb(self, cpu);
            }
        }
    }

    fn switch_to(&mut self, cpu: CpuId, t: TaskId) {
        let now = self.now();
        self.cpus[cpu.index()].curr = Some(t);
        let mm = self.tasks[t.index()].mm;
        let arch = self.arch;
        let mm_cost = if mm == MmId::INIT_MM {
            arch.enter_lazy_tlb(self, cpu);
            0
        } else {
            arch.switch_mm(self, cpu, mm)
        };
        let cost = self.cfg.costs.context_switch_ns.saturating_add(mm_cost);
        let f = Fields {
            mm,
            arg: t.0 as u64,
            ..Fields::default()
        };
        let row = self.trace.begin(now, cpu, EventKind::TaskRun, f);
        self.cpus[cpu.index()].run_row = Some(row);
        let task = &mut self.tasks[t.index()];
        task.state = TaskState::Running;
        task.cpu = cpu;
        if let Some(w) = task.woken_at.take() {
            let lat = now.saturating_add(cost).saturating_sub(w);
            self.stats.wakeup_latency.push(lat as f64);
        }
        let rest = task.remaining.take().unwrap_or(0);
        let (pre, cont) = (task.preemptible, task.cont);
        // A task that was spinning on a csd re-polls it once it runs again.
        self.step(t, cost.saturating_add(rest), pre, cont);
    }

    /// The running task stops running on its CPU (blocks, finishes or migrates away).
    pub fn deschedule(&mut self, t: TaskId, state: TaskState) {
        let now = self.now();
        let task = &mut self.tasks[t.index()];
        task.state = state;
        task.epoch = task.epoch.wrapping_add(1);
        task.deadline = None;
        let cpu = task.cpu;
        let c = &mut self.cpus[cpu.index()];
        if c.curr == Some(t) {
            c.curr = None;
            if let Some(r) = c.run_row.take() {
                self.trace.end(r, now);
            }
            self.schedule(cpu);
        }
    }
}

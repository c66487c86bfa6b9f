//! The simulated system (`World`) for the walking skeleton: N CPUs all running threads of one
//! mm; one initiator repeatedly unmaps a range and shoots down the other CPUs' TLBs the way
//! pre-2026 x86 does (kernel-mechanics.md §4.1):
//!
//! initiator: get_cpu → inc_mm_tlb_gen → csd_lock + enqueue + IPI per target → local
//! flush_tlb_func → csd_lock_wait on each target → put_cpu.
//! target: IPI pending while IRQs are off → handler → flush_tlb_func → csd unlock (SYNC ack).
//!
//! Richer state (TLBs, PCID slots, lazy mode, scheduler) arrives with the full x86 model.

use crate::config::{Config, Preempt};
use crate::engine::Queue;
use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns, TlbGen};
use crate::rng::Rng;
use crate::trace::{Fields, Row, Trace};

const USER_MM: MmId = MmId(1);

#[derive(Debug)]
enum Ev {
    /// The initiator enters `flush_tlb_mm_range()` for flush number `k`.
    FlushStarted { k: u32 },
    /// The initiator queues a csd for `target` and writes the ICR.
    IpiQueued { target: CpuId },
    /// The IPI reached `target`'s APIC.
    IpiArrived { target: CpuId, sent: Row },
    /// `target` re-enabled interrupts; `row` is its IrqsOff span.
    IrqsOn { row: Row },
    /// `target` entered the call-function interrupt handler.
    HandlerEntered { target: CpuId, sent: Row },
    /// `flush_tlb_func` started / finished inside the handler.
    FuncStarted { target: CpuId, handler: Row },
    FuncDone {
        target: CpuId,
        handler: Row,
        func: Row,
    },
    /// `target`'s handler finished and unlocked the csd.
    HandlerDone { target: CpuId, handler: Row },
    /// The initiator runs its own `flush_tlb_func` after dispatch.
    LocalFuncStarted,
    /// The initiator's local `flush_tlb_func` finished; it starts polling csds.
    LocalFlushDone { func: Row },
    /// The initiator's poll loop observed the last unlock.
    WaitDone,
}

/// The state of an in-flight shootdown on the initiator.
#[derive(Debug, Default)]
struct Flight {
    flush: Option<Row>,
    preempt_off: Option<Row>,
    wait: Option<Row>,
    pending_acks: u32,
    local_done: bool,
    new_gen: TlbGen,
    k: u32,
    started: Ns,
}

pub struct World {
    pub cfg: Config,
    pub trace: Trace,
    queue: Queue<Ev>,
    rng: Rng,
    tlb_gen: TlbGen,
    flight: Flight,
    task_rows: Vec<Row>,
    events: u64,
}

impl World {
    pub fn new(cfg: Config, seed: u64) -> Self {
        let mut w = World {
            trace: Trace::default(),
            queue: Queue::default(),
            rng: Rng::new(seed),
            tlb_gen: TlbGen(1),
            flight: Flight::default(),
            task_rows: Vec::new(),
            events: 0,
            cfg,
        };
        for c in 0..w.cfg.cpus {
            let f = Fields {
                mm: USER_MM,
                arg: c as u64,
                ..Fields::default()
            };
            let row = w.trace.begin(0, CpuId(c), EventKind::TaskRun, f);
            w.task_rows.push(row);
        }
        if w.cfg.workload.flushes > 0 {
            w.queue.at(0, Ev::FlushStarted { k: 0 });
        }
        w
    }

    /// Simulated events processed so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn now(&self) -> Ns {
        self.queue.now()
    }

    pub fn is_done(&self) -> bool {
        self.queue.is_empty()
    }

    /// Processes up to `budget` events; returns true when the run is complete.
    pub fn run_for(&mut self, budget: u64) -> bool {
        for _ in 0..budget {
            match self.queue.pop() {
                Some(ev) => {
                    self.events += 1;
                    self.handle(ev);
                }
                None => break,
            }
        }
        if self.queue.is_empty() {
            let end = self.queue.now();
            for &r in &self.task_rows {
                self.trace.end(r, end);
            }
            self.trace.close_all(end);
            true
        } else {
            false
        }
    }

    /// Runs to completion.
    pub fn run(&mut self) {
        while !self.run_for(1 << 16) {}
    }

    fn initiator(&self) -> CpuId {
        self.cfg.workload.initiator
    }

    fn targets(&self) -> impl Iterator<Item = CpuId> {
        let me = self.initiator();
        (0..self.cfg.cpus).map(CpuId).filter(move |&c| c != me)
    }

    fn flush_fields(&self) -> Fields {
        Fields {
            mm: USER_MM,
            gen: self.flight.new_gen.0,
            addr: 0x1000,
            arg: self.cfg.workload.pages as u64,
            ..Fields::default()
        }
    }

    fn handle(&mut self, ev: Ev) {
        let now = self.queue.now();
        let me = self.initiator();
        let costs = self.cfg.costs.clone();
        match ev {
            Ev::FlushStarted { k } => {
                let f = Fields {
                    mm: USER_MM,
                    ..Fields::default()
                };
                self.flight = Flight::default();
                self.flight.preempt_off = Some(self.trace.begin(now, me, EventKind::PreemptOff, f));
                self.tlb_gen = TlbGen(self.tlb_gen.0 + 1);
                self.flight.new_gen = self.tlb_gen;
                let ff = self.flush_fields();
                let flush = self.trace.begin(now, me, EventKind::FlushRange, ff);
                self.flight.flush = Some(flush);
                let gen_fields = Fields {
                    parent: Some(flush),
                    ..ff
                };
                self.trace
                    .instant(now, me, EventKind::TlbGenIncremented, gen_fields);
                let mut t = now;
                let targets: Vec<CpuId> = self.targets().collect();
                for target in targets {
                    t += costs.ipi_send_ns;
                    self.flight.pending_acks += 1;
                    self.queue.at(t, Ev::IpiQueued { target });
                }
                // The local flush runs after the IPIs are out, so it overlaps the remote ones
                // (a32a4d8a815c).
                self.queue.at(t, Ev::LocalFuncStarted);
                self.flight.k = k;
                self.flight.started = now;
            }
            Ev::IpiQueued { target } => {
                let f = Fields {
                    arg: target.0 as u64,
                    parent: self.flight.flush,
                    ..self.flush_fields()
                };
                let sent = self.trace.instant(now, me, EventKind::IpiSent, f);
                self.queue
                    .after(costs.ipi_delivery_ns, Ev::IpiArrived { target, sent });
            }
            Ev::IpiArrived { target, sent } => {
                let w = &self.cfg.workload;
                let (p, max) = (w.irqs_off_probability, w.irqs_off_max_ns);
                // An IPI that lands while the target has IRQs off waits in the APIC for the
                // rest of that window.
                if p > 0.0 && self.rng.chance(p) {
                    let residual = self.rng.range_u64(1, max.max(1));
                    let r = self
                        .trace
                        .begin(now, target, EventKind::IrqsOff, Fields::default());
                    self.queue.after(residual, Ev::IrqsOn { row: r });
                    self.queue
                        .after(residual, Ev::HandlerEntered { target, sent });
                } else {
                    self.queue.at(now, Ev::HandlerEntered { target, sent });
                }
            }
            Ev::IrqsOn { row } => self.trace.end(row, now),
            Ev::HandlerEntered { target, sent } => {
                let f = Fields {
                    arg: me.0 as u64,
                    parent: Some(sent),
                    ..self.flush_fields()
                };
                let handler = self.trace.begin(now, target, EventKind::IpiHandler, f);
                self.queue.after(
                    costs.ipi_handler_ns / 2,
                    Ev::FuncStarted { target, handler },
                );
            }
            Ev::FuncStarted { target, handler } => {
                let f = Fields {
                    parent: Some(handler),
                    arg: 1,
                    ..self.flush_fields()
                };
                let func = self.trace.begin(now, target, EventKind::FlushTlbFunc, f);
                self.queue.after(
                    self.flush_cost(),
                    Ev::FuncDone {
                        target,
                        handler,
                        func,
                    },
                );
            }
            Ev::FuncDone {
                target,
                handler,
                func,
            } => {
                self.trace.end(func, now);
                let rest = costs.ipi_handler_ns - costs.ipi_handler_ns / 2;
                self.queue.after(rest, Ev::HandlerDone { target, handler });
            }
            Ev::HandlerDone { target, handler } => {
                self.trace.end(handler, now);
                let f = Fields {
                    arg: me.0 as u64,
                    parent: Some(handler),
                    ..self.flush_fields()
                };
                self.trace.instant(now, target, EventKind::CsdUnlocked, f);
                self.flight.pending_acks -= 1;
                self.maybe_finish_wait();
            }
            Ev::LocalFuncStarted => {
                let f = Fields {
                    parent: self.flight.flush,
                    arg: 1,
                    ..self.flush_fields()
                };
                let func = self.trace.begin(now, me, EventKind::FlushTlbFunc, f);
                self.queue
                    .after(self.flush_cost(), Ev::LocalFlushDone { func });
            }
            Ev::LocalFlushDone { func } => {
                self.trace.end(func, now);
                self.flight.local_done = true;
                let wf = Fields {
                    parent: self.flight.flush,
                    ..self.flush_fields()
                };
                if self.cfg.preempt == Preempt::PreemptibleWait {
                    if let Some(r) = self.flight.preempt_off.take() {
                        self.trace.end(r, now);
                    }
                }
                self.flight.wait = Some(self.trace.begin(now, me, EventKind::IpiWait, wf));
                self.maybe_finish_wait();
            }
            Ev::WaitDone => {
                for r in [
                    self.flight.wait.take(),
                    self.flight.flush.take(),
                    self.flight.preempt_off.take(),
                ]
                .into_iter()
                .flatten()
                {
                    self.trace.end(r, now);
                }
                // The initiator is busy inside the flush until it returns, so the next one
                // starts a period after this one started, or right away if this one overran.
                let k = self.flight.k + 1;
                if k < self.cfg.workload.flushes {
                    let next = (self.flight.started + self.cfg.workload.period_ns).max(now);
                    self.queue.at(next, Ev::FlushStarted { k });
                }
            }
        }
    }

    fn maybe_finish_wait(&mut self) {
        if self.flight.local_done && self.flight.pending_acks == 0 && self.flight.wait.is_some() {
            // The initiator notices the last unlock on its next poll of the csd line.
            self.queue.after(self.cfg.costs.csd_poll_ns, Ev::WaitDone);
        }
    }

    /// INVLPG per page up to the ceiling, else one full flush (the 33-page rule).
    fn flush_cost(&self) -> Ns {
        let pages = self.cfg.workload.pages as u64;
        if pages > 33 {
            self.cfg.costs.full_flush_ns
        } else {
            pages * self.cfg.costs.invlpg_ns
        }
    }
}

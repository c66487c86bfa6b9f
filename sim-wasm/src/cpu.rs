//! Per-CPU state every architecture shares: the hardware (TLB, local APIC pending bit), the
//! interrupt/preemption state, the scheduler's run queue, and the call-function queue of
//! cross-call requests. What an architecture keeps per CPU (x86 `cpu_tlbstate`, arm64's
//! TTBR0) is in its folder under `arch/`.

use crate::ids::{CpuId, Ns, TaskId};
use crate::tlb::Tlb;
use crate::trace::Row;

/// A queued cross-call request: the csd of (sender, this CPU).
#[derive(Clone, Copy, Debug)]
pub struct Request {
    pub sender: CpuId,
    /// The `IpiSent` row of the IPI that announced it (or of the one it piggy-backed on).
    pub sent: Row,
}

/// The call-function interrupt handler's progress on a CPU; meaningful only while the CPU's
/// `handler` row is set. Kept in the CPU apart from that row, so `handler_next`, which takes
/// only the row out around `csd_unlock` and `call_func`, updates it in place.
#[derive(Clone, Copy, Debug, Default)]
pub struct Handler {
    pub started: Ns,
    /// The next of `irq_items` to run.
    pub next: u32,
    /// The sender of the request being run, whose csd is unlocked when it returns.
    pub func: Option<CpuId>,
    pub exiting: bool,
}

#[derive(Debug)]
pub struct Cpu {
    pub id: CpuId,
    pub tlb: Tlb,
    // --- scheduler ---
    pub curr: Option<TaskId>,
    pub rq: Vec<TaskId>,
    pub need_resched: bool,
    /// The mm of the last user task, which a kernel thread / idle borrows.
    pub preempt_count: u32,
    pub irqs_off: u32,
    // --- interrupts ---
    /// An IPI arrived while interrupts were off or a handler ran: the APIC holds it.
    pub ipi_pending: Option<Row>,
    pub call_queue: Vec<Request>,
    /// Who holds the line of `call_queue`'s head (`ipi::UNTOUCHED` before its first use):
    /// every sender's `llist_add` and the handler's `llist_del_all` write it.
    pub queue_line: u16,
    /// The `IpiHandler` span of the handler in progress: set while in one (`in_irq`).
    pub handler: Option<Row>,
    pub hstate: Handler,
    /// Requests the handler detached from `call_queue` (`llist_del_all`), FIFO; empty outside
    /// a handler. The two vectors swap, so neither allocates again once both have grown.
    pub irq_items: Vec<Request>,
    // --- open trace spans ---
    pub run_row: Option<Row>,
    pub lazy_row: Option<Row>,
    pub irqs_off_row: Option<Row>,
    /// The open `PreemptOff` span of a `preempt_disable` window, and when it began.
    pub preempt_off_row: Option<(Row, Ns)>,
}

crate::clone_reusing::clone_reusing!(Cpu {
    id,
    tlb,
    curr,
    rq,
    need_resched,
    preempt_count,
    irqs_off,
    ipi_pending,
    call_queue,
    queue_line,
    handler,
    hstate,
    irq_items,
    run_row,
    lazy_row,
    irqs_off_row,
    preempt_off_row,
});

impl Cpu {
    pub fn new(id: CpuId, tlb: Tlb) -> Cpu {
        Cpu {
            id,
            tlb,
            curr: None,
            rq: Vec::new(),
            need_resched: false,
            preempt_count: 0,
            irqs_off: 0,
            ipi_pending: None,
            call_queue: Vec::new(),
            queue_line: crate::ipi::UNTOUCHED,
            handler: None,
            hstate: Handler::default(),
            irq_items: Vec::new(),
            run_row: None,
            lazy_row: None,
            irqs_off_row: None,
            preempt_off_row: None,
        }
    }

    pub fn in_irq(&self) -> bool {
        self.handler.is_some()
    }

    /// Interrupts can be taken now.
    pub fn irqs_enabled(&self) -> bool {
        self.irqs_off == 0 && self.handler.is_none()
    }
}

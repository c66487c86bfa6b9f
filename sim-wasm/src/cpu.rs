//! Per-CPU state: the hardware (TLB, local APIC pending bit), the x86 `cpu_tlbstate`
//! (loaded mm, ASID slots with their generations, lazy flag), the interrupt/preemption
//! state, the scheduler's run queue, and the call-function queue of cross-call requests.

use crate::ids::{CpuId, MmId, Ns, TaskId};
use crate::tlb::Tlb;
use crate::trace::Row;

/// `TLB_NR_DYN_ASIDS`: "6 should be plenty".
pub const NR_DYN_ASIDS: usize = 6;

/// One dynamic ASID slot: "the entries tagged with this slot's PCID are at least as fresh as
/// generation `tlb_gen` of mm `ctx_id`".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AsidSlot {
    pub ctx_id: u64,
    pub tlb_gen: u64,
}

/// `struct tlb_state` + `tlb_state_shared.is_lazy`.
#[derive(Clone, Debug)]
pub struct TlbState {
    pub loaded_mm: MmId,
    pub loaded_mm_asid: u16,
    pub next_asid: u16,
    pub ctxs: [AsidSlot; NR_DYN_ASIDS],
    pub is_lazy: bool,
}

/// A queued cross-call request: the csd of (sender, this CPU).
#[derive(Clone, Copy, Debug)]
pub struct Request {
    pub sender: CpuId,
    /// The `IpiSent` row of the IPI that announced it (or of the one it piggy-backed on).
    pub sent: Row,
}

/// The call-function interrupt handler in progress on a CPU.
#[derive(Clone, Debug, Default)]
pub struct Handler {
    pub row: Row,
    pub started: Ns,
    /// Requests detached from the queue (`llist_del_all`), FIFO.
    pub items: Vec<Request>,
    pub next: usize,
    /// The `FlushTlbFunc` span of the request being run, and its sender.
    pub func: Option<(Row, CpuId)>,
    pub exiting: bool,
}

#[derive(Clone, Debug)]
pub struct Cpu {
    pub id: CpuId,
    pub tlb: Tlb,
    pub tlbstate: TlbState,
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
    pub handler: Option<Handler>,
    // --- open trace spans ---
    pub run_row: Option<Row>,
    pub lazy_row: Option<Row>,
    pub irqs_off_row: Option<Row>,
}

impl Cpu {
    pub fn new(id: CpuId, tlb: Tlb) -> Cpu {
        Cpu {
            id,
            tlb,
            tlbstate: TlbState {
                loaded_mm: MmId::INIT_MM,
                loaded_mm_asid: 0,
                next_asid: 1,
                ctxs: [AsidSlot::default(); NR_DYN_ASIDS],
                is_lazy: false,
            },
            curr: None,
            rq: Vec::new(),
            need_resched: false,
            preempt_count: 0,
            irqs_off: 0,
            ipi_pending: None,
            call_queue: Vec::new(),
            handler: None,
            run_row: None,
            lazy_row: None,
            irqs_off_row: None,
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

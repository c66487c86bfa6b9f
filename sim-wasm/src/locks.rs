//! Shared kernel locks that stop multi-threaded shootdown benchmarks from scaling, modelled as
//! FIFO queues with service times (`design.locks`): the address space's `mmap_lock` (or the
//! VMA's own lock), the page allocator's zone lock and the LRU lock.
//!
//! A queue is a reservation: a request arriving at `at` starts when the previous holder is
//! done (`max(at, free_at)`) and holds the lock for its service time, so requests are served
//! strictly in the order they are made, which the event queue's `(time, seq)` order makes
//! deterministic. The requester is charged its wait and its own service time. An `mmap_lock`
//! or VMA lock's service is its count line moving in from another CPU: a CPU that held the
//! line last takes it again for free (its cost is inside `page_fault_ns` / `syscall_ns`), so
//! one thread alone runs as with `locks = off`. The zone and LRU locks' service is the batch
//! of pages moved while holding them, real work the presets' fault costs leave out.
//!
//! What takes which lock (per page faulted in or zapped, in the CPU's own count):
//! - every fault and every `madvise`/`munmap`/`mprotect`: the mm's `mmap_lock` for read, whose
//!   service is the rwsem count's cache line (`mmap_lock_ns`). Readers share the lock but not
//!   that line. With `per_vma`, faults and `madvise` take the VMA's lock instead (the calling
//!   thread's own region here, so it is never contended); `munmap` and `mprotect` still take
//!   `mmap_lock`.
//! - a fault that allocates (a write, not a `read` mapping the zero page): the zone lock once
//!   per `pcp_batch` allocations (the per-CPU free lists are refilled a batch at a time), the
//!   LRU lock once per `lru_batch` (new folios wait in a per-CPU batch before joining the LRU).
//! - a page `madvise`/`munmap` frees: the LRU lock once per `lru_batch` (the folio leaves the
//!   LRU) and the zone lock once per `pcp_batch` (the per-CPU list drains a batch back).
//!
//! Not modelled: writers of `mmap_lock` (an `mprotect` or `munmap` holds it exclusively for
//! the whole op here it is a read), a holder interrupted while it holds a lock, NUMA (one zone
//! and one LRU), spinning versus sleeping waiters (a wait is time lost either way).

use crate::ids::{CpuId, MmId, Ns, TaskId};

/// Which shared kernel locks the model queues on (`design.locks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockMode {
    /// No lock is modelled: threads never wait for one another outside the flush protocol.
    Off,
    /// Faults and `madvise` take the mm's `mmap_lock` for read (kernels before per-VMA locks).
    MmapLock,
    /// Faults and `madvise(MADV_DONTNEED)` take the VMA's own read lock (per-VMA locking).
    PerVma,
}

impl LockMode {
    /// The names the settings vocabulary spells, in the order errors list them, and the
    /// variants in the same order (as `config.rs`'s `names!` gives its enums).
    pub const NAMES: &'static [&'static str] = &["off", "mmap_lock", "per_vma"];
    pub const ALL: &'static [LockMode] = &[LockMode::Off, LockMode::MmapLock, LockMode::PerVma];
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Cost parameters of the lock model (`costs.<name>`; sources in `vocabulary::COSTS`).
#[derive(Clone, Debug, PartialEq)]
pub struct LockCosts {
    /// One read acquisition + release of `mmap_lock`: the rwsem count's line, held exclusively
    /// while its atomic add runs.
    pub mmap_lock_ns: u64,
    /// One page moved between the buddy lists and a per-CPU list under the zone lock.
    pub zone_lock_page_ns: u64,
    /// Pages per zone-lock acquisition (`pcp->batch`).
    pub pcp_batch: u64,
    /// One folio added to or removed from the LRU under the LRU lock.
    pub lru_lock_page_ns: u64,
    /// Folios per LRU-lock acquisition (the per-CPU folio batch).
    pub lru_batch: u64,
}

impl Default for LockCosts {
    fn default() -> Self {
        LockCosts {
            mmap_lock_ns: 100,
            zone_lock_page_ns: 15,
            pcp_batch: 63,
            lru_lock_page_ns: 20,
            lru_batch: 31,
        }
    }
}

/// The locks a run models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LockId {
    Mmap(MmId),
    Vma(TaskId),
    Zone,
    Lru,
}

/// One FIFO lock: when the last reservation ends, and the ends of those still pending (for
/// the queue length a newcomer sees).
#[derive(Clone, Debug, Default)]
pub struct LockQueue {
    free_at: Ns,
    pending: std::collections::VecDeque<Ns>,
    /// The CPU of the last reservation (where the lock's line is when it is free).
    last: Option<CpuId>,
}

impl LockQueue {
    /// A request arriving at `at` for `service` ns: returns its wait and how many requests
    /// were ahead of it.
    pub fn acquire(&mut self, at: Ns, service: Ns) -> (Ns, usize) {
        while self.pending.front().is_some_and(|&end| end <= at) {
            self.pending.pop_front();
        }
        let ahead = self.pending.len();
        let start = at.max(self.free_at);
        self.free_at = start.saturating_add(service);
        self.pending.push_back(self.free_at);
        (start - at, ahead)
    }

    /// A request by `cpu` whose service is moving the lock's line to it: free when `cpu` had
    /// the line last (no other CPU took it since). Returns the wait, the service and how many
    /// requests were ahead.
    pub fn acquire_line(&mut self, at: Ns, line_ns: Ns, cpu: CpuId) -> (Ns, Ns, usize) {
        let service = if self.last.is_none_or(|c| c == cpu) {
            0
        } else {
            line_ns
        };
        self.last = Some(cpu);
        let (wait, ahead) = self.acquire(at, service);
        (wait, service, ahead)
    }
}

/// Waits per lock, for the summary (every acquisition, waits of 0 included).
#[derive(Clone, Debug, Default)]
pub struct LockStats {
    pub mmap: Vec<f64>,
    pub vma: Vec<f64>,
    pub zone: Vec<f64>,
    pub lru: Vec<f64>,
    /// The most requests ever found ahead of a newcomer, on any lock.
    pub max_queue: u64,
}

/// Every lock of the run and each CPU's batch counters.
#[derive(Debug, Default)]
pub struct Locks {
    queues: std::collections::BTreeMap<LockId, LockQueue>,
    /// Per CPU: allocations and frees so far (a batch lock is taken on every `batch`-th).
    allocs: Vec<u64>,
    lru: Vec<u64>,
    frees: Vec<u64>,
    pub stats: LockStats,
}

crate::clone_reusing::clone_reusing!(Locks {
    queues,
    allocs,
    lru,
    frees,
    stats,
});

/// What one op does that takes locks.
#[derive(Clone, Copy, Debug, Default)]
pub struct LockWork {
    /// Faults (each takes the mm's or the VMA's lock).
    pub faults: u64,
    /// Of those, faults that allocate a page.
    pub allocs: u64,
    /// `madvise`/`munmap`/`mprotect` calls (each takes the mm's or the VMA's lock once).
    pub calls: u64,
    /// The call may take the VMA's lock instead of `mmap_lock` (`madvise`; not `munmap`).
    pub vma_call: bool,
    /// Pages the call freed.
    pub frees: u64,
}

impl Locks {
    pub fn new(cpus: u16) -> Self {
        Locks {
            allocs: vec![0; cpus as usize],
            lru: vec![0; cpus as usize],
            frees: vec![0; cpus as usize],
            ..Locks::default()
        }
    }

    /// Wait samples held for the summary (the memory budget counts them).
    pub fn samples(&self) -> usize {
        let s = &self.stats;
        s.mmap.len() + s.vma.len() + s.zone.len() + s.lru.len()
    }

    /// One request of `cpu` for lock `id` at `at`; returns its wait plus its service.
    fn take(&mut self, id: LockId, at: Ns, service: Ns, cpu: CpuId) -> Ns {
        let q = self.queues.entry(id).or_default();
        let (wait, service, ahead) = match id {
            LockId::Mmap(_) | LockId::Vma(_) => q.acquire_line(at, service, cpu),
            LockId::Zone | LockId::Lru => {
                let (wait, ahead) = q.acquire(at, service);
                (wait, service, ahead)
            }
        };
        self.stats.max_queue = self.stats.max_queue.max(ahead as u64);
        let list = match id {
            LockId::Mmap(_) => &mut self.stats.mmap,
            LockId::Vma(_) => &mut self.stats.vma,
            LockId::Zone => &mut self.stats.zone,
            LockId::Lru => &mut self.stats.lru,
        };
        list.push(wait as f64);
        wait.saturating_add(service)
    }

    /// Counts `n` more events in `counter` and returns how many batch boundaries they crossed
    /// (the first event of each batch takes the lock).
    fn batches(counter: &mut u64, n: u64, batch: u64) -> u64 {
        let batch = batch.max(1);
        let before = *counter;
        *counter = before.saturating_add(n);
        (*counter).div_ceil(batch) - before.div_ceil(batch)
    }

    /// Takes the locks `work` needs, one after another from `now`, for task `t` of `mm` on
    /// `cpu`. Returns the time they took (waits and services), which the caller adds to the
    /// op's time.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &mut self,
        mode: LockMode,
        costs: &LockCosts,
        now: Ns,
        cpu: CpuId,
        mm: MmId,
        t: TaskId,
        work: LockWork,
    ) -> Ns {
        if mode == LockMode::Off {
            return 0;
        }
        let mut waited: Ns = 0;
        let per_vma = mode == LockMode::PerVma;
        let mut take = |locks: &mut Locks, id: LockId, service: Ns| {
            let w = locks.take(id, now.saturating_add(waited), service, cpu);
            waited = waited.saturating_add(w);
        };
        let mm_lock = |vma: bool| {
            if vma && per_vma {
                LockId::Vma(t)
            } else {
                LockId::Mmap(mm)
            }
        };
        for _ in 0..work.faults {
            take(self, mm_lock(true), costs.mmap_lock_ns);
        }
        for _ in 0..work.calls {
            take(self, mm_lock(work.vma_call), costs.mmap_lock_ns);
        }
        let Some(c) = (cpu.index() < self.allocs.len()).then_some(cpu.index()) else {
            return waited;
        };
        let zone_hold = costs.pcp_batch.saturating_mul(costs.zone_lock_page_ns);
        let lru_hold = costs.lru_batch.saturating_mul(costs.lru_lock_page_ns);
        let zone_allocs = Self::batches(&mut self.allocs[c], work.allocs, costs.pcp_batch);
        // New folios and freed ones go through the same per-CPU LRU batch.
        let lru = Self::batches(&mut self.lru[c], work.allocs + work.frees, costs.lru_batch);
        let zone_frees = Self::batches(&mut self.frees[c], work.frees, costs.pcp_batch);
        for _ in 0..zone_allocs {
            take(self, LockId::Zone, zone_hold);
        }
        for _ in 0..lru {
            take(self, LockId::Lru, lru_hold);
        }
        for _ in 0..zone_frees {
            take(self, LockId::Zone, zone_hold);
        }
        waited
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queue_serves_requests_in_the_order_they_are_made() {
        let mut q = LockQueue::default();
        // Three requests at the same instant: each waits for everyone ahead of it.
        assert_eq!(q.acquire(1_000, 100), (0, 0));
        assert_eq!(q.acquire(1_000, 100), (100, 1));
        assert_eq!(q.acquire(1_000, 100), (200, 2));
        // A later arrival queues behind all three, even with a shorter service.
        assert_eq!(q.acquire(1_050, 10), (250, 3));
        // Once the queue has drained, a request waits for nothing and finds no one ahead.
        assert_eq!(q.acquire(2_000, 100), (0, 0));
    }

    #[test]
    fn a_line_is_free_to_the_cpu_that_held_it_last() {
        let mut q = LockQueue::default();
        assert_eq!(q.acquire_line(0, 100, CpuId(0)), (0, 0, 0));
        assert_eq!(q.acquire_line(10, 100, CpuId(0)), (0, 0, 0));
        // Another CPU pulls the line over; the first then pulls it back, behind it.
        assert_eq!(q.acquire_line(20, 100, CpuId(1)), (0, 100, 0));
        assert_eq!(q.acquire_line(20, 100, CpuId(0)), (100, 100, 1));
    }

    #[test]
    fn the_wait_grows_with_the_contenders() {
        let waits = |n: u64| {
            let mut q = LockQueue::default();
            (0..n).map(|_| q.acquire(0, 50).0).sum::<u64>()
        };
        // n simultaneous requests wait 0 + 50 + … + 50(n−1) in total.
        for n in 1..=8 {
            assert_eq!(waits(n), 50 * n * (n - 1) / 2);
        }
        assert!(waits(8) > waits(4) && waits(4) > waits(2) && waits(2) > waits(1));
    }

    #[test]
    fn a_batch_lock_is_taken_on_the_first_of_every_batch() {
        let mut c = 0;
        let takes: Vec<u64> = (0..7).map(|_| Locks::batches(&mut c, 1, 3)).collect();
        assert_eq!(takes, [1, 0, 0, 1, 0, 0, 1]);
        let mut c = 0;
        assert_eq!(Locks::batches(&mut c, 7, 3), 3);
        // A batch of 0 is read as 1: every event takes the lock, never a division by zero.
        let mut c = 0;
        assert_eq!(Locks::batches(&mut c, 4, 0), 4);
    }

    #[test]
    fn per_vma_locks_do_not_contend_between_threads_but_mmap_lock_does() {
        let costs = LockCosts::default();
        let work = LockWork {
            faults: 1,
            ..LockWork::default()
        };
        for (mode, contended) in [(LockMode::MmapLock, true), (LockMode::PerVma, false)] {
            let mut l = Locks::new(4);
            let a = l.run(mode, &costs, 0, CpuId(0), MmId(1), TaskId(0), work);
            let b = l.run(mode, &costs, 0, CpuId(1), MmId(1), TaskId(1), work);
            assert_eq!(a, 0);
            assert_eq!(b > 0, contended, "{mode:?}");
        }
        // Off takes nothing at all.
        let mut l = Locks::new(4);
        for c in 0..4 {
            assert_eq!(
                l.run(LockMode::Off, &costs, 0, CpuId(c), MmId(1), TaskId(0), work),
                0
            );
        }
        assert!(l.stats.mmap.is_empty());
    }
}

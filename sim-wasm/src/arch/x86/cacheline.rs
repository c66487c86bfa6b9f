//! Which CPUs' caches hold a copy of a shared line (an mm's `tlb_gen`), for what reading or
//! writing it costs: kept apart from the code that charges those costs so that the per-CPU
//! state can hold it without importing the machine.

use crate::ids::CpuId;

/// The CPUs whose caches hold a valid copy of one mm's `tlb_gen` line: an increment leaves
/// the line in the writer's cache alone (it invalidates every other copy), a read adds the
/// reader. A CPU outside the set pays `cacheline_transfer_ns` to get the line; a writer
/// also pays it when other copies must be invalidated first.
///
/// A transfer that must take the line from the one cache holding it modified (the first read
/// after an increment, or an increment, which must also invalidate every other copy) is
/// served one at a time, as a home agent serves coherence requests for one address: a
/// request arriving while such a transfer is in flight waits for it to end. A read of a line
/// already shared is served beside other reads, after any transfer in flight. So a broadcast's
/// handlers, all reading the line their initiator just incremented, wait behind one another
/// only for the first read; flushes from many threads at once, each incrementing the line,
/// queue behind each other's transfers: the contention commit aa44284960d5 ("x86/mm/tlb:
/// Avoid reading mm_tlb_gen when possible", Nadav Amit, 2022) avoids reads into.
#[derive(Clone, Debug, Default)]
pub struct LineHolders {
    words: Vec<u64>,
    /// When the exclusive transfer in flight (if any) ends.
    busy_until: u64,
    /// The last access was an increment: the line is modified in the writer's cache alone.
    modified: bool,
}

impl LineHolders {
    /// A read miss requested at `at` whose transfer takes `transfer` ns: what it costs.
    pub fn read(&mut self, at: u64, transfer: u64) -> u64 {
        let start = at.max(self.busy_until);
        if std::mem::take(&mut self.modified) {
            self.busy_until = start.saturating_add(transfer);
        }
        start.saturating_add(transfer) - at
    }

    /// An increment requested at `at`: if the line must move (`transfer` ns), what it costs.
    pub fn write(&mut self, at: u64, transfer: Option<u64>) -> Option<u64> {
        self.modified = true;
        transfer.map(|ns| {
            let start = at.max(self.busy_until);
            self.busy_until = start.saturating_add(ns);
            self.busy_until - at
        })
    }

    pub fn holds(&self, cpu: CpuId) -> bool {
        let i = cpu.index();
        self.words
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    pub fn add(&mut self, cpu: CpuId) {
        let i = cpu.index();
        if self.words.len() <= i / 64 {
            self.words.resize(i / 64 + 1, 0);
        }
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Nobody has touched the line yet: it comes from memory, whose cost is the path's own.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// `cpu` holds the only copy.
    pub fn only(&self, cpu: CpuId) -> bool {
        let i = cpu.index();
        self.words
            .iter()
            .enumerate()
            .all(|(k, &w)| w == if k == i / 64 { 1 << (i % 64) } else { 0 })
    }

    /// Whether a CPU other than `cpu` for which `far` holds has a copy.
    pub fn any_other(&self, cpu: CpuId, far: impl Fn(u16) -> bool) -> bool {
        self.words.iter().enumerate().any(|(k, &w)| {
            let mut bits = w;
            while bits != 0 {
                let c = (k * 64 + bits.trailing_zeros() as usize) as u16;
                if c != cpu.0 && far(c) {
                    return true;
                }
                bits &= bits - 1;
            }
            false
        })
    }

    /// Drops every copy but `cpu`'s, as an increment does.
    pub fn keep_only(&mut self, cpu: CpuId) {
        self.words.iter_mut().for_each(|w| *w = 0);
        self.add(cpu);
    }
}

#[cfg(test)]
mod tests {
    use super::LineHolders;

    #[test]
    fn the_first_read_after_an_increment_holds_back_the_reads_that_arrive_during_it() {
        let mut line = LineHolders::default();
        assert_eq!(line.write(0, None), None);
        // Two handlers read at 1,000: the first takes the line from the writer's cache, the
        // second is served only once that move has ended.
        assert_eq!(line.read(1_000, 100), 100);
        assert_eq!(line.read(1_000, 100), 200);
        // The line is shared now: later reads do not queue behind one another.
        assert_eq!(line.read(1_050, 100), 150);
        assert_eq!(line.read(1_050, 100), 150);
        assert_eq!(line.read(5_000, 100), 100);
    }

    #[test]
    fn increments_of_one_line_wait_for_each_other() {
        let mut line = LineHolders::default();
        assert_eq!(line.write(0, Some(150)), Some(150));
        assert_eq!(line.write(0, Some(150)), Some(300));
        assert_eq!(line.write(10_000, Some(150)), Some(150));
        // A read arriving during an increment's move waits for it and is the first after it.
        assert_eq!(line.read(10_100, 150), 200);
        assert_eq!(line.read(10_100, 150), 350);
    }
}

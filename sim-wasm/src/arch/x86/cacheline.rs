//! Which CPUs' caches hold a copy of a shared line (an mm's `tlb_gen`), for what reading or
//! writing it costs: kept apart from the code that charges those costs so that the per-CPU
//! state can hold it without importing the machine.

use crate::ids::CpuId;

/// The CPUs whose caches hold a valid copy of one mm's `tlb_gen` line: an increment leaves
/// the line in the writer's cache alone (it invalidates every other copy), a read adds the
/// reader. A CPU outside the set pays `cacheline_transfer_ns` to get the line; a writer
/// also pays it when other copies must be invalidated first.
#[derive(Clone, Debug, Default)]
pub struct LineHolders {
    words: Vec<u64>,
}

impl LineHolders {
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

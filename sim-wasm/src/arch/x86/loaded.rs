//! `cpu_tlbstate`'s `loaded_mm` and `is_lazy` again as bitmaps of CPUs (words of 64, as
//! `mm_cpumask`), kept by `switch_mm.rs` wherever it writes them: `flush_tlb_multi`'s choice
//! of targets is then a few operations per word of the cpumask instead of a look-up of
//! every CPU in it (`flush.rs`).

use crate::ids::{CpuId, MmId};

#[derive(Debug, Default)]
pub struct LoadedBits {
    /// Words per bitmap.
    words: usize,
    /// CPUs whose `is_lazy` is set.
    lazy: Vec<u64>,
    /// Per mm (by id, `words` each): the CPUs whose `loaded_mm` it is. An mm never loaded
    /// may lie beyond its end.
    loaded: Vec<u64>,
}

crate::clone_reusing::clone_reusing!(LoadedBits {
    words,
    lazy,
    loaded,
});

impl LoadedBits {
    /// At boot every CPU has `init_mm` loaded, none lazy.
    pub fn new(cpus: u16) -> LoadedBits {
        let words = (cpus as usize).div_ceil(64);
        let mut loaded = vec![0; words];
        for c in 0..cpus as usize {
            loaded[c / 64] |= 1 << (c % 64);
        }
        LoadedBits {
            words,
            lazy: vec![0; words],
            loaded,
        }
    }

    pub fn lazy(&self) -> &[u64] {
        &self.lazy
    }

    /// The CPUs that have `mm` loaded (fewer words, or none, for an mm never loaded).
    pub fn of(&self, mm: MmId) -> &[u64] {
        let start = mm.0 as usize * self.words;
        self.loaded
            .get(start..)
            .map_or(&[], |s| &s[..self.words.min(s.len())])
    }

    pub fn set_lazy(&mut self, cpu: CpuId, lazy: bool) {
        let (i, bit) = (cpu.index() / 64, 1u64 << (cpu.index() % 64));
        if let Some(w) = self.lazy.get_mut(i) {
            *w = if lazy { *w | bit } else { *w & !bit };
        }
    }

    /// `cpu`'s `loaded_mm` goes from `prev` to `next`.
    pub fn switch(&mut self, cpu: CpuId, prev: MmId, next: MmId) {
        let (i, bit) = (cpu.index() / 64, 1u64 << (cpu.index() % 64));
        if i >= self.words {
            return;
        }
        if let Some(w) = self.loaded.get_mut(prev.0 as usize * self.words + i) {
            *w &= !bit;
        }
        let at = next.0 as usize * self.words + i;
        if at >= self.loaded.len() {
            self.loaded.resize((next.0 as usize + 1) * self.words, 0);
        }
        self.loaded[at] |= bit;
    }
}

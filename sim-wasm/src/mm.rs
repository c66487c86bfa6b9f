//! An address space (`struct mm_struct` + `mm_context_t`): its flush generation `tlb_gen`, the
//! lazily maintained `mm_cpumask`, and a page table whose PTEs carry versions so a stale
//! translation is detectable.
//!
//! A PTE's `version` is the generation of the last change that removed or downgraded it
//! (the `new_tlb_gen` of the flush that covers that change); a TLB entry filled from it copies
//! the version. `safe` is the version up to which the covering flush has *returned*: any
//! translation with a smaller version must be gone everywhere (I3), because the caller may
//! now free the page.

use crate::ids::{CpuId, MmId, Ns};

#[derive(Clone, Copy, Debug, Default)]
pub struct Page {
    pub present: bool,
    pub version: u32,
    pub safe: u32,
}

/// The pages a generation's flush covers (for checking the "+1" rule, I2).
#[derive(Clone, Copy, Debug, Hash)]
pub struct GenRange {
    pub start: u32,
    pub pages: u32,
    pub full: bool,
}

/// A set of CPUs as a bitmap.
#[derive(Debug, Default, Hash)]
pub struct CpuMask {
    words: Vec<u64>,
}

crate::clone_reusing::clone_reusing!(CpuMask { words });

impl CpuMask {
    pub fn new(cpus: u16) -> CpuMask {
        CpuMask {
            words: vec![0; (cpus as usize).div_ceil(64)],
        }
    }
    pub fn contains(&self, c: CpuId) -> bool {
        self.words
            .get(c.index() / 64)
            .is_some_and(|w| w & (1 << (c.index() % 64)) != 0)
    }
    pub fn set(&mut self, c: CpuId) {
        if let Some(w) = self.words.get_mut(c.index() / 64) {
            *w |= 1 << (c.index() % 64);
        }
    }
    pub fn clear(&mut self, c: CpuId) {
        if let Some(w) = self.words.get_mut(c.index() / 64) {
            *w &= !(1 << (c.index() % 64));
        }
    }
    /// The bitmap, 64 CPUs a word.
    pub fn words(&self) -> &[u64] {
        &self.words
    }
    /// `cpumask_any_but()`: some member other than `c`.
    pub fn any_but(&self, c: CpuId) -> bool {
        let (wi, bit) = (c.index() / 64, 1u64 << (c.index() % 64));
        self.words
            .iter()
            .enumerate()
            .any(|(i, &w)| (if i == wi { w & !bit } else { w }) != 0)
    }
    /// Calls `f` with each member in ascending order.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(u16)) {
        for (i, &w) in self.words.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                f((i * 64) as u16 + w.trailing_zeros() as u16);
                w &= w - 1;
            }
        }
    }
    /// Members in ascending order, appended to `out` (no allocation when `out` has room).
    pub fn collect_into(&self, out: &mut Vec<u16>) {
        for (i, &w) in self.words.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let b = w.trailing_zeros();
                out.push((i * 64) as u16 + b as u16);
                w &= w - 1;
            }
        }
    }
}

/// Fewest generations kept before old ones are looked at: model-checked runs, which hash the
/// list into their states, stay far below it.
const GEN_TRIM_MIN: usize = 64;

#[derive(Debug)]
pub struct Mm {
    pub id: MmId,
    /// Never reused; what PCID slots remember (I10).
    pub ctx_id: u64,
    /// `mm->context.tlb_gen`; starts at 1 (0 is `TLB_GENERATION_INVALID`).
    pub tlb_gen: u64,
    pub cpumask: CpuMask,
    pub pages: Vec<Page>,
    /// `gen_ranges[g - gen_base]` = what the change of generation g touched; generations no
    /// slot can still advance across are forgotten (see `forget_gens_upto`).
    pub gen_ranges: Vec<GenRange>,
    /// The generation `gen_ranges[0]` describes.
    pub gen_base: u64,
    /// Length of `gen_ranges` at which its old generations are next looked at.
    pub trim_at: usize,
    /// Newest generation whose flush freed page tables and has returned.
    pub tables_freed_gen: u64,
    /// `next_trim_cpumask`: when a flush next trims stale cpumask bits (once per second).
    pub next_trim: Ns,
    /// CPUs whose `loaded_mm` is this mm (lazy or not); checked against the cpumask (I5).
    pub loaded_on: u32,
}

crate::clone_reusing::clone_reusing!(Mm {
    id,
    ctx_id,
    tlb_gen,
    cpumask,
    pages,
    gen_ranges,
    gen_base,
    trim_at,
    tables_freed_gen,
    next_trim,
    loaded_on,
});

impl Mm {
    pub fn new(id: MmId, cpus: u16, pages: u32) -> Mm {
        Mm {
            id,
            ctx_id: id.0 as u64 + 1,
            tlb_gen: 1,
            cpumask: CpuMask::new(cpus),
            pages: vec![Page::default(); pages as usize],
            gen_ranges: vec![
                GenRange {
                    start: 0,
                    pages: 0,
                    full: false
                };
                2
            ],
            gen_base: 0,
            trim_at: GEN_TRIM_MIN,
            tables_freed_gen: 0,
            next_trim: 1_000_000_000,
            loaded_on: 0,
        }
    }

    /// Clears the PTEs of `[start, start+n)` and increments `tlb_gen` (rule: change the page
    /// tables first, then increment, then flush). Returns the new generation. With
    /// `keep_present` the PTEs are changed, not cleared (mprotect, copy-on-write).
    pub fn zap_and_inc_tlb_gen(
        &mut self,
        start: u32,
        n: u32,
        full: bool,
        keep_present: bool,
    ) -> u64 {
        self.tlb_gen += 1;
        let gen = self.tlb_gen;
        let end = (start as usize + n as usize).min(self.pages.len());
        for p in &mut self.pages[(start as usize).min(end)..end] {
            p.present &= keep_present;
            p.version = gen as u32;
        }
        self.gen_ranges.push(GenRange {
            start,
            pages: n,
            full,
        });
        gen
    }

    /// Whether enough generations have piled up since the last trim to look for old ones.
    pub fn wants_trim(&self) -> bool {
        self.gen_ranges.len() >= self.trim_at
    }

    /// Forgets the changes of generations up to `oldest_from`, the oldest generation a slot of
    /// this mm holds: a flush advances a slot from its generation onwards, so it never asks
    /// about these. Without this the list grows by one entry a flush for the whole run. The next
    /// trim waits until the list has doubled, so the scan of the slots costs little per flush.
    pub fn forget_gens_upto(&mut self, oldest_from: u64) {
        let n = oldest_from
            .saturating_add(1)
            .saturating_sub(self.gen_base)
            .min(self.gen_ranges.len() as u64) as usize;
        self.gen_ranges.drain(..n);
        self.gen_base += n as u64;
        self.trim_at = (self.gen_ranges.len() * 2).max(GEN_TRIM_MIN);
    }

    /// Whether a flush of `[start, start+pages)` covers every change made for generations
    /// `(from, to]`.
    pub fn range_covers(&self, from: u64, to: u64, start: u32, pages: u32) -> Result<(), u64> {
        let end = start as u64 + pages as u64;
        debug_assert!(
            to <= from || from.saturating_add(1) >= self.gen_base,
            "a slot at gen {from} advances across forgotten generations (kept from {})",
            self.gen_base
        );
        for g in from.saturating_add(1)..=to {
            let Some(i) = g.checked_sub(self.gen_base) else {
                continue;
            };
            if let Some(r) = self.gen_ranges.get(i as usize) {
                let covered = !r.full
                    && r.start as u64 >= start as u64
                    && r.start as u64 + r.pages as u64 <= end;
                if !covered {
                    return Err(g);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_generations_are_forgotten_and_newer_ones_still_checked() {
        let mut m = Mm::new(MmId(1), 2, 64);
        for g in 0..1000u32 {
            // Every generation changes one page; generation 995 changes page 40.
            let page = if g + 2 == 995 { 40 } else { 3 };
            m.zap_and_inc_tlb_gen(page, 1, false, false);
            if m.wants_trim() {
                m.forget_gens_upto(m.tlb_gen - 20);
            }
        }
        assert_eq!(m.tlb_gen, 1001);
        assert!(
            m.gen_ranges.len() < 2 * GEN_TRIM_MIN,
            "{}",
            m.gen_ranges.len()
        );
        assert_eq!(m.range_covers(999, 1001, 3, 1), Ok(()));
        assert_eq!(m.range_covers(990, 1001, 3, 1), Err(995));
        m.forget_gens_upto(1000);
        assert_eq!(m.gen_ranges.len(), 1);
        assert_eq!(m.range_covers(1000, 1001, 3, 1), Ok(()));
        assert_eq!(m.range_covers(1000, 1001, 5, 1), Err(1001));
    }
}

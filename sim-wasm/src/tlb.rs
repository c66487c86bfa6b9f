//! The hardware TLB of one CPU: a set-associative array of translations tagged by PCID (on x86
//! the dynamic ASID slot), with finite capacity so that misses and refills can be counted.
//!
//! Each entry remembers the mm and the PTE version it was filled from, so a later use can be
//! compared with the page table (see `invariants.rs`). Flushing a whole tag is O(1): every tag
//! has an epoch, and an entry is valid only while its epoch matches (a CR3 reload without
//! `CR3_NOFLUSH` bumps the epoch). INVLPG clears the matching entry of one set.

use crate::ids::MmId;

/// Tag epochs kept for O(1) whole-tag flushes: x86 uses the 6 dynamic ASID slots. arm64 tags
/// entries with the full hardware ASID (up to 16 bits) and flushes one ASID by scanning
/// (`flush_asid`), so its tags never alias here.
pub const TAGS: usize = 8;

const VALID: u8 = 1;
/// A violation has already been recorded for this (stale) entry; report each entry once.
const REPORTED: u8 = 2;

#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub vpn: u32,
    pub version: u32,
    epoch: u32,
    pub mm: MmId,
    tag: u16,
    flags: u8,
}

impl Entry {
    pub fn reported(&self) -> bool {
        self.flags & REPORTED != 0
    }
}

#[derive(Clone, Debug)]
pub struct Tlb {
    sets: usize,
    ways: usize,
    entries: Vec<Entry>,
    victim: Vec<u8>,
    epoch: [u32; TAGS],
}

impl Tlb {
    pub fn new(capacity: u32, ways: u32) -> Tlb {
        let ways = (ways.max(1) as usize).min(255);
        let sets = (capacity as usize / ways).max(1);
        Tlb {
            sets,
            ways,
            entries: vec![Entry::default(); sets * ways],
            victim: vec![0; sets],
            epoch: [1; TAGS],
        }
    }

    fn set_of(&self, tag: u16, vpn: u32) -> usize {
        let h = (vpn as u64 ^ ((tag as u64) << 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((h >> 32) as usize) % self.sets
    }

    fn live(&self, e: &Entry) -> bool {
        e.flags & VALID != 0 && e.epoch == self.epoch[e.tag as usize % TAGS]
    }

    /// The entry the hardware would use for (tag, vpn), if any.
    pub fn lookup(&mut self, tag: u16, vpn: u32) -> Option<&mut Entry> {
        let base = self.set_of(tag, vpn) * self.ways;
        let epoch = self.epoch[tag as usize % TAGS];
        self.entries[base..base + self.ways]
            .iter_mut()
            .find(|e| e.flags & VALID != 0 && e.tag == tag && e.vpn == vpn && e.epoch == epoch)
    }

    /// Marks an entry as already reported stale.
    pub fn mark_reported(e: &mut Entry) {
        e.flags |= REPORTED;
    }

    /// Installs a translation after a page walk, evicting round-robin if the set is full.
    pub fn fill(&mut self, tag: u16, mm: MmId, vpn: u32, version: u32) {
        let set = self.set_of(tag, vpn);
        let base = set * self.ways;
        let slot = (0..self.ways)
            .find(|&i| !self.live(&self.entries[base + i]))
            .unwrap_or_else(|| {
                let v = self.victim[set] as usize % self.ways;
                self.victim[set] = ((v + 1) % self.ways) as u8;
                v
            });
        self.entries[base + slot] = Entry {
            vpn,
            version,
            epoch: self.epoch[tag as usize % TAGS],
            mm,
            tag,
            flags: VALID,
        };
    }

    /// INVLPG: drops the translation of one page in one tag.
    pub fn invalidate_page(&mut self, tag: u16, vpn: u32) {
        if let Some(e) = self.lookup(tag, vpn) {
            e.flags = 0;
        }
    }

    /// CR3 write without NOFLUSH (or INVPCID single-context): drops every entry of one tag.
    pub fn flush_tag(&mut self, tag: u16) {
        let t = tag as usize % TAGS;
        self.epoch[t] = self.epoch[t].wrapping_add(1);
    }

    /// Drops everything (CR4.PGE toggle / INVPCID all).
    pub fn flush_all(&mut self) {
        for t in 0..TAGS {
            self.flush_tag(t as u16);
        }
    }

    /// Every translation the hardware could still use, in storage order (for the inspector).
    pub fn live_entries(&self) -> impl Iterator<Item = (u16, &Entry)> + '_ {
        self.entries
            .iter()
            .filter(|e| self.live(e))
            .map(|e| (e.tag, e))
    }

    /// arm64 `TLBI ASIDE1`: drops every entry of one hardware ASID (a scan, so ASIDs that
    /// share an epoch slot are not flushed along).
    pub fn flush_asid(&mut self, tag: u16) {
        for e in &mut self.entries {
            if e.tag == tag {
                e.flags = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filled_translation_hits_until_its_page_is_invalidated() {
        let mut t = Tlb::new(64, 4);
        t.fill(1, MmId(1), 7, 3);
        assert_eq!(t.lookup(1, 7).map(|e| e.version), Some(3));
        assert!(t.lookup(2, 7).is_none(), "another PCID does not match");
        t.invalidate_page(1, 7);
        assert!(t.lookup(1, 7).is_none());
    }

    #[test]
    fn flushing_a_tag_drops_only_that_tags_entries() {
        let mut t = Tlb::new(64, 4);
        t.fill(1, MmId(1), 7, 0);
        t.fill(2, MmId(2), 7, 0);
        t.flush_tag(1);
        assert!(t.lookup(1, 7).is_none());
        assert!(t.lookup(2, 7).is_some());
    }

    #[test]
    fn a_full_set_evicts_an_entry() {
        let mut t = Tlb::new(2, 2);
        for vpn in 0..3 {
            t.fill(0, MmId(1), vpn, 0);
        }
        let live = (0..3).filter(|&v| t.lookup(0, v).is_some()).count();
        assert_eq!(live, 2);
    }
}

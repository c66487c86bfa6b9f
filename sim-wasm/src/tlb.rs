//! The hardware TLB of one CPU: a set-associative array of translations tagged by PCID (on x86
//! the dynamic ASID slot), with finite capacity so that misses and refills can be counted.
//!
//! Each entry remembers the mm and the PTE version it was filled from, so a later use can be
//! compared with the page table (see `invariants.rs`). Flushing a whole tag is O(1): every tag
//! has an epoch, and an entry is valid only while its epoch matches (a CR3 reload without
//! `CR3_NOFLUSH` bumps the epoch). INVLPG clears the matching entry of one set.
//!
//! Kernel translations (`costs.kernel_pages`, touched by `World::touch_kernel`) are *global*
//! entries, as on an x86 kernel without PTI (the ASID comment block and `switch_mm_irqs_off()` in `arch/x86/mm/tlb.c`): no PCID
//! matches them out, a CR3 write (with or without NOFLUSH) keeps them, only `flush_all` drops
//! them. They share the sets with the user entries, so they take capacity and evict them.
//!
//! Set index (`machine.tlb_index`, [`TlbIndex`]): `hash` mixes the page number with the tag;
//! `xor7` is Skylake's published sTLB function and ignores the tag. Page numbers are counted
//! from `USER_BASE` (`0x7f00_0000_0000`, a multiple of 2^14 pages) for user pages, so their low
//! 14 bits, the only ones `xor7` reads, are those of the real addresses' page numbers. The
//! kernel's pages get scattered low bits (`kernel_vpn` in ops.rs), as unrelated kernel text and
//! data addresses would have.
//!
//! Replacement (`victim_slot`): a fill takes a way that holds no live entry if the set has one;
//! otherwise a per-set round-robin pointer picks the victim and advances. Hits do not move it,
//! so this is FIFO-like replacement, not LRU. Skylake's sTLB replacement policy is not
//! published (TLBleed gives the geometry and the index, not the policy). The policy only
//! matters once a set holds more live translations than it has ways: a working set that fits
//! every set is never evicted under any policy, and a cyclic sweep over more pages than ways
//! misses on every access under both FIFO and LRU.

use crate::config::TlbIndex;
use crate::ids::MmId;

/// Tag epochs kept for O(1) whole-tag flushes: x86 uses the 6 dynamic ASID slots (and, under
/// PTI, their user PCIDs as tags 16–21; INVLPGB's global ASIDs as 6–15, 22–31). arm64 tags
/// entries with the full hardware ASID (up to 16 bits) and flushes one ASID by scanning
/// (`flush_asid`), so its tags never alias here.
pub const TAGS: usize = 32;

const VALID: u8 = 1;
/// A violation has already been recorded for this (stale) entry; report each entry once.
const REPORTED: u8 = 2;
/// A global (kernel) translation: not tagged by PCID, not dropped by `flush_tag`.
const GLOBAL: u8 = 4;
/// The tag global entries carry (only for the set index; they never match a user lookup).
const GLOBAL_TAG: u16 = u16::MAX;

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

#[derive(Debug)]
pub struct Tlb {
    sets: usize,
    ways: usize,
    index: TlbIndex,
    /// `sets * ways` entries, allocated by the first fill: most CPUs of a 128- or 512-CPU
    /// machine never cache a translation, and writing their empty arrays (20 B an entry, some
    /// 30 KB a CPU) cost a few percent of a whole benchmark run. Empty reads as all invalid.
    entries: Vec<Entry>,
    /// Per-set round-robin victims, allocated with `entries`.
    victim: Vec<u8>,
    /// Per set, how many ways have ever been written (allocated with `entries`). Fills take
    /// the first way that holds no live entry, so the written ways are a prefix of the set and
    /// the ways past it are still empty: look-ups scan the prefix only, which on a machine
    /// that caches a few pages a set is one or two ways instead of all of them.
    used: Vec<u8>,
    epoch: [u32; TAGS],
    global_epoch: u32,
}

crate::clone_reusing::clone_reusing!(Tlb {
    sets,
    ways,
    index,
    entries,
    victim,
    used,
    epoch,
    global_epoch,
});

impl Tlb {
    /// Most ways a set may have: a set's victim pointer is a byte. Validation refuses more, so
    /// the clamp below only guards a hand-built TLB.
    pub const MAX_WAYS: u32 = 255;

    pub fn new(capacity: u32, ways: u32, index: TlbIndex) -> Tlb {
        let ways = ways.clamp(1, Self::MAX_WAYS) as usize;
        let sets = (capacity as usize / ways).max(1);
        Tlb {
            sets,
            ways,
            index,
            entries: Vec::new(),
            victim: Vec::new(),
            used: Vec::new(),
            epoch: [1; TAGS],
            global_epoch: 1,
        }
    }

    /// The set that holds (tag, vpn). `xor7` reads only the page number (the scenario check
    /// guarantees 128 sets; the modulo keeps a hand-built smaller TLB in range).
    pub fn set_of(&self, tag: u16, vpn: u32) -> usize {
        match self.index {
            TlbIndex::Hash => {
                let h = (vpn as u64 ^ ((tag as u64) << 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                ((h >> 32) as usize) % self.sets
            }
            TlbIndex::Xor7 => (((vpn ^ (vpn >> 7)) & 0x7f) as usize) % self.sets,
        }
    }

    fn live(&self, e: &Entry) -> bool {
        if e.flags & GLOBAL != 0 {
            return e.flags & VALID != 0 && e.epoch == self.global_epoch;
        }
        e.flags & VALID != 0 && e.epoch == self.epoch[e.tag as usize % TAGS]
    }

    /// Allocates the (invalid) entries on the first fill.
    #[inline]
    fn allocate(&mut self) {
        if self.entries.is_empty() {
            self.allocate_cold();
        }
    }

    #[cold]
    #[inline(never)]
    fn allocate_cold(&mut self) {
        self.entries = vec![Entry::default(); self.sets * self.ways];
        self.victim = vec![0; self.sets];
        self.used = vec![0; self.sets];
    }

    /// The ways of `set` that were ever written (empty before the first fill).
    #[inline]
    fn written(&self, set: usize) -> std::ops::Range<usize> {
        let base = set * self.ways;
        base..base + self.used.get(set).map_or(0, |&u| u as usize)
    }

    /// The entry the hardware would use for (tag, vpn), if any.
    pub fn lookup(&mut self, tag: u16, vpn: u32) -> Option<&mut Entry> {
        self.lookup_in(self.set_of(tag, vpn), tag, vpn)
    }

    /// `lookup` in the set `set_of(tag, vpn)` returned: a miss then a fill hash the page
    /// (and divide by the set count) once.
    pub fn lookup_in(&mut self, set: usize, tag: u16, vpn: u32) -> Option<&mut Entry> {
        let epoch = self.epoch[tag as usize % TAGS];
        let ways = self.written(set);
        let set = self.entries.get_mut(ways)?;
        // The page number first: it rules out most ways of a set in one compare, where the
        // flags (most ways are invalid or another page's) took a load, a mask and a compare.
        set.iter_mut().find(|e| {
            e.vpn == vpn && e.tag == tag && e.flags & (VALID | GLOBAL) == VALID && e.epoch == epoch
        })
    }

    /// Looks up the global (kernel) translation of `vpn`; on a miss, installs it (evicting as
    /// `fill` does). Returns whether it hit.
    pub fn touch_global(&mut self, vpn: u32) -> bool {
        self.allocate();
        let set = self.set_of(GLOBAL_TAG, vpn);
        let epoch = self.global_epoch;
        let ways = self.written(set);
        let hit = self.entries[ways].iter().any(|e| {
            e.flags & (VALID | GLOBAL) == VALID | GLOBAL && e.vpn == vpn && e.epoch == epoch
        });
        if !hit {
            let slot = self.victim_slot(set);
            self.entries[slot] = Entry {
                vpn,
                version: 0,
                epoch,
                mm: MmId::INIT_MM,
                tag: GLOBAL_TAG,
                flags: VALID | GLOBAL,
            };
        }
        hit
    }

    /// The index in `entries` of the way of `set` the next fill takes: a free (not live) way,
    /// else the next round-robin victim (see the module doc). The caller writes it.
    #[inline]
    fn victim_slot(&mut self, set: usize) -> usize {
        let ways = self.written(set);
        if let Some(i) = ways.clone().find(|&i| !self.live(&self.entries[i])) {
            return i;
        }
        let used = ways.len();
        if used < self.ways {
            // The first never-written way: the scan over all ways would have stopped there.
            self.used[set] += 1;
            return ways.end;
        }
        let v = self.victim[set] as usize % self.ways;
        self.victim[set] = ((v + 1) % self.ways) as u8;
        ways.start + v
    }

    /// Live global (kernel) entries, for tests and the inspector's counts.
    pub fn global_entries(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| e.flags & GLOBAL != 0 && self.live(e))
            .count()
    }

    /// Marks an entry as already reported stale.
    pub fn mark_reported(e: &mut Entry) {
        e.flags |= REPORTED;
    }

    /// Installs a translation after a page walk, evicting round-robin if the set is full.
    pub fn fill(&mut self, tag: u16, mm: MmId, vpn: u32, version: u32) {
        self.fill_in(self.set_of(tag, vpn), tag, mm, vpn, version);
    }

    /// `fill` into the set `set_of(tag, vpn)` returned.
    pub fn fill_in(&mut self, set: usize, tag: u16, mm: MmId, vpn: u32, version: u32) {
        self.allocate();
        let slot = self.victim_slot(set);
        self.entries[slot] = Entry {
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

    /// Drops everything, global entries included (CR4.PGE toggle / INVPCID all).
    pub fn flush_all(&mut self) {
        for t in 0..TAGS {
            self.flush_tag(t as u16);
        }
        self.global_epoch = self.global_epoch.wrapping_add(1);
    }

    /// Every user translation the hardware could still use, in storage order (for the
    /// inspector; the global kernel entries are left out, see `global_entries`).
    pub fn live_entries(&self) -> impl Iterator<Item = (u16, &Entry)> + '_ {
        self.entries
            .iter()
            .filter(|e| e.flags & GLOBAL == 0 && self.live(e))
            .map(|e| (e.tag, e))
    }

    /// The interleaving checker's view (`check/key.rs`): what decides every later lookup and
    /// fill — each live entry with its way, and the sets' round-robin victims — without the
    /// epoch counters, whose values depend on how many flushes came before, not on what is
    /// cached.
    pub fn hash_key<H: std::hash::Hasher>(&self, h: &mut H) {
        for (i, e) in self.entries.iter().enumerate() {
            if self.live(e) {
                h.write_u32(i as u32);
                h.write_u32(e.vpn);
                h.write_u32(e.version);
                h.write_u16(e.mm.0);
                h.write_u16(e.tag);
                h.write_u8(e.flags);
            }
        }
        h.write_u8(0xff);
        for (set, v) in self.victim.iter().enumerate() {
            if *v != 0 {
                h.write_u32(set as u32);
                h.write_u8(*v);
            }
        }
    }

    /// arm64 `TLBI ASIDE1`: drops every entry of one hardware ASID (a scan, so ASIDs that
    /// share an epoch slot are not flushed along).
    pub fn flush_asid(&mut self, tag: u16) {
        for e in &mut self.entries {
            if e.tag == tag && e.flags & GLOBAL == 0 {
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
        let mut t = Tlb::new(64, 4, TlbIndex::Hash);
        t.fill(1, MmId(1), 7, 3);
        assert_eq!(t.lookup(1, 7).map(|e| e.version), Some(3));
        assert!(t.lookup(2, 7).is_none(), "another PCID does not match");
        t.invalidate_page(1, 7);
        assert!(t.lookup(1, 7).is_none());
    }

    #[test]
    fn flushing_a_tag_drops_only_that_tags_entries() {
        let mut t = Tlb::new(64, 4, TlbIndex::Hash);
        t.fill(1, MmId(1), 7, 0);
        t.fill(2, MmId(2), 7, 0);
        t.flush_tag(1);
        assert!(t.lookup(1, 7).is_none());
        assert!(t.lookup(2, 7).is_some());
    }

    #[test]
    fn a_full_set_evicts_an_entry() {
        let mut t = Tlb::new(2, 2, TlbIndex::Hash);
        for vpn in 0..3 {
            t.fill(0, MmId(1), vpn, 0);
        }
        let live = (0..3).filter(|&v| t.lookup(0, v).is_some()).count();
        assert_eq!(live, 2);
    }

    #[test]
    fn global_entries_survive_a_tag_flush_take_capacity_and_go_with_flush_all() {
        let mut t = Tlb::new(1, 1, TlbIndex::Hash);
        assert!(!t.touch_global(9), "first touch misses");
        assert!(t.touch_global(9), "then hits");
        t.flush_tag(0);
        assert!(t.touch_global(9), "a CR3 write keeps global entries");
        assert!(
            t.lookup(0, 9).is_none(),
            "a user lookup never matches a global entry"
        );
        t.fill(0, MmId(1), 5, 0);
        assert!(
            !t.touch_global(9),
            "the user fill evicted it from the one-entry TLB"
        );
        assert!(
            t.lookup(0, 5).is_none(),
            "and the kernel refill evicted the user entry"
        );
        t.flush_all();
        assert_eq!(t.global_entries(), 0);
    }

    #[test]
    fn xor7_maps_128_consecutive_aligned_pages_to_128_distinct_sets() {
        let t = Tlb::new(1536, 12, TlbIndex::Xor7);
        for base in [0u32, 128, 640, 0xF000_0000] {
            let sets: std::collections::BTreeSet<usize> =
                (base..base + 128).map(|v| t.set_of(1, v)).collect();
            assert_eq!(sets.len(), 128, "pages {base:#x}.. cover every set once");
        }
        for vpn in [
            0u32,
            1,
            127,
            128,
            129,
            0x3fff,
            0x4000,
            0x1234_5678,
            u32::MAX,
        ] {
            let want = ((vpn & 0x7f) ^ ((vpn >> 7) & 0x7f)) as usize;
            assert_eq!(t.set_of(1, vpn), want, "vpn {vpn:#x}: vpn[6:0] ^ vpn[13:7]");
        }
    }

    #[test]
    fn xor7_leaves_the_pcid_out_of_the_index_and_the_hash_does_not() {
        let x = Tlb::new(1536, 12, TlbIndex::Xor7);
        let h = Tlb::new(1536, 12, TlbIndex::Hash);
        let vpns = 0..512u32;
        assert!(vpns.clone().all(|v| x.set_of(1, v) == x.set_of(2, v)));
        assert!(vpns
            .clone()
            .all(|v| x.set_of(1, v) == x.set_of(GLOBAL_TAG, v)));
        assert!(vpns.clone().any(|v| h.set_of(1, v) != h.set_of(2, v)));
    }

    #[test]
    fn twelve_ways_hold_twelve_pages_of_one_xor7_set_and_the_thirteenth_evicts() {
        let mut t = Tlb::new(1536, 12, TlbIndex::Xor7);
        // vpn k·129 for k < 13 all map to set 0 (k ^ k).
        let same_set: Vec<u32> = (0..13).map(|k| k * 129).collect();
        assert!(same_set.iter().all(|&v| t.set_of(0, v) == 0));
        for &v in &same_set[..12] {
            t.fill(1, MmId(1), v, 0);
        }
        assert!(same_set[..12].iter().all(|&v| t.lookup(1, v).is_some()));
        t.fill(2, MmId(2), same_set[12], 0);
        let live = same_set
            .iter()
            .filter(|&&v| t.lookup(1, v).is_some())
            .count();
        assert_eq!(live, 11, "another PCID's page in the same set evicts one");
    }
}

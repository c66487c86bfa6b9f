//! The binary min-heap that holds the queue's later events (see `mod.rs`). Hand-written rather
//! than `std::collections::BinaryHeap` because whole-entry copies of `Copy` events avoid the
//! store-forwarding stalls of the std heap's swap-based pop. `pop` sifts the hole down to a leaf
//! choosing the smaller child with a conditional move (Floyd's bottom-up heap), then lifts the
//! last entry from there: the last entry is usually late, so it rarely climbs, and the walk down
//! has no comparisons with it that a branch predictor could miss.

use super::entry::Entry;
use crate::ids::Ns;

#[derive(Debug, Clone)]
pub(super) struct Heap<E> {
    pub(super) items: Vec<Entry<E>>,
    /// The earliest time, `Ns::MAX` when empty: one load for the queue's tests on every push
    /// and pop, where `min_time` reads the length and then the first entry.
    pub(super) earliest: Ns,
}

impl<E> Default for Heap<E> {
    fn default() -> Self {
        Heap {
            items: Vec::new(),
            earliest: Ns::MAX,
        }
    }
}

impl<E: Copy> Heap<E> {
    pub(super) fn push(&mut self, e: Entry<E>) {
        let i = self.items.len();
        self.items.push(e);
        self.lift(i, e);
        self.earliest = self.earliest.min(e.time);
    }

    /// The earliest time, if any.
    #[inline]
    pub(super) fn min_time(&self) -> Option<u64> {
        self.items.first().map(|e| e.time)
    }

    /// Moves `e` up from the hole at `i` to where it belongs and puts it there.
    #[inline(always)]
    fn lift(&mut self, mut i: usize, e: Entry<E>) {
        let heap = &mut self.items[..];
        while i > 0 {
            let parent = (i - 1) / 2;
            if e.key() >= heap[parent].key() {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = e;
    }

    pub(super) fn pop(&mut self) -> Option<Entry<E>> {
        let last = self.items.pop()?;
        let n = self.items.len();
        if n == 0 {
            self.earliest = Ns::MAX;
            return Some(last);
        }
        let top = self.items[0];
        let heap = &mut self.items[..];
        let mut i = 0;
        // Both children exist: take the smaller without a branch.
        while 2 * i + 2 < n {
            let l = 2 * i + 1;
            let c = l + (heap[l + 1].key() < heap[l].key()) as usize;
            heap[i] = heap[c];
            i = c;
        }
        if 2 * i + 1 < n {
            heap[i] = heap[2 * i + 1];
            i = 2 * i + 1;
        }
        self.lift(i, last);
        self.earliest = self.items[0].time;
        Some(top)
    }

    /// Removes the entry at index `i` (any order) and restores the heap order.
    pub(super) fn remove_at(&mut self, i: usize) -> Entry<E> {
        let e = self.items.swap_remove(i);
        let rest = std::mem::take(&mut self.items);
        self.earliest = Ns::MAX;
        for r in rest {
            self.push(r);
        }
        e
    }
}

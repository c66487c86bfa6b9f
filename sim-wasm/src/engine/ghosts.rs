//! The queue's superseded events (see `mod.rs`), sorted earliest-first from a head index, so
//! the earliest pops by moving the head. A binary heap held them before: its pop, a sift
//! through every level, cost ~120 instructions a ghost in the bench run. A new ghost is the
//! step its task was about to end with, usually later than the ghosts already waiting, so it
//! settles past few of them from the back. (Sorted latest-first, popping off the end, a push
//! moved the earlier ghosts instead: 3.7 M instructions more in the bench run.)

use super::entry::Entry;
use crate::ids::Ns;

#[derive(Debug, Clone)]
pub(super) struct Ghosts<E> {
    /// Sorted earliest-first from `head`; those before `head` have popped.
    items: Vec<Entry<E>>,
    head: usize,
    /// The earliest time, `Ns::MAX` when empty: the one number `pop_due` compares against.
    pub(super) earliest: Ns,
}

impl<E> Default for Ghosts<E> {
    fn default() -> Self {
        Ghosts {
            items: Vec::new(),
            head: 0,
            earliest: Ns::MAX,
        }
    }
}

impl<E: Copy> Ghosts<E> {
    /// The pending ghosts, earliest first.
    pub(super) fn live(&self) -> &[Entry<E>] {
        &self.items[self.head..]
    }

    /// A ghost keeps the `seq` of the event it was, not the newest: it is placed by its whole
    /// key among ghosts of the same time.
    pub(super) fn push(&mut self, e: Entry<E>) {
        if self.head == self.items.len() {
            self.items.clear();
            self.head = 0;
        } else if self.head >= 64 && self.head * 2 >= self.items.len() {
            self.items.drain(..self.head);
            self.head = 0;
        }
        self.items.push(e);
        let mut slots = self.items[self.head..].iter_mut().rev();
        let Some(mut hole) = slots.next() else {
            return;
        };
        for slot in slots {
            if slot.key() < e.key() {
                break;
            }
            *hole = *slot;
            hole = slot;
        }
        *hole = e;
        self.earliest = self.earliest.min(e.time);
    }

    /// The earliest key, if any.
    pub(super) fn min_key(&self) -> Option<u128> {
        self.items.get(self.head).map(Entry::key)
    }

    pub(super) fn min_time(&self) -> Option<Ns> {
        self.items.get(self.head).map(|e| e.time)
    }

    pub(super) fn pop(&mut self) -> Option<Entry<E>> {
        let e = *self.items.get(self.head)?;
        self.head += 1;
        self.earliest = self.items.get(self.head).map_or(Ns::MAX, |e| e.time);
        Some(e)
    }

    /// Removes the `i`th pending ghost; the rest stay sorted.
    pub(super) fn remove_at(&mut self, i: usize) -> Entry<E> {
        let e = self.items.remove(self.head + i);
        self.earliest = self.min_time().unwrap_or(Ns::MAX);
        e
    }
}

//! The queue's superseded events (see `mod.rs`), sorted latest-first like the near run so the
//! earliest pops off the end. A binary heap held them before: its pop, a sift through every
//! level, cost ~120 instructions a ghost in the bench run, where few ghosts wait at once and a
//! new one, due within a step of now, settles past only those few due before it.

use super::entry::Entry;
use crate::ids::Ns;

#[derive(Debug, Clone)]
pub(super) struct Ghosts<E> {
    pub(super) items: Vec<Entry<E>>,
    /// The earliest time, `Ns::MAX` when empty: the one number `pop_due` compares against.
    pub(super) earliest: Ns,
}

impl<E> Default for Ghosts<E> {
    fn default() -> Self {
        Ghosts {
            items: Vec::new(),
            earliest: Ns::MAX,
        }
    }
}

impl<E: Copy> Ghosts<E> {
    /// A ghost keeps the `seq` of the event it was, not the newest: it is placed by its whole
    /// key among ghosts of the same time.
    pub(super) fn push(&mut self, e: Entry<E>) {
        self.items.push(e);
        let mut slots = self.items.iter_mut().rev();
        let Some(mut hole) = slots.next() else {
            return;
        };
        for slot in slots {
            if slot.key() > e.key() {
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
        self.items.last().map(Entry::key)
    }

    pub(super) fn min_time(&self) -> Option<Ns> {
        self.items.last().map(|e| e.time)
    }

    pub(super) fn pop(&mut self) -> Option<Entry<E>> {
        let e = self.items.pop()?;
        self.earliest = self.items.last().map_or(Ns::MAX, |e| e.time);
        Some(e)
    }

    /// Removes the entry at index `i`; the rest stay sorted.
    pub(super) fn remove_at(&mut self, i: usize) -> Entry<E> {
        let e = self.items.remove(i);
        self.earliest = self.items.last().map_or(Ns::MAX, |e| e.time);
        e
    }
}

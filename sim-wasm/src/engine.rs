//! The discrete-event core: a clock and a min-heap of pending events ordered by
//! `(time, seq)`. `seq` is a global insertion counter, so events at the same nanosecond run in
//! the order they were scheduled — never in an order that depends on heap internals. The
//! engine is sans-IO: callers pop events and hand them to the machine; nothing reads a clock.

use crate::ids::Ns;

#[derive(Debug, Clone, Copy)]
struct Entry<E> {
    /// `time << 64 | seq`: one integer compare orders by time, then by scheduling order.
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    #[inline(always)]
    fn time(&self) -> Ns {
        (self.key >> 64) as Ns
    }

    /// The scheduling order (the key's low half).
    fn seq(&self) -> u64 {
        self.key as u64
    }
}

/// A binary min-heap on `(time, seq)`. Hand-written rather than `std::collections::BinaryHeap`
/// because whole-entry copies of `Copy` events avoid the store-forwarding stalls of the std
/// heap's swap-based pop, which cost about a quarter of the run time in profiles. The key is
/// one `u128` so a comparison is branch-free, and `pop` sifts the hole down to a leaf choosing
/// the smaller child with a conditional move (Floyd's bottom-up heap), then lifts the last
/// entry from there: the last entry is usually late, so it rarely climbs, and the walk down
/// has no comparisons with it that a branch predictor could miss.
#[derive(Debug)]
pub struct Queue<E> {
    now: Ns,
    seq: u64,
    heap: Vec<Entry<E>>,
}

impl<E> Default for Queue<E> {
    fn default() -> Self {
        Queue {
            now: 0,
            seq: 0,
            heap: Vec::new(),
        }
    }
}

impl<E: Copy> Queue<E> {
    pub fn now(&self) -> Ns {
        self.now
    }

    /// Schedules `event` at absolute time `time` (never earlier than now).
    #[inline]
    pub fn at(&mut self, time: Ns, event: E) {
        let time = time.max(self.now);
        self.seq += 1;
        let e = Entry {
            key: (time as u128) << 64 | self.seq as u128,
            event,
        };
        let i = self.heap.len();
        self.heap.push(e);
        self.lift(i, e);
    }

    /// Moves `e` up from the hole at `i` to where it belongs and puts it there.
    #[inline(always)]
    fn lift(&mut self, mut i: usize, e: Entry<E>) {
        let heap = &mut self.heap[..];
        while i > 0 {
            let parent = (i - 1) / 2;
            if e.key >= heap[parent].key {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = e;
    }

    /// Schedules `event` `delay` ns from now.
    #[inline]
    pub fn after(&mut self, delay: Ns, event: E) {
        self.at(self.now.saturating_add(delay), event);
    }

    /// Removes the earliest event and advances the clock to it.
    #[inline]
    pub fn pop(&mut self) -> Option<E> {
        let last = self.heap.pop()?;
        let n = self.heap.len();
        if n == 0 {
            self.now = last.time();
            return Some(last.event);
        }
        let top = self.heap[0];
        let heap = &mut self.heap[..];
        let mut i = 0;
        // Both children exist: take the smaller without a branch.
        while 2 * i + 2 < n {
            let l = 2 * i + 1;
            let c = l + (heap[l + 1].key < heap[l].key) as usize;
            heap[i] = heap[c];
            i = c;
        }
        if 2 * i + 1 < n {
            heap[i] = heap[2 * i + 1];
            i = 2 * i + 1;
        }
        self.lift(i, last);
        self.now = top.time();
        Some(top.event)
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<Ns> {
        self.heap.first().map(Entry::time)
    }

    /// Pending events (including ones that will turn out stale).
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

// ---- interleaving checker (`check/`): every pending event, and firing any one of them ----

impl<E: Copy> Clone for Queue<E> {
    fn clone(&self) -> Self {
        Queue {
            now: self.now,
            seq: self.seq,
            heap: self.heap.clone(),
        }
    }
}

impl<E: Copy> Queue<E> {
    /// Every pending event as `(time, seq, event)`, in no particular order.
    pub fn pending(&self) -> impl Iterator<Item = (Ns, u64, E)> + '_ {
        self.heap.iter().map(|e| (e.time(), e.seq(), e.event))
    }

    /// Removes the pending event `seq`, whatever its time, and moves the clock to
    /// `max(now, its time)`: the checker lets any pending event go first, as if the others
    /// were delayed, and time never runs backwards.
    pub fn take(&mut self, seq: u64) -> Option<E> {
        let i = self.heap.iter().position(|e| e.seq() == seq)?;
        let e = self.heap.swap_remove(i);
        let rest = std::mem::take(&mut self.heap);
        let now = self.now.max(e.time());
        let seq = self.seq;
        for r in rest {
            self.now = 0;
            self.seq = r.seq() - 1;
            self.at(r.time(), r.event);
        }
        self.now = now;
        self.seq = seq;
        Some(e.event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_pop_in_time_order_and_ties_in_scheduling_order() {
        let mut q = Queue::default();
        q.at(30, "c");
        q.at(10, "a");
        q.at(30, "d");
        q.at(20, "b");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
        assert_eq!(q.now(), 30);
    }

    #[test]
    fn many_events_pop_sorted_by_time_then_insertion() {
        let mut q = Queue::default();
        let mut x: u64 = 12345;
        let mut want = Vec::new();
        for i in 0..1000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let t = (x >> 33) % 50;
            q.at(t, i);
            want.push((t, i));
        }
        want.sort();
        let got: Vec<u64> = std::iter::from_fn(|| q.pop()).collect();
        let want: Vec<u64> = want.into_iter().map(|(_, i)| i).collect();
        assert_eq!(got, want);
    }

    /// Pushes and pops interleaved, as the simulator does them, against a sorted reference.
    #[test]
    fn interleaved_pushes_and_pops_match_a_sorted_reference() {
        let mut q = Queue::default();
        let mut reference: Vec<(u64, u64)> = Vec::new();
        let mut x: u64 = 99;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 33
        };
        for id in 0..20_000u64 {
            for _ in 0..next() % 3 {
                // Many ties: delays of 0..8 ns from now.
                let t = q.now() + next() % 8;
                q.at(t, id);
                reference.push((t, id));
            }
            if next() % 2 == 0 || reference.len() > 40 {
                reference.sort();
                let want = (!reference.is_empty()).then(|| reference.remove(0));
                assert_eq!(q.pop(), want.map(|(_, id)| id));
                assert_eq!(q.len(), reference.len());
                if let Some((t, _)) = want {
                    assert_eq!(q.now(), t);
                }
            }
        }
    }

    #[test]
    fn an_event_in_the_past_runs_now() {
        let mut q = Queue::default();
        q.at(50, 1);
        q.pop();
        q.at(10, 2);
        q.pop();
        assert_eq!(q.now(), 50);
    }
}

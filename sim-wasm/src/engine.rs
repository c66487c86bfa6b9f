//! The discrete-event core: a clock and a min-heap of pending events ordered by
//! `(time, seq)`. `seq` is a global insertion counter, so events at the same nanosecond run in
//! the order they were scheduled — never in an order that depends on heap internals. The
//! engine is sans-IO: callers pop events and hand them to the machine; nothing reads a clock.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::ids::Ns;

#[derive(Debug)]
struct Entry<E> {
    time: Ns,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.time, self.seq) == (other.time, other.seq)
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.time, self.seq).cmp(&(other.time, other.seq))
    }
}

#[derive(Debug)]
pub struct Queue<E> {
    now: Ns,
    seq: u64,
    heap: BinaryHeap<Reverse<Entry<E>>>,
}

impl<E> Default for Queue<E> {
    fn default() -> Self {
        Queue {
            now: 0,
            seq: 0,
            heap: BinaryHeap::new(),
        }
    }
}

impl<E> Queue<E> {
    pub fn now(&self) -> Ns {
        self.now
    }

    /// Schedules `event` at absolute time `time` (never earlier than now).
    pub fn at(&mut self, time: Ns, event: E) {
        let time = time.max(self.now);
        self.seq += 1;
        self.heap.push(Reverse(Entry {
            time,
            seq: self.seq,
            event,
        }));
    }

    /// Schedules `event` `delay` ns from now.
    pub fn after(&mut self, delay: Ns, event: E) {
        self.at(self.now.saturating_add(delay), event);
    }

    /// Removes the earliest event and advances the clock to it.
    pub fn pop(&mut self) -> Option<E> {
        let Reverse(e) = self.heap.pop()?;
        self.now = e.time;
        Some(e.event)
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<Ns> {
        self.heap.peek().map(|Reverse(e)| e.time)
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
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
    fn an_event_in_the_past_runs_now() {
        let mut q = Queue::default();
        q.at(50, 1);
        q.pop();
        q.at(10, 2);
        q.pop();
        assert_eq!(q.now(), 50);
    }
}

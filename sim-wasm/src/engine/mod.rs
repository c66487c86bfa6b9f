//! The discrete-event core: a clock and the pending events ordered by `(time, seq)`. `seq` is
//! a global insertion counter, so events at the same nanosecond run in the order they were
//! scheduled — never in an order that depends on how the queue keeps them. The engine is
//! sans-IO: callers pop events and hand them to the machine; nothing reads a clock.

use crate::ids::Ns;

mod entry;
mod heap;

use entry::Entry;
use heap::Heap;

/// Most events the sorted near run holds; later ones wait in the heap. Large enough for the
/// pending events of the bench scenarios (a few dozen), small enough that an insertion never
/// moves more than a few kilobytes.
const NEAR: usize = 64;

/// The pending events in two tiers, every key of `near` below every key of `far`:
///
/// * `near`, up to [`NEAR`] of the earliest events sorted latest-first, so the next event is
///   popped off the end with no sifting. A new event usually comes due soon (an IPI's delivery,
///   the next step of a flush), so its place is found a few entries from the end, and only
///   those few move. Profiles of a binary heap alone showed its pop (a sift through every
///   level, each waiting on the last compare) as a fifth of the run time.
/// * `far`, a binary heap for whatever does not fit: events beyond the earliest [`NEAR`] on
///   machines with many busy CPUs. It is empty in most runs.
///
/// Keys are unique (`seq` grows with every push), so the order of pops is the `(time, seq)`
/// order whatever the tiers hold: the same events pop in the same order as from one heap.
#[derive(Debug)]
pub struct Queue<E> {
    now: Ns,
    seq: u64,
    near: Vec<Entry<E>>,
    far: Heap<E>,
}

impl<E> Default for Queue<E> {
    fn default() -> Self {
        Queue {
            now: 0,
            seq: 0,
            near: Vec::new(),
            far: Heap::default(),
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
        self.insert(Entry {
            time,
            seq: self.seq,
            event,
        });
    }

    /// Puts the newest entry `e` in the tier its key belongs to, keeping every `near` key below
    /// every `far` key. Its `seq` is the largest yet, so it goes after every entry of the same
    /// time, and comparing times alone places it.
    #[inline(always)]
    fn insert(&mut self, e: Entry<E>) {
        if self.near.len() == NEAR {
            // The later half moves to the heap in one go (each is earlier than the heap's
            // earliest), so a full run costs one shift per NEAR / 2 insertions.
            for latest in self.near.drain(..NEAR / 2) {
                self.far.push(latest);
            }
        }
        if self.far.min_time().is_some_and(|m| e.time >= m) {
            return self.far.push(e);
        }
        // Entries earlier than `e` sit at the end: shift them up one by one (a handful, where a
        // `memmove` call would cost more than the moves) and put `e` in the gap.
        self.near.push(e);
        let near = &mut self.near[..];
        let mut i = near.len() - 1;
        while i > 0 && near[i - 1].time <= e.time {
            near[i] = near[i - 1];
            i -= 1;
        }
        near[i] = e;
    }

    /// Schedules `event` `delay` ns from now.
    #[inline]
    pub fn after(&mut self, delay: Ns, event: E) {
        self.at(self.now.saturating_add(delay), event);
    }

    /// Removes the earliest event and advances the clock to it.
    #[inline]
    pub fn pop(&mut self) -> Option<E> {
        let e = match self.near.pop() {
            Some(e) => e,
            None => self.far.pop()?,
        };
        self.now = e.time;
        Some(e.event)
    }

    /// Removes the earliest event if it is due at or before `limit`, and advances the clock to
    /// it; `None` when nothing is pending or the earliest event is later (it stays queued).
    /// One look at the near run where a `peek_time` and a `pop` took two.
    #[inline]
    pub fn pop_due(&mut self, limit: Ns) -> Option<E> {
        let e = match self.near.last() {
            Some(&e) if e.time <= limit => {
                self.near.pop();
                e
            }
            Some(_) => return None,
            None if self.far.min_time()? <= limit => self.far.pop()?,
            None => return None,
        };
        self.now = e.time;
        Some(e.event)
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<Ns> {
        match self.near.last() {
            Some(e) => Some(e.time),
            None => self.far.min_time(),
        }
    }

    /// Pending events (including ones that will turn out stale).
    pub fn len(&self) -> usize {
        self.near.len() + self.far.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

// ---- interleaving checker (`check/`): every pending event, and firing any one of them ----

impl<E: Copy> Clone for Queue<E> {
    fn clone(&self) -> Self {
        Queue {
            now: self.now,
            seq: self.seq,
            near: self.near.clone(),
            far: self.far.clone(),
        }
    }
}

impl<E: Copy> Queue<E> {
    /// Every pending event as `(time, seq, event)`, in no particular order.
    pub fn pending(&self) -> impl Iterator<Item = (Ns, u64, E)> + '_ {
        self.near
            .iter()
            .chain(&self.far.items)
            .map(|e| (e.time, e.seq, e.event))
    }

    /// Removes the pending event `seq`, whatever its time, and moves the clock to
    /// `max(now, its time)`: the checker lets any pending event go first, as if the others
    /// were delayed, and time never runs backwards.
    pub fn take(&mut self, seq: u64) -> Option<E> {
        let e = if let Some(i) = self.near.iter().position(|e| e.seq == seq) {
            // Removing keeps the run sorted and below the heap.
            self.near.remove(i)
        } else {
            let i = self.far.items.iter().position(|e| e.seq == seq)?;
            self.far.remove_at(i)
        };
        self.now = self.now.max(e.time);
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

    /// Pushes and pops interleaved, as the simulator does them, against a sorted reference:
    /// `pending` events at most, new ones `0..spread` ns from now (many ties when small).
    fn interleaved_against_reference(pending: usize, spread: u64) {
        let mut q = Queue::default();
        let mut reference: Vec<(u64, u64)> = Vec::new();
        let mut x: u64 = 99;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 33
        };
        let mut far_used = false;
        for id in 0..20_000u64 {
            for _ in 0..next() % 3 {
                let t = q.now() + next() % spread;
                q.at(t, id);
                reference.push((t, id));
            }
            far_used |= !q.far.items.is_empty();
            let pops = (next() % 2) as usize + reference.len().saturating_sub(pending);
            for _ in 0..pops {
                reference.sort();
                let want = (!reference.is_empty()).then(|| reference.remove(0));
                assert_eq!(q.peek_time(), want.map(|(t, _)| t));
                assert_eq!(q.pop(), want.map(|(_, id)| id));
                assert_eq!(q.len(), reference.len());
                if let Some((t, _)) = want {
                    assert_eq!(q.now(), t);
                }
            }
        }
        assert_eq!(far_used, pending > NEAR, "which tiers the test exercised");
    }

    #[test]
    fn interleaved_pushes_and_pops_match_a_sorted_reference() {
        interleaved_against_reference(40, 8);
    }

    /// More pending events than the near run holds: both tiers, and moves between them.
    #[test]
    fn a_queue_longer_than_the_near_run_keeps_the_same_order() {
        interleaved_against_reference(500, 8);
        interleaved_against_reference(500, 5_000);
    }

    /// The checker's `take` removes from either tier and leaves the rest in order.
    #[test]
    fn take_removes_one_event_from_either_tier() {
        let mut q = Queue::default();
        for i in 0..200u64 {
            q.at((i * 37) % 101, i);
        }
        assert!(!q.far.items.is_empty() && !q.near.is_empty());
        let mut rest: Vec<(u64, u64, u64)> = q.pending().collect();
        rest.sort();
        // The earliest (near) and the latest (far) pending events.
        let (first, last) = (rest[0], rest[rest.len() - 1]);
        assert_eq!(q.take(last.1), Some(last.2));
        assert_eq!(q.now(), last.0);
        assert_eq!(q.take(first.1), Some(first.2));
        assert_eq!(q.take(first.1), None);
        let want: Vec<u64> = rest[1..rest.len() - 1].iter().map(|r| r.2).collect();
        let got: Vec<u64> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(got, want);
    }

    /// `pop_due` pops what `pop` would while the earliest event is due, from either tier, and
    /// leaves a later one queued with the clock where it was.
    #[test]
    fn pop_due_stops_at_the_limit_and_keeps_the_later_event() {
        let mut q = Queue::default();
        for i in 0..200u64 {
            q.at((i * 37) % 101, i);
        }
        let mut r = q.clone();
        assert!(!q.far.items.is_empty());
        let mut got = Vec::new();
        while let Some(e) = q.pop_due(60) {
            got.push(e);
        }
        let mut want = Vec::new();
        while r.peek_time().is_some_and(|t| t <= 60) {
            want.push(r.pop().unwrap());
        }
        assert_eq!(got, want);
        assert_eq!(q.now(), r.now());
        assert_eq!(q.peek_time(), Some(61));
        assert_eq!(q.len(), r.len());
        // Only the heap left: it answers too.
        let mut h: Queue<u64> = Queue::default();
        for i in 0..(NEAR as u64 + 10) {
            h.at(1000 - i, i);
        }
        while !h.near.is_empty() {
            h.near.pop();
        }
        let t = h.far.min_time().unwrap();
        assert_eq!(h.pop_due(t - 1), None);
        assert!(h.pop_due(t).is_some());
        assert_eq!(h.now(), t);
        assert_eq!(Queue::<u64>::default().pop_due(u64::MAX), None);
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

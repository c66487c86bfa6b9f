//! The discrete-event core: a clock and the pending events ordered by `(time, seq)`. `seq` is
//! a global insertion counter, so events at the same nanosecond run in the order they were
//! scheduled — never in an order that depends on how the queue keeps them. The engine is
//! sans-IO: callers pop events and hand them to the machine; nothing reads a clock.

use crate::ids::Ns;

mod entry;
mod ghosts;
mod heap;

use entry::Entry;
use ghosts::Ghosts;
use heap::Heap;

/// Most events the sorted near run holds; later ones wait in the heap. Large enough for the
/// pending events of the bench scenarios (a few dozen), small enough that an insertion never
/// moves more than a few kilobytes. (The run spills when its allocation is full, and is grown
/// to NEAR at most, so it holds NEAR unless the allocator hands out more than asked for.)
const NEAR: usize = 64;

/// The pending events in two tiers, every key of `near` below every key of `far`, and a third
/// run of superseded events beside them:
///
/// * `near`, up to [`NEAR`] of the earliest events sorted latest-first, so the next event is
///   popped off the end with no sifting. A new event usually comes due soon (an IPI's delivery,
///   the next step of a flush), so its place is found a few entries from the end, and only
///   those few move. Profiles of a binary heap alone showed its pop (a sift through every
///   level, each waiting on the last compare) as a fifth of the run time.
/// * `far`, a binary heap for whatever does not fit: events beyond the earliest [`NEAR`] on
///   machines with many busy CPUs. It is empty in most runs.
/// * `ghosts`, events the caller declared superseded ([`Queue::reschedule`]): they still pop
///   at their own `(time, seq)`, as if they had stayed where they were, but they no longer sit
///   in `near`, where every insertion of an earlier event had to shift them. (In the bench run
///   three in five pending entries were a task's step superseded by an interrupt handler,
///   each waiting tens of microseconds to pop and be dropped.)
///
/// Keys are unique (`seq` grows with every push), so the order of pops is the `(time, seq)`
/// order whatever the tiers hold: the same events pop in the same order as from one heap.
#[derive(Debug)]
pub struct Queue<E> {
    now: Ns,
    seq: u64,
    near: Vec<Entry<E>>,
    far: Heap<E>,
    ghosts: Ghosts<E>,
    /// Events due after it are not popped ([`Queue::set_limit`]).
    limit: Ns,
    /// The earliest ghost's time or `limit + 1`, whichever is earlier: the one number a pop
    /// compares the end of `near` against before taking it (two compares, of the limit and
    /// of the earliest ghost, before).
    due_before: Ns,
}

impl<E> Default for Queue<E> {
    fn default() -> Self {
        Queue {
            now: 0,
            seq: 0,
            near: Vec::new(),
            far: Heap::default(),
            ghosts: Ghosts::default(),
            limit: Ns::MAX,
            due_before: Ns::MAX,
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
        // One test for the rare cases (`far` is empty in most runs, so `earliest` is
        // `Ns::MAX`), whose work is kept out of every caller of `at`. A full run is one whose
        // allocation is: the test `push` makes anyway, which LLVM then drops.
        if e.time >= self.far.earliest || self.near.len() == self.near.capacity() {
            return self.insert_cold(e.time, e.seq, e.event);
        }
        // Entries earlier than `e` sit at the end: shift them up one by one (a handful, where a
        // `memmove` call would cost more than the moves) and put `e` in the gap.
        self.near.push(e);
        Self::settle(&mut self.near, e);
    }

    /// `insert` when `near` is full or the entry belongs in `far`. (Its fields are passed one
    /// by one: passed whole, the entry went through the stack in every caller of `at`.)
    #[cold]
    #[inline(never)]
    fn insert_cold(&mut self, time: Ns, seq: u64, event: E) {
        let n = self.near.len();
        if n >= NEAR {
            self.spill();
        } else if n == self.near.capacity() {
            // Growing as `push` would, up to NEAR: the checker's clones (allocated to their
            // length) stay small.
            self.near.reserve_exact((2 * n).clamp(4, NEAR) - n);
        }
        let e = Entry { time, seq, event };
        if time >= self.far.earliest {
            return self.far.push(e);
        }
        self.near.push(e);
        Self::settle(&mut self.near, e);
    }

    /// Moves the hole at the end of `run` towards its front past every entry due no later
    /// than `e`, and puts `e` in it. (Walking references rather than indices leaves no bounds
    /// checks in the loop: indexed, it had one or two per entry moved. Each entry is copied
    /// out whole before its time is compared, so the loop moves it from registers with no
    /// second address to compute: eight instructions an entry natively, where it took 11.)
    #[inline(always)]
    fn settle(run: &mut [Entry<E>], e: Entry<E>) {
        let Some((mut hole, rest)) = run.split_last_mut() else {
            return;
        };
        for slot in rest.iter_mut().rev() {
            let s = *slot;
            if s.time > e.time {
                break;
            }
            *hole = s;
            hole = slot;
        }
        *hole = e;
    }

    /// The later half of a full `near` moves to the heap in one go (each is earlier than the
    /// heap's earliest), so a full run costs one shift per NEAR / 2 insertions. Out of line:
    /// inlined, its unrolled loop was copied into every caller of `at`.
    #[cold]
    #[inline(never)]
    fn spill(&mut self) {
        for latest in self.near.drain(..NEAR / 2) {
            self.far.push(latest);
        }
    }

    /// Schedules `event` at `time` in place of the pending `old` event due at `old_time`, which
    /// is superseded: `old` still pops at its own time and place in the order (the caller's
    /// `handle` drops it, as it would have), but from `ghosts`. The new entry takes the slot
    /// `old` leaves in `near` and moves up past the few entries due between the two times,
    /// where scheduling it afresh shifted every entry due before it. Pops, their order, their
    /// count and `len` are those of `at(time, event)` leaving `old` queued; only where the
    /// entries are kept differs. If `old` is not in `near` (it already popped, or waits in
    /// `far`), or `time` is earlier, this is `at(time, event)`.
    #[inline]
    pub fn reschedule(&mut self, old_time: Ns, old: E, time: Ns, event: E)
    where
        E: PartialEq,
    {
        let time = time.max(self.now);
        self.seq += 1;
        let e = Entry {
            time,
            seq: self.seq,
            event,
        };
        // Anything due before now has popped (the checker's `take` aside, which then leaves
        // `old` where it is): no need to look for it.
        if old_time < self.now {
            return self.insert(e);
        }
        // Latest first: `old` sits after the entries due later than it.
        let near = &mut self.near[..];
        let mut p = 0;
        while p < near.len() && near[p].time > old_time {
            p += 1;
        }
        while p < near.len() && near[p].time == old_time && near[p].event != old {
            p += 1;
        }
        let beyond_near = time >= self.far.earliest;
        if time < old_time || beyond_near || p == near.len() || near[p].time != old_time {
            return self.insert(e);
        }
        let ghost = near[p];
        // Entries between the two times (later than `old`, not later than `e`) move down one.
        Self::settle(&mut near[..=p], e);
        self.ghosts.push(ghost);
        self.ghosts_moved();
    }

    /// Schedules `event` `delay` ns from now.
    #[inline]
    pub fn after(&mut self, delay: Ns, event: E) {
        self.at(self.now.saturating_add(delay), event);
    }

    /// Events due after `limit` stay queued: `pop_due` returns `None` before them.
    pub fn set_limit(&mut self, limit: Ns) {
        self.limit = limit;
        self.ghosts_moved();
    }

    /// The earliest ghost may have changed.
    fn ghosts_moved(&mut self) {
        self.due_before = self.ghosts.earliest.min(self.limit.saturating_add(1));
    }

    /// Removes the earliest event if it is due no later than the limit, and advances the clock
    /// to it; `None` when nothing is pending or the earliest event is later (it stays queued).
    /// One look at the near run where a `peek_time` and a `pop` took two, and one compare
    /// (`due_before`). Pops first and puts back the rare entry not due yet or behind a ghost:
    /// looking at the last entry and then popping it recomputed its address.
    #[inline]
    pub fn pop_due(&mut self) -> Option<E> {
        let e = match self.near.pop() {
            Some(e) if e.time < self.due_before => e,
            taken => {
                if let Some(e) = taken {
                    self.near.push(e);
                }
                self.pop_due_slow(self.limit)?
            }
        };
        self.now = e.time;
        Some(e.event)
    }

    /// `pop_due` when `near` is empty, its next entry is late, or a ghost may come first: the
    /// smallest key of the three tiers.
    fn pop_due_slow(&mut self, limit: Ns) -> Option<Entry<E>> {
        let live = self.near.last().or(self.far.items.first()).map(Entry::key);
        let ghost = self.ghosts.min_key();
        let from_ghost = match (live, ghost) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(l), Some(g)) => g < l,
        };
        let e = if from_ghost {
            if self.ghosts.earliest > limit {
                return None;
            }
            let e = self.ghosts.pop()?;
            self.ghosts_moved();
            e
        } else {
            match self.near.last() {
                Some(&e) if e.time <= limit => {
                    self.near.pop();
                    e
                }
                Some(_) => return None,
                None if self.far.earliest <= limit => self.far.pop()?,
                None => return None,
            }
        };
        Some(e)
    }

    /// Time of the earliest pending event.
    pub fn peek_time(&self) -> Option<Ns> {
        let live = match self.near.last() {
            Some(e) => Some(e.time),
            None => self.far.min_time(),
        };
        match (live, self.ghosts.min_time()) {
            (Some(l), Some(g)) => Some(l.min(g)),
            (l, g) => l.or(g),
        }
    }

    /// Pending events (including ones that will turn out stale).
    pub fn len(&self) -> usize {
        self.near.len() + self.far.items.len() + self.ghosts.live().len()
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
            ghosts: self.ghosts.clone(),
            limit: self.limit,
            due_before: self.due_before,
        }
    }

    /// Into the target's buffers (the interleaving checker copies a world per transition,
    /// `clone_reusing.rs`). `near` may keep more capacity than a fresh clone's: that changes
    /// only which tier an event waits in, never the `(time, seq)` order events pop in.
    fn clone_from(&mut self, source: &Self) {
        let Queue {
            now,
            seq,
            near,
            far,
            ghosts,
            limit,
            due_before,
        } = self;
        *now = source.now;
        *seq = source.seq;
        near.clone_from(&source.near);
        far.clone_from(&source.far);
        ghosts.clone_from(&source.ghosts);
        *limit = source.limit;
        *due_before = source.due_before;
    }
}

impl<E: Copy> Queue<E> {
    /// Every pending event as `(time, seq, event)`, in no particular order.
    pub fn pending(&self) -> impl Iterator<Item = (Ns, u64, E)> + '_ {
        self.near
            .iter()
            .chain(&self.far.items)
            .chain(self.ghosts.live())
            .map(|e| (e.time, e.seq, e.event))
    }

    /// Removes the pending event `seq`, whatever its time, and moves the clock to
    /// `max(now, its time)`: the checker lets any pending event go first, as if the others
    /// were delayed, and time never runs backwards.
    pub fn take(&mut self, seq: u64) -> Option<E> {
        let e = if let Some(i) = self.near.iter().position(|e| e.seq == seq) {
            // Removing keeps the run sorted and below the heap.
            self.near.remove(i)
        } else if let Some(i) = self.far.items.iter().position(|e| e.seq == seq) {
            self.far.remove_at(i)
        } else {
            let i = self.ghosts.live().iter().position(|e| e.seq == seq)?;
            let e = self.ghosts.remove_at(i);
            self.ghosts_moved();
            e
        };
        self.now = self.now.max(e.time);
        Some(e.event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl<E: Copy> Queue<E> {
        /// Removes the earliest event, whatever the limit was.
        fn pop(&mut self) -> Option<E> {
            self.pop_by(Ns::MAX)
        }

        fn pop_by(&mut self, limit: Ns) -> Option<E> {
            self.set_limit(limit);
            self.pop_due()
        }
    }

    /// A small LCG of the tests' own (the sequences the tests were written against), so that
    /// they need no RNG state from the simulator.
    fn lcg(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed;
        move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 33
        }
    }

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
        let mut next = lcg(12345);
        let mut want = Vec::new();
        for i in 0..1000u64 {
            let t = next() % 50;
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
        let mut next = lcg(99);
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
        while let Some(e) = q.pop_by(60) {
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
        assert_eq!(h.pop_by(t - 1), None);
        assert!(h.pop_by(t).is_some());
        assert_eq!(h.now(), t);
        assert_eq!(Queue::<u64>::default().pop_by(u64::MAX), None);
    }

    /// `reschedule` against a queue that schedules the new event afresh and leaves the old one
    /// queued: the same events pop in the same order at the same times, `len` and `peek_time`
    /// agree throughout, with reschedules of events in `near`, in `far`, already popped, and to
    /// the same time, and with `pop_due` limits that stop short of a ghost.
    #[test]
    fn reschedule_pops_as_scheduling_afresh_would() {
        for pending in [20usize, 300] {
            let mut q: Queue<u64> = Queue::default();
            let mut r: Queue<u64> = Queue::default();
            // Each id's latest time, as the caller knows its deadline.
            let mut due: Vec<Option<u64>> = Vec::new();
            let mut next = lcg(7);
            let mut ghosts_used = false;
            for round in 0..30_000u64 {
                match next() % 4 {
                    0 | 1 => {
                        let t = q.now() + next() % 50;
                        let id = due.len() as u64;
                        due.push(Some(t));
                        q.at(t, id);
                        r.at(t, id);
                    }
                    2 if !due.is_empty() => {
                        let old = next() as usize % due.len();
                        if let Some(d) = due[old] {
                            let t = d + next() % 20;
                            let id = due.len() as u64;
                            due.push(Some(t));
                            q.reschedule(d, old as u64, t, id);
                            r.at(t, id);
                            ghosts_used |= !q.ghosts.live().is_empty();
                        }
                    }
                    _ => {}
                }
                let pops = (next() % 2) as usize + r.len().saturating_sub(pending);
                for _ in 0..pops {
                    let limit = if round % 7 == 0 {
                        q.now() + 3
                    } else {
                        u64::MAX
                    };
                    assert_eq!(q.peek_time(), r.peek_time());
                    let got = q.pop_by(limit);
                    assert_eq!(got, r.pop_by(limit));
                    assert_eq!((q.now(), q.len()), (r.now(), r.len()));
                    if let Some(id) = got {
                        due[id as usize] = None;
                    }
                }
            }
            while let Some(id) = r.pop() {
                assert_eq!(q.pop(), Some(id));
            }
            assert_eq!(q.pop(), None);
            assert!(ghosts_used, "the test moved events to the ghosts");
        }
    }

    /// The checker sees a ghost among the pending events and can take it.
    #[test]
    fn ghosts_are_pending_and_can_be_taken() {
        let mut q = Queue::default();
        q.at(10, 1u64);
        q.at(20, 2);
        q.reschedule(10, 1, 15, 3);
        let mut pending: Vec<(u64, u64, u64)> = q.pending().collect();
        pending.sort();
        assert_eq!(pending, [(10, 1, 1), (15, 3, 3), (20, 2, 2)]);
        assert_eq!(q.take(1), Some(1));
        assert_eq!(q.now(), 10);
        assert_eq!(q.len(), 2);
        assert_eq!(q.pop(), Some(3));
        assert_eq!(q.pop(), Some(2));
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

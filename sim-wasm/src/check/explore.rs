//! Breadth-first search over interleavings. Every state's successors are the world after each
//! enabled event fires first (`order::choices` / `World::fire`, the simulator's own
//! transitions). Breadth-first, so the first violation found has the fewest steps; states are
//! merged by `key::state_key`. The search advances in budgets of transitions so a caller (the
//! CLI, a Web Worker) can report progress and cancel between them; it reads no clock (wasm32
//! has none), callers time it.
//!
//! With partial-order reduction (`Reduce::Por`) each state carries a *sleep set*: events
//! already fired from an ancestor, independent (`por.rs`) of every step taken since, whose
//! successor here is reached along the other order at the same depth, so they are not fired
//! again. A state reached again along another path keeps only the events asleep on both
//! paths; if it was already expanded, the events that were asleep before but are not now are
//! fired from it then (a re-expansion), so no successor is lost to merging.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use super::por::{event_id, footprint, Footprint};
use super::symmetry::Symmetry;
use crate::machine::World;

/// The visited set's hasher: its keys are already uniform 128-bit hashes, so their low word
/// is the bucket hash (and, having no random seed, the set is the same on every run).
#[derive(Default)]
struct LowWord(u64);

impl Hasher for LowWord {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u128(&mut self, i: u128) {
        self.0 = i as u64;
    }
}

/// Choice buffers kept for reuse at most (`Search::spare_choices`).
const SPARE_CHOICES: usize = 64;

/// Each state's key and its node (the first that reached it).
type Seen = HashMap<u128, u32, BuildHasherDefault<LowWord>>;

/// Which reductions the search applies (state merging always).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// Every enabled event is fired from every state.
    None,
    /// Sleep sets over independent events (`por.rs`).
    Por,
    /// States equal up to a renaming of interchangeable CPUs are one (`symmetry.rs`).
    Sym,
    /// Both.
    All,
}

impl Reduce {
    /// `none`, `por`, `sym` or `all` (every reduction there is).
    pub fn parse(s: &str) -> Option<Reduce> {
        match s {
            "none" => Some(Reduce::None),
            "por" => Some(Reduce::Por),
            "sym" => Some(Reduce::Sym),
            "all" => Some(Reduce::All),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Reduce::None => "none",
            Reduce::Por => "por",
            Reduce::Sym => "sym",
            Reduce::All => "all",
        }
    }

    pub fn por(self) -> bool {
        matches!(self, Reduce::Por | Reduce::All)
    }

    pub fn sym(self) -> bool {
        matches!(self, Reduce::Sym | Reduce::All)
    }
}

/// Where the search stops without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Distinct states at most (each costs about 100 bytes of search bookkeeping besides the
    /// frontier's worlds, which `max_frontier_bytes` bounds).
    pub max_states: u64,
    /// Steps (fired events) along one interleaving at most.
    pub max_steps: u32,
    /// Bytes of worlds the frontier keeps (beyond that it keeps paths and replays them), its
    /// spare worlds counted in.
    pub max_frontier_bytes: u64,
    pub reduce: Reduce,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: 1_000_000,
            max_steps: 400,
            // A browser tab's WASM memory is the tighter budget.
            max_frontier_bytes: if cfg!(target_arch = "wasm32") {
                96 << 20
            } else {
                512 << 20
            },
            reduce: Reduce::All,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    States,
    Steps,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Still searching.
    Running,
    /// Every interleaving up to the end of the scenario keeps every invariant.
    Holds,
    /// Node `n` is the first state (in BFS order) with a violation.
    Violated(u32),
    /// A limit stopped the search with no violation found so far.
    BoundReached(Bound),
}

/// How a state was reached: its parent and which enabled event (index into the parent's
/// `enabled_events`) fired.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    choice: u16,
    depth: u32,
}

/// The choices at a state (`order::choices`).
type Choices = Vec<(crate::ids::Ns, u64, crate::machine::Ev)>;

/// A state to expand: its node, its world while the frontier has room for it (boxed: a world
/// is some 2 KB, moved in and out of the frontier and the spares), the choices its key was
/// computed from, its bytes as counted when it was queued, and with a re-expansion the only
/// events to fire.
struct Item {
    id: u32,
    world: Option<(Box<World>, Choices, u64)>,
    only: Option<Vec<u64>>,
}

pub struct Search {
    init: World,
    nodes: Vec<Node>,
    /// States to expand, with their world while the frontier's worlds fit in
    /// `max_frontier_bytes`; past that only the node is kept and its world is rebuilt by
    /// replaying its path from the initial state (slower, but memory stays bounded by the
    /// state cap, a few dozen bytes a state).
    frontier: VecDeque<Item>,
    frontier_bytes: u64,
    seen: Seen,
    /// Per node, its sleep set (`event_id`s) and whether it was expanded (POR only).
    sleep: Vec<Vec<u64>>,
    expanded: Vec<bool>,
    /// The scenario's interchangeable CPUs, and per node the renaming that gave its key
    /// (symmetry only).
    symmetry: Symmetry,
    perm: Vec<u8>,
    /// Worlds whose state was merged or expanded, kept to copy the next ones into: a copy
    /// into a recycled world reuses its buffers (`clone_reusing.rs`) instead of allocating.
    /// Kept while they and the frontier's worlds fit in `max_frontier_bytes` together: the
    /// frontier grows and shrinks level by level, and with a few dozen spares kept every
    /// world it outgrew them by was freed, then allocated afresh (a world is some 40
    /// buffers) when it grew again: a tenth of a proof's instructions went to `malloc` and
    /// `free`. So no more memory is held than a frontier of the budget would hold.
    // Boxed as in the frontier: a world passes between the two, and a box moves as a pointer.
    spare: Vec<(Box<World>, u64)>,
    spare_bytes: u64,
    /// Choice lists of merged or expanded states, and the expansion's scratch lists, kept to
    /// fill again instead of allocating one per transition.
    spare_choices: Vec<Choices>,
    scratch_fired: Vec<usize>,
    scratch_asleep: Vec<(u64, Footprint)>,
    limits: Limits,
    pub transitions: u64,
    pub max_depth: u32,
    /// States where no event can fire but some task has not finished (a hang).
    pub stuck: u64,
    pub verdict: Verdict,
    /// A state at the step bound that could still go on: the answer is then "up to the bound".
    cut_by_steps: bool,
}

impl Search {
    pub fn new(init: World, limits: Limits) -> Search {
        let symmetry = Symmetry::of(&init);
        // Search states keep no trace rows (nothing reads them; a counterexample is replayed
        // from `init`, which records).
        let mut root = init.clone();
        root.mute_trace();
        let bytes = root.used_bytes();
        let root_choices = super::order::choices(&root);
        let mut s = Search {
            nodes: vec![Node {
                parent: 0,
                choice: 0,
                depth: 0,
            }],
            frontier: VecDeque::from([Item {
                id: 0,
                world: Some((Box::new(root), root_choices, bytes)),
                only: None,
            }]),
            sleep: vec![Vec::new()],
            expanded: vec![false],
            symmetry,
            perm: vec![0],
            spare: Vec::new(),
            spare_bytes: 0,
            spare_choices: Vec::new(),
            scratch_fired: Vec::new(),
            scratch_asleep: Vec::new(),
            frontier_bytes: bytes,
            init,
            seen: Seen::default(),
            limits,
            transitions: 0,
            max_depth: 0,
            stuck: 0,
            verdict: Verdict::Running,
            cut_by_steps: false,
        };
        s.seed_seen();
        if s.init.stats.violation_count > 0 {
            s.verdict = Verdict::Violated(0);
        }
        s
    }

    /// The visited set holds the initial state, under the key the reductions use.
    fn seed_seen(&mut self) {
        let (key, perm) = self.key(&self.init, &super::order::choices(&self.init));
        self.seen.clear();
        self.seen.insert(key, 0);
        self.perm[0] = perm;
    }

    fn key(&self, w: &World, choices: &[(crate::ids::Ns, u64, crate::machine::Ev)]) -> (u128, u8) {
        if self.limits.reduce.sym() {
            self.symmetry.key(w, choices)
        } else {
            (super::key::state_key_with(w, choices), 0)
        }
    }

    /// The reductions that act on this scenario: `none`, `por`, `sym` or `por+sym` (symmetry
    /// only where the scenario has interchangeable CPUs).
    pub fn applied(&self) -> &'static str {
        let sym = self.limits.reduce.sym() && self.symmetry.applies();
        match (self.limits.reduce.por(), sym) {
            (false, false) => "none",
            (true, false) => "por",
            (false, true) => "sym",
            (true, true) => "por+sym",
        }
    }

    /// The classes of interchangeable CPUs the symmetry found (whether or not it is on).
    pub fn symmetric_cpus(&self) -> &[Vec<u16>] {
        &self.symmetry.classes
    }

    pub fn set_reduce(&mut self, r: Reduce) {
        self.limits.reduce = r;
        self.seed_seen();
    }

    pub fn states(&self) -> u64 {
        self.nodes.len() as u64
    }

    pub fn initial(&self) -> &World {
        &self.init
    }

    /// The choices from the initial state to node `n`.
    pub fn path_to(&self, mut n: u32) -> Vec<u16> {
        let mut path = Vec::new();
        while n != 0 {
            let node = self.nodes[n as usize];
            path.push(node.choice);
            n = node.parent;
        }
        path.reverse();
        path
    }

    /// The world of node `n`, replayed from the initial state (into a spare world's buffers).
    fn rebuild(&mut self, n: u32) -> Box<World> {
        let mut w = match self.take_spare() {
            Some(mut w) => {
                (*w).clone_from(&self.init);
                w
            }
            None => Box::new(self.init.clone()),
        };
        w.mute_trace();
        for c in self.path_to(n) {
            if let Some(&(_, seq, _)) = super::order::choices(&w).get(c as usize) {
                w.fire(seq);
            }
        }
        w
    }

    /// Expands states until about `budget` transitions were tried or the search ended.
    /// Returns true when it has a verdict.
    pub fn run_for(&mut self, budget: u64) -> bool {
        let mut left = budget;
        let por = self.limits.reduce.por();
        let sym = self.limits.reduce.sym();
        while self.verdict == Verdict::Running && left > 0 {
            let Some(Item { id, world, only }) = self.frontier.pop_front() else {
                self.verdict = if self.cut_by_steps {
                    Verdict::BoundReached(Bound::Steps)
                } else {
                    Verdict::Holds
                };
                break;
            };
            let (w, enabled) = match world {
                Some((w, choices, bytes)) => {
                    self.frontier_bytes = self.frontier_bytes.saturating_sub(bytes);
                    (w, choices)
                }
                None => {
                    let w = self.rebuild(id);
                    let mut choices = self.choices_buf();
                    super::order::choices_into(&w, &mut choices);
                    (w, choices)
                }
            };
            let depth = self.nodes[id as usize].depth;
            if enabled.is_empty() {
                if w.has_unfinished_tasks() && only.is_none() {
                    self.stuck += 1;
                }
                self.recycle(w);
                self.recycle_choices(enabled);
                continue;
            }
            if depth >= self.limits.max_steps {
                self.cut_by_steps = true;
                self.recycle(w);
                self.recycle_choices(enabled);
                continue;
            }
            // The events asleep here, with their footprints; then each one fired, in turn:
            // a child's sleep set is those of them independent of the event that made it.
            let mut asleep = std::mem::take(&mut self.scratch_asleep);
            asleep.clear();
            if por {
                self.expanded[id as usize] = true;
                let sleep = &self.sleep[id as usize];
                for &(_, _, e) in &enabled {
                    let eid = event_id(e);
                    if sleep.contains(&eid) && !asleep.iter().any(|&(x, _)| x == eid) {
                        asleep.push((eid, footprint(&w, e)));
                    }
                }
            }
            let mut fired = std::mem::take(&mut self.scratch_fired);
            fired.clear();
            fired.extend((0..enabled.len()).filter(|&i| {
                !por || {
                    let eid = event_id(enabled[i].2);
                    match &only {
                        Some(only) => only.contains(&eid),
                        None => !self.sleep[id as usize].contains(&eid),
                    }
                }
            }));
            // The last event fired takes the parent's world instead of a copy: nothing reads
            // the parent after it, and a copy per expanded state is a third of all copies.
            let mut parent = Some(w);
            for (k, &i) in fired.iter().enumerate() {
                let (_, seq, ev) = enabled[i];
                let Some(w) = parent.as_ref() else { break };
                let (eid, fp) = if por {
                    (event_id(ev), footprint(w, ev))
                } else {
                    (0, Footprint::NONE)
                };
                left = left.saturating_sub(1);
                self.transitions += 1;
                let mut next = if k + 1 == fired.len() {
                    match parent.take() {
                        Some(w) => w,
                        None => break,
                    }
                } else {
                    self.copy_of(w)
                };
                next.fire(seq);
                let child_sleep: Vec<u64> = asleep
                    .iter()
                    .filter(|&&(u, fu)| u != eid && fu.independent(fp))
                    .map(|&(u, _)| u)
                    .collect();
                if por && only.is_none() && !asleep.iter().any(|&(x, _)| x == eid) {
                    asleep.push((eid, fp));
                }
                // Violations live in the statistics, outside the key: test before merging, so
                // a violating step into an already seen state is not lost.
                let violated = next.stats.violation_count > 0;
                let mut next_choices = self.choices_buf();
                super::order::choices_into(&next, &mut next_choices);
                let (key, perm) = self.key(&next, &next_choices);
                let n = self.nodes.len() as u32;
                if let Some(&m) = self.seen.get(&key) {
                    if !violated {
                        if por {
                            // A sleep set names events of its own state: merged into a renamed
                            // copy of it, the path covers nothing there (all of `m` re-fires).
                            let renamed = sym && perm != self.perm[m as usize];
                            self.merge_sleep(m, if renamed { Vec::new() } else { child_sleep });
                        }
                        self.recycle(next);
                        self.recycle_choices(next_choices);
                        continue;
                    }
                } else {
                    self.seen.insert(key, n);
                }
                self.nodes.push(Node {
                    parent: id,
                    choice: i.min(u16::MAX as usize) as u16,
                    depth: depth + 1,
                });
                if por {
                    self.sleep.push(child_sleep);
                    self.expanded.push(false);
                }
                if sym {
                    self.perm.push(perm);
                }
                self.max_depth = self.max_depth.max(depth + 1);
                if violated {
                    self.verdict = Verdict::Violated(n);
                    return true;
                }
                if self.nodes.len() as u64 >= self.limits.max_states {
                    self.verdict = Verdict::BoundReached(Bound::States);
                    return true;
                }
                self.push(n, Some((next, next_choices)), None);
            }
            // A fired event's child may have taken the parent's world; the lists go back.
            if let Some(w) = parent {
                self.recycle(w);
            }
            self.recycle_choices(enabled);
            self.scratch_fired = fired;
            self.scratch_asleep = asleep;
        }
        self.verdict != Verdict::Running
    }

    /// Queues node `n` with its world if the frontier has room for it.
    fn push(&mut self, n: u32, world: Option<(Box<World>, Choices)>, only: Option<Vec<u64>>) {
        let world = match world {
            Some((w, c)) => {
                let bytes = w.used_bytes();
                if self.frontier_bytes + bytes <= self.limits.max_frontier_bytes {
                    self.frontier_bytes += bytes;
                    Some((w, c, bytes))
                } else {
                    self.recycle(w);
                    self.recycle_choices(c);
                    None
                }
            }
            None => None,
        };
        self.frontier.push_back(Item { id: n, world, only });
    }

    /// A copy of `w`, made in a recycled world's buffers when there is one.
    fn copy_of(&mut self, w: &World) -> Box<World> {
        match self.take_spare() {
            Some(mut s) => {
                (*s).clone_from(w);
                s
            }
            None => Box::new(w.clone()),
        }
    }

    fn take_spare(&mut self) -> Option<Box<World>> {
        let (w, bytes) = self.spare.pop()?;
        self.spare_bytes -= bytes;
        Some(w)
    }

    /// Keeps `w` to copy into while it fits in the frontier's budget (see `spare`).
    fn recycle(&mut self, w: Box<World>) {
        let bytes = w.used_bytes();
        if self.frontier_bytes + self.spare_bytes + bytes <= self.limits.max_frontier_bytes {
            self.spare_bytes += bytes;
            self.spare.push((w, bytes));
        }
    }

    /// An empty choice list, reusing a spare one's buffer when there is one.
    fn choices_buf(&mut self) -> Choices {
        self.spare_choices.pop().unwrap_or_default()
    }

    fn recycle_choices(&mut self, c: Choices) {
        if self.spare_choices.len() < SPARE_CHOICES {
            self.spare_choices.push(c);
        }
    }

    /// Node `m` was reached again along a path whose sleep set is `path_sleep`: only the
    /// events asleep on every path to it may stay asleep. If `m` was already expanded, the
    /// events it skipped that this path does not cover are fired from it now.
    fn merge_sleep(&mut self, m: u32, path_sleep: Vec<u64>) {
        let sleep = &mut self.sleep[m as usize];
        if sleep.is_empty() {
            return;
        }
        let missing: Vec<u64> = sleep
            .iter()
            .copied()
            .filter(|e| !path_sleep.contains(e))
            .collect();
        if missing.is_empty() {
            return;
        }
        sleep.retain(|e| path_sleep.contains(e));
        if self.expanded[m as usize] {
            self.push(m, None, Some(missing));
        }
    }
}

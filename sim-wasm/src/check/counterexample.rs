//! The shortest violating interleaving, replayed through the simulator into a normal world
//! (so its trace is an ordinary timeline), with each step labelled, the steps that overtook an
//! earlier event numbered, and a narration of what broke and which step made it possible.

use serde::Serialize;

use crate::events::EventKind;
use crate::ids::Ns;
use crate::machine::{Arch as _, Event, World};

/// One fired event of the counterexample.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Step {
    /// 1-based position in the interleaving.
    pub n: u32,
    pub cpu: u16,
    pub time_ns: f64,
    /// What happened, from the event and the trace rows it wrote.
    pub label: String,
    /// Trace rows this step wrote: `[first, end)`.
    pub rows: [u32; 2],
    /// Set when the step went ahead of an event that was due earlier and fires later in the
    /// interleaving (the two are in the opposite order to a normal run's): its number among
    /// such racing steps, from 1.
    pub race: Option<u32>,
    /// The event it overtook.
    pub overtook: Option<String>,
    /// A checker choice moved a preempted task to another CPU here: a move the scheduler may
    /// make, which a seeded run makes only when its load balancing happens to.
    #[serde(skip)]
    pub migrates: bool,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Counterexample {
    /// Which enabled event fired at each step (index into the state's enabled events in
    /// `(time, seq)` order): replaying these from the scenario reproduces the run.
    pub path: Vec<u16>,
    pub steps: Vec<Step>,
    pub invariant: String,
    pub detail: String,
    pub cpu: u16,
    /// The step whose event broke the invariant, and the step that enabled it: the last
    /// migration the search chose, else the last racing step.
    pub violation_step: u32,
    pub enabling_step: Option<u32>,
    pub narration: String,
}

fn who(w: &World, ev: Event) -> (u16, String) {
    match ev {
        Event::Step { task, .. } | Event::Wake { task, .. } => {
            let t = &w.tasks[task as usize];
            (t.cpu.0, format!("\"{}\"", t.name))
        }
        Event::IpiArrive { cpu, .. } => (cpu, format!("the IPI to CPU {cpu}")),
        Event::HandlerNext { cpu } => (cpu, format!("CPU {cpu}'s IPI handler")),
        Event::ArchTimer { cpu, data } => {
            (cpu, format!("CPU {cpu}'s {}", w.arch.timer_label(data).0))
        }
        Event::Migrate { task, cpu } => (cpu, format!("\"{}\"", w.tasks[task as usize].name)),
    }
}

fn kind_name(code: u8) -> String {
    EventKind::ALL
        .iter()
        .find(|k| **k as u8 == code)
        .map_or_else(|| format!("kind {code}"), |k| format!("{k:?}"))
}

fn label(w: &World, ev: Event, from: usize) -> String {
    let (_, name) = who(w, ev);
    let verb = match ev {
        Event::Step { .. } => "steps".to_string(),
        Event::Wake { .. } => "wakes".to_string(),
        Event::IpiArrive { .. } => "arrives".to_string(),
        Event::HandlerNext { .. } => "goes on".to_string(),
        Event::ArchTimer { data, .. } => w.arch.timer_label(data).1.to_string(),
        Event::Migrate { cpu, .. } => format!("is migrated to CPU {cpu}"),
    };
    let mut kinds: Vec<String> = Vec::new();
    for i in from..w.trace.len() {
        let k = kind_name(w.trace.kind(i));
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    if kinds.is_empty() {
        format!("{name} {verb}")
    } else {
        format!("{name} {verb}: {}", kinds.join(", "))
    }
}

/// Replays `path` from `init`, stopping before the first step that would fire after `until`
/// (`Ns::MAX`: the whole path). Steps the path names that do not exist are ignored (a
/// damaged path from a link replays as far as it is valid).
pub fn replay(init: &World, path: &[u16], until: Ns) -> (World, Vec<Step>) {
    let mut w = init.clone();
    let mut steps = Vec::with_capacity(path.len());
    // (step index, seq of the event it overtook) and the seqs that fired, to keep only the
    // overtakings of events that also happen: the two events' order is then inverted.
    let mut overtaken: Vec<(usize, u64)> = Vec::new();
    let mut fired: Vec<u64> = Vec::new();
    for (i, &choice) in path.iter().enumerate() {
        let enabled = super::order::choices(&w);
        let Some(&(time, seq, ev)) = enabled.get(choice as usize) else {
            break;
        };
        if time.max(w.now()) > until {
            break;
        }
        let ev = ev.unpack();
        let overtook = (choice > 0).then(|| {
            let (_, _, first) = enabled[0];
            let (_, name) = who(&w, first.unpack());
            format!("{name}, due at {} ns", enabled[0].0)
        });
        let from = w.trace.len();
        let (cpu, _) = who(&w, ev);
        w.fire(seq);
        fired.push(seq);
        if overtook.is_some() {
            overtaken.push((steps.len(), enabled[0].1));
        }
        steps.push(Step {
            n: i as u32 + 1,
            cpu,
            time_ns: w.now() as f64,
            label: label(&w, ev, from),
            rows: [from as u32, w.trace.len() as u32],
            race: None,
            overtook,
            migrates: matches!(ev, Event::Migrate { .. }),
        });
    }
    let mut races = 0;
    for (i, seq) in overtaken {
        if fired.contains(&seq) {
            races += 1;
            steps[i].race = Some(races);
        } else {
            steps[i].overtook = None;
        }
    }
    (w, steps)
}

/// The counterexample for `path`, which must end in a violation.
pub fn explain(init: &World, path: Vec<u16>) -> (World, Counterexample) {
    let (w, steps) = replay(init, &path, Ns::MAX);
    let v = w.stats.violations.first();
    let (invariant, detail, cpu) = v.map_or_else(
        || (String::new(), String::new(), 0),
        |v| (v.invariant.clone(), v.detail.clone(), v.cpu),
    );
    let violation_step = steps.len() as u32;
    let reordered = steps.iter().rev().find(|s| s.race.is_some()).cloned();
    let racing = steps.iter().filter(|s| s.race.is_some()).count();
    // A migration the search chose is what the fixed designs forbid (a pinned flush cannot
    // move), so it, not an incidental reordering of the same path, is named as the enabler.
    let moved = steps.iter().rev().find(|s| s.migrates).cloned();
    let mut narration = format!(
        "{invariant} breaks at step {violation_step} of {} on CPU {cpu}: {detail}.",
        steps.len()
    );
    if let Some(m) = &moved {
        narration.push_str(&format!(
            " Step {} ({}) is what made it possible: the task was preempted where it may move, and went on on another CPU.",
            m.n, m.label
        ));
    }
    match (&reordered, &moved) {
        (Some(s), None) => narration.push_str(&format!(
            " {racing} step{} run in the opposite order to a normal run; the last, step {} ({}), went ahead of {}: that reordering is what made it possible.",
            if racing == 1 { "" } else { "s" },
            s.n,
            s.label,
            s.overtook.as_deref().unwrap_or("an earlier event")
        )),
        (Some(s), Some(_)) => narration.push_str(&format!(
            " Besides, {racing} step{} run in the opposite order to a normal run (the last is step {}).",
            if racing == 1 { "" } else { "s" },
            s.n,
        )),
        (None, Some(_)) => {}
        (None, None) => narration.push_str(" No two of its steps run in the opposite order to a normal run: it only needs the other CPUs' events that would come in between to be late."),
    }
    let enabling = moved.or(reordered);
    let cx = Counterexample {
        path,
        steps,
        invariant,
        detail,
        cpu,
        violation_step,
        enabling_step: enabling.map(|s| s.n),
        narration,
    };
    (w, cx)
}

//! CPU symmetry: CPUs that are interchangeable in a scenario make states that differ only by
//! which of them is which one state (`Reduce::Sym`; the argument for soundness is in
//! `mod.rs`).
//!
//! A *class* is a set of CPUs, found once from the initial world, such that
//! - the machine is x86 (arm64's interconnect serves the PEs in order: not argued here);
//! - each CPU of the class starts with the same tasks (same mm, priority, program, start,
//!   repeat and flags, in id order), each pinned to it (`cpus = [c]`), no other task may run
//!   there, and no program has a `migrate` that could bring one there or take one away;
//! - no program flushes an mm those tasks run (`madvise`, `munmap`, `mprotect`, `cow`): a
//!   class CPU is then never in a flushed mm's cpumask, so no flush ever dispatches to it,
//!   waits for it, or counts it as a straggler, the kernel loops that visit CPUs in order
//!   (`for_each_cpu`) never visit two of them, and the initial per-CPU state (TLB,
//!   `cpu_tlbstate`) is the same.
//!
//! The key of a state is then the least key over every renaming of the CPUs within their
//! classes (and of their tasks along with them), computed by [`key::relabelled_key`]. That
//! function reorders what is indexed by CPU or task (CPUs, tasks, `cpu_tlbstate`, the split
//! `switch_mm`s, cpumask bits, CPU and task ids inside values, pending events) and reads the
//! rest in place; `quiet` checks, at each state, that everything read in place is the same
//! for every class CPU (no csd, descriptor, IPI, handler, INVLPGB or flush involving one),
//! which the class conditions make always true, and falls back to the plain key otherwise.

use super::key::{relabelled_key, state_key_with, Relabel};
use crate::ids::{CpuId, Ns};
use crate::machine::{Ev, Event, World};
use crate::program::Op;

/// Renamings tried per state at most (4! for one class of four, 2!·2! for two pairs, …).
const MAX_GROUP: usize = 24;
/// Largest class kept (a bigger one is cut to its first CPUs: a subset of a class is one).
const MAX_CLASS: usize = 4;

pub struct Symmetry {
    /// The classes, each its CPUs ascending.
    pub classes: Vec<Vec<u16>>,
    /// Every renaming of the group, the identity first.
    perms: Vec<Relabel>,
    class_cpu: Vec<bool>,
    class_task: Vec<bool>,
}

impl Symmetry {
    /// The classes of `w`'s scenario (none: the reduction does nothing).
    pub fn of(w: &World) -> Symmetry {
        let n = w.cpus.len();
        let mut sym = Symmetry {
            classes: Vec::new(),
            perms: Vec::new(),
            class_cpu: vec![false; n],
            class_task: vec![false; w.tasks.len()],
        };
        if w.arch.name() != "x86" || n > 64 {
            return sym;
        }
        let flushes = |p: &[Op]| {
            p.iter().any(|op| {
                matches!(
                    op,
                    Op::Madvise { .. } | Op::Munmap { .. } | Op::Mprotect { .. } | Op::Cow { .. }
                )
            })
        };
        let flushed: Vec<_> = w
            .tasks
            .iter()
            .filter(|t| flushes(&w.programs[t.program]))
            .map(|t| t.mm)
            .collect();
        let migrates = |p: &[Op]| p.iter().any(|op| matches!(op, Op::Migrate(_)));
        if w.tasks.iter().any(|t| migrates(&w.programs[t.program])) {
            return sym;
        }
        let pending = w.enabled_events();
        let signature = |c: usize| -> Option<String> {
            let on: Vec<_> = w.tasks.iter().filter(|t| t.cpu.index() == c).collect();
            let pinned = |t: &crate::task::Task| t.allowed.len() == 1 && t.allowed[0].index() == c;
            let others_may = w
                .tasks
                .iter()
                .any(|t| t.cpu.index() != c && t.allowed.iter().any(|a| a.index() == c));
            if on.is_empty() || others_may || !on.iter().all(|t| pinned(t)) {
                return None;
            }
            if on.iter().any(|t| flushed.contains(&t.mm)) {
                return None;
            }
            let mut sig = String::new();
            for t in &on {
                let mut x = (*t).clone();
                x.id = crate::ids::TaskId(0);
                x.name = String::new();
                x.cpu = CpuId(0);
                x.allowed.clear();
                x.program = 0;
                let due: Vec<(Ns, u8)> = pending
                    .iter()
                    .filter_map(|&(at, _, e)| match e.unpack() {
                        Event::Step { task, .. } if task == t.id.0 => Some((at, 0)),
                        Event::Wake { task, .. } if task == t.id.0 => Some((at, 1)),
                        _ => None,
                    })
                    .collect();
                sig += &format!("{x:?}|{:?}|{due:?};", w.programs[t.program]);
            }
            let cpu = &w.cpus[c];
            let mut h = super::key::KeyHasher::new();
            cpu.tlb.hash_key(&mut h);
            sig += &format!(
                "{}|{:?}|{:?}|{}|{}",
                h.finish128(),
                w.arch_state.x86.cpu_tlbstate[c],
                w.arch_state.x86.switching[c],
                cpu.curr.is_some() as u8 + cpu.rq.len() as u8,
                cpu.irqs_off
            );
            Some(sig)
        };
        let sigs: Vec<Option<String>> = (0..n).map(signature).collect();
        let mut done = vec![false; n];
        for c in 0..n {
            if done[c] || sigs[c].is_none() {
                continue;
            }
            let class: Vec<u16> = (c..n)
                .filter(|&d| sigs[d] == sigs[c])
                .take(MAX_CLASS)
                .map(|d| d as u16)
                .collect();
            for &d in &class {
                done[d as usize] = true;
            }
            let size: usize = sym
                .classes
                .iter()
                .chain(std::iter::once(&class))
                .map(|k| (1..=k.len()).product::<usize>())
                .product();
            if class.len() >= 2 && size <= MAX_GROUP {
                sym.classes.push(class);
            }
        }
        for k in &sym.classes {
            for &c in k {
                sym.class_cpu[c as usize] = true;
                for t in w.tasks.iter().filter(|t| t.cpu.index() == c as usize) {
                    sym.class_task[t.id.index()] = true;
                }
            }
        }
        sym.perms = sym.group(w);
        sym
    }

    pub fn applies(&self) -> bool {
        !self.classes.is_empty()
    }

    /// Every renaming: each class's CPUs permuted among themselves, the k-th task of a CPU
    /// going with it to the k-th task of its image.
    fn group(&self, w: &World) -> Vec<Relabel> {
        if self.classes.is_empty() {
            return Vec::new();
        }
        let n = w.cpus.len();
        let mut maps: Vec<Vec<u16>> = vec![(0..n as u16).collect()];
        for k in &self.classes {
            let mut next = Vec::new();
            for m in &maps {
                for p in permutations(k) {
                    let mut m = m.clone();
                    for (i, &c) in k.iter().enumerate() {
                        m[c as usize] = p[i];
                    }
                    next.push(m);
                }
            }
            maps = next;
        }
        let on = |c: u16| -> Vec<u32> {
            w.tasks
                .iter()
                .filter(|t| t.cpu.0 == c)
                .map(|t| t.id.0)
                .collect()
        };
        let programs: Vec<usize> = (0..w.programs.len())
            .map(|i| {
                (0..=i)
                    .find(|&j| w.programs[j] == w.programs[i])
                    .unwrap_or(i)
            })
            .collect();
        maps.into_iter()
            .map(|cpu| {
                let mut task: Vec<u32> = (0..w.tasks.len() as u32).collect();
                for (c, &to) in cpu.iter().enumerate() {
                    if to as usize != c {
                        for (a, b) in on(c as u16).into_iter().zip(on(to)) {
                            task[a as usize] = b;
                        }
                    }
                }
                Relabel::new(cpu, task, programs.clone())
            })
            .collect()
    }

    /// The state's key under the symmetry and the renaming that gave it (0: the identity, or
    /// the plain key where a class CPU is not quiet).
    pub fn key(&self, w: &World, choices: &[(Ns, u64, Ev)]) -> (u128, u8) {
        if self.perms.is_empty() || !self.quiet(w, choices) {
            return (state_key_with(w, choices), 0);
        }
        let mut best = (u128::MAX, 0);
        for (i, p) in self.perms.iter().enumerate() {
            let k = relabelled_key(w, choices, p);
            if k < best.0 {
                best = (k, i as u8);
            }
        }
        best
    }

    /// Nothing read in place by `relabelled_key` involves a class CPU or task: no IPI,
    /// handler, csd, wait mask, descriptor, INVLPGB or flush of theirs or to them.
    fn quiet(&self, w: &World, choices: &[(Ns, u64, Ev)]) -> bool {
        let class = |c: u16| self.class_cpu.get(c as usize).copied().unwrap_or(false);
        let idle_csd = |x: &crate::ipi::Csd| !x.locked && x.info == 0 && x.waiters.is_empty();
        let ncpu = w.cpus.len();
        for (c, cpu) in w.cpus.iter().enumerate() {
            if !self.class_cpu[c] {
                continue;
            }
            if cpu.ipi_pending.is_some() || !cpu.call_queue.is_empty() || cpu.handler.is_some() {
                return false;
            }
            let cfd = &w.cfd[c];
            if !cfd.csd.iter().all(idle_csd) || !cfd.mask.is_empty() || cfd.mask_user.is_some() {
                return false;
            }
            if w.descs
                .get(c)
                .is_some_and(|d| d.owner.is_some() || d.mm.0 != 0)
            {
                return false;
            }
            if w.arch_state
                .x86
                .invlpgb_done_at
                .get(c)
                .copied()
                .unwrap_or(0)
                != 0
            {
                return false;
            }
        }
        for cfd in &w.cfd {
            if cfd.mask.iter().any(|&c| class(c))
                || cfd
                    .csd
                    .iter()
                    .enumerate()
                    .any(|(c, x)| class(c as u16) && !idle_csd(x))
            {
                return false;
            }
        }
        for t in &w.tasks {
            if t.ipi_mask.iter().any(|&c| class(c)) {
                return false;
            }
            if let Some(op) = &t.flush {
                if class(op.cpu.0) || op.targets.iter().any(|&c| class(c)) {
                    return false;
                }
            }
            if self.class_task[t.id.index()] {
                let own = w.descs.get(ncpu + t.id.index());
                if own.is_some_and(|d| d.owner.is_some() || d.mm.0 != 0)
                    || w.arch_state.x86.tlbsync_owed.contains(&t.id.0)
                {
                    return false;
                }
            }
        }
        if w.arch_state.x86.broadcasts.values().any(|b| class(b.cpu)) {
            return false;
        }
        choices.iter().all(|&(_, _, e)| match e.unpack() {
            Event::IpiArrive { cpu, .. } | Event::HandlerNext { cpu } => !class(cpu),
            Event::ArchTimer { cpu, data } => {
                use crate::arch::x86::switch_mm::{TIMER_CR3, TIMER_DRAIN};
                !class(cpu) || data == TIMER_CR3 || data == TIMER_DRAIN
            }
            _ => true,
        })
    }
}

/// Every ordering of `k`, the given one first.
fn permutations(k: &[u16]) -> Vec<Vec<u16>> {
    if k.len() <= 1 {
        return vec![k.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..k.len() {
        let mut rest = k.to_vec();
        let x = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, x);
            out.push(p);
        }
    }
    out
}

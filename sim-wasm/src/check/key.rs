//! The state the checker compares: two interleavings that reach the same key are one state.
//!
//! The key hashes the world's kernel state (CPUs with their TLBs, address spaces, tasks,
//! descriptors, csds, the architecture's state, the RNG) and the events still pending to 128
//! bits. What is left out is what differs between orders of the same steps without changing
//! what can happen next: the clock and every timestamp, trace row numbers, task epochs
//! (replaced by "is this event live"), statistics, and what only decides costs: the lock
//! queues' reservation times (`design.locks`) and which CPU holds x86's `tlb_gen` line. A
//! field someone adds to the state is in the key by default (derived `Hash`, or a
//! destructuring below that stops compiling), so a new mechanism can only make the checker
//! merge less, never merge states that differ.
//!
//! One approximation, stated where the arm64 walk is normalised: an in-flight page walk is
//! kept as "in flight" without how long it still has.
//!
//! The fields are fed straight to a 128-bit hasher (`derive(Hash)`); an earlier version
//! formatted the state with `Debug` and hashed the text, which spent two thirds of the search
//! formatting integers. Both merge exactly the same states.

use std::hash::{Hash, Hasher};

use crate::ids::{CpuId, TaskId};
use crate::machine::{Event, World};

/// Two pairs of 64-bit multiply-rotate lanes over the state's words, the words taken by the
/// pairs in turn. Each word still goes through two multiplies, but a lane's next multiply
/// waits on its last: with one pair every word waited on the word before it (the key was a
/// fifth of a proof's time), with two the pairs' chains run side by side. Deterministic on
/// every target (`usize` is widened to 64 bits, so wasm32 and native give the same key): a
/// `HashSet`'s random keys would make state numbering differ between runs.
pub struct KeyHasher {
    a: u64,
    b: u64,
    /// The pair that takes the next word but one.
    c: u64,
    d: u64,
}

impl KeyHasher {
    pub fn new() -> KeyHasher {
        KeyHasher {
            a: 0x243F_6A88_85A3_08D3,
            b: 0x1319_8A2E_0370_7344,
            c: 0xA409_3822_299F_31D0,
            d: 0x082E_FA98_EC4E_6C89,
        }
    }

    #[inline(always)]
    fn word(&mut self, x: u64) {
        let a = (self.a ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
        let b = (self.b ^ x)
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(31);
        // The pairs trade places: the next word goes to the other one.
        (self.a, self.b) = (self.c, self.d);
        (self.c, self.d) = (a, b);
    }

    pub fn finish128(&self) -> u128 {
        // The pairs folded together (one rotated, so that whether a word fell to one or the
        // other counts), then a final mix so that keys differing in the last word differ in
        // every bit.
        let a = self.a ^ self.c.rotate_left(23).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let b = self.b ^ self.d.rotate_left(41).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        let mut a = a ^ (b >> 29);
        a = a.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let mut b = b ^ (a >> 31);
        b = b.wrapping_mul(0x94D0_49BB_1331_11EB);
        ((a as u128) << 64) | b as u128
    }
}

impl Default for KeyHasher {
    fn default() -> Self {
        KeyHasher::new()
    }
}

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.finish128() as u64
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        self.word(u64::from_le_bytes(w) ^ ((bytes.len() as u64) << 56));
    }
    #[inline(always)]
    fn write_u8(&mut self, i: u8) {
        self.word(i as u64);
    }
    #[inline(always)]
    fn write_u16(&mut self, i: u16) {
        self.word(i as u64);
    }
    #[inline(always)]
    fn write_u32(&mut self, i: u32) {
        self.word(i as u64);
    }
    #[inline(always)]
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }
    #[inline(always)]
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
    #[inline(always)]
    fn write_i32(&mut self, i: i32) {
        self.word(i as u32 as u64);
    }
    #[inline(always)]
    fn write_isize(&mut self, i: isize) {
        self.word(i as i64 as u64);
    }
}

/// The 128-bit key of `w`'s state (not a cryptographic hash: two different states of a search of
/// n states collide with probability about n²/2¹²⁸).
pub fn state_key(w: &World) -> u128 {
    state_key_with(w, &super::order::choices(w))
}

/// [`state_key`] with the state's choices already computed.
pub fn state_key_with(w: &World, choices: &[(crate::ids::Ns, u64, crate::machine::Ev)]) -> u128 {
    let mut h = KeyHasher::new();
    hash_state(w, &mut h, None);
    hash_pending(choices, &mut h, None);
    h.finish128()
}

/// A renaming of CPUs and tasks (`symmetry.rs`): the key of the state in which CPU `c` is
/// called `cpu[c]` and task `t` is called `task[t]`, every per-CPU and per-task array read in
/// the new order.
pub struct Relabel {
    pub cpu: Vec<u16>,
    pub task: Vec<u32>,
    /// The old id at each new position (the inverses).
    pub cpu_at: Vec<u16>,
    pub task_at: Vec<u32>,
    /// Per program (by index), the first program with the same operations: a task is
    /// hashed by what it runs, so that two identical tasks' programs compare equal.
    pub program: Vec<usize>,
}

impl Relabel {
    pub fn new(cpu: Vec<u16>, task: Vec<u32>, program: Vec<usize>) -> Relabel {
        let mut cpu_at = vec![0; cpu.len()];
        for (old, &new) in cpu.iter().enumerate() {
            cpu_at[new as usize] = old as u16;
        }
        let mut task_at = vec![0; task.len()];
        for (old, &new) in task.iter().enumerate() {
            task_at[new as usize] = old as u32;
        }
        Relabel {
            cpu,
            task,
            cpu_at,
            task_at,
            program,
        }
    }

    fn c(&self, c: u16) -> u16 {
        self.cpu.get(c as usize).copied().unwrap_or(c)
    }

    fn t(&self, t: u32) -> u32 {
        self.task.get(t as usize).copied().unwrap_or(t)
    }
}

#[inline(always)]
fn map_cpu(r: Option<&Relabel>, c: CpuId) -> CpuId {
    r.map_or(c, |r| CpuId(r.c(c.0)))
}

#[inline(always)]
fn map_task(r: Option<&Relabel>, t: TaskId) -> TaskId {
    r.map_or(t, |r| TaskId(r.t(t.0)))
}

fn map_cpus(r: Option<&Relabel>, v: &[u16]) -> Vec<u16> {
    v.iter().map(|&c| map_cpu(r, CpuId(c)).0).collect()
}

/// Hashes a list of CPUs as `map_cpus(r, v).hash(h)` does, copying it only to rename it.
#[inline(always)]
fn hash_cpus<H: Hasher>(r: Option<&Relabel>, v: &[u16], h: &mut H) {
    match r {
        None => v.hash(h),
        Some(_) => map_cpus(r, v).hash(h),
    }
}

/// The key of `w` relabelled by `r`: what [`state_key_with`] would give for the world in which
/// the CPUs and tasks `r` renames had swapped places. Valid only where `symmetry.rs` has
/// checked that the per-CPU state read in place (descriptors, csds, INVLPGB state) is the same
/// for every CPU `r` moves; a different domain from `state_key_with`'s keys.
pub fn relabelled_key(
    w: &World,
    choices: &[(crate::ids::Ns, u64, crate::machine::Ev)],
    r: &Relabel,
) -> u128 {
    let mut h = KeyHasher::new();
    h.write_u64(0x5359_4d4d); // "SYMM": never equal to an unrelabelled key but by chance
    hash_state(w, &mut h, Some(r));
    hash_pending(choices, &mut h, Some(r));
    h.finish128()
}

/// Feeds `w`'s kernel state (everything but the pending events) to `h`, relabelled by `r`.
// Inlined into its callers (as are the helpers it calls with `r`), so that `state_key_with`,
// which passes `None`, gets a copy with every renaming test folded away.
#[inline(always)]
pub fn hash_state<H: Hasher>(w: &World, h: &mut H, r: Option<&Relabel>) {
    let now = w.now();
    for i in 0..w.cpus.len() {
        let c = &w.cpus[r.map_or(i, |r| r.cpu_at[i] as usize)];
        // Destructured without `..`: a field added to `Cpu` fails to compile here until it is
        // put in the key (or argued out of it).
        let crate::cpu::Cpu {
            id,
            tlb,
            curr,
            rq,
            need_resched,
            preempt_count,
            irqs_off,
            ipi_pending,
            call_queue,
            // Who holds the queue head's line costs time only, which the key leaves out.
            queue_line: _,
            handler,
            hstate: hd,
            irq_items,
            run_row,
            lazy_row,
            irqs_off_row,
            preempt_off_row,
        } = c;
        map_cpu(r, *id).hash(h);
        tlb.hash_key(h);
        curr.map(|t| map_task(r, t)).hash(h);
        h.write_usize(rq.len());
        for &t in rq {
            map_task(r, t).hash(h);
        }
        need_resched.hash(h);
        preempt_count.hash(h);
        irqs_off.hash(h);
        ipi_pending.is_some().hash(h);
        h.write_usize(call_queue.len());
        for q in call_queue {
            map_cpu(r, q.sender).hash(h);
        }
        match handler {
            None => h.write_u8(0),
            Some(_) => {
                h.write_u8(1);
                // Empty outside a handler, so hashed only with one (as when it was a field
                // of `Handler`: the key of every state is as it was).
                h.write_usize(irq_items.len());
                for q in irq_items {
                    map_cpu(r, q.sender).hash(h);
                }
                (hd.next as usize).hash(h);
                hd.func.map(|s| map_cpu(r, s)).hash(h);
                hd.exiting.hash(h);
            }
        }
        run_row.is_some().hash(h);
        lazy_row.is_some().hash(h);
        irqs_off_row.is_some().hash(h);
        preempt_off_row.is_some().hash(h);
    }
    for m in &w.mms {
        let crate::mm::Mm {
            id,
            ctx_id,
            tlb_gen,
            cpumask,
            pages,
            gen_ranges,
            gen_base,
            trim_at: _,
            tables_freed_gen,
            next_trim: _,
            loaded_on,
        } = m;
        // Only the pages that changed: a fresh page table is all zeros.
        for (i, p) in pages.iter().enumerate() {
            if p.present || p.version != 0 || p.safe != 0 {
                h.write_u32(i as u32);
                p.present.hash(h);
                h.write_u32(p.version);
                h.write_u32(p.safe);
            }
        }
        h.write_u8(0xff);
        let moved;
        let cpumask = match r {
            None => cpumask,
            Some(r) => {
                let mut m = crate::mm::CpuMask::new(w.cpus.len() as u16);
                for c in 0..w.cpus.len() as u16 {
                    if cpumask.contains(CpuId(c)) {
                        m.set(CpuId(r.c(c)));
                    }
                }
                moved = m;
                &moved
            }
        };
        (
            id,
            ctx_id,
            tlb_gen,
            cpumask,
            (gen_ranges, gen_base),
            tables_freed_gen,
            loaded_on,
        )
            .hash(h);
    }
    for j in 0..w.tasks.len() {
        hash_task(&w.tasks[r.map_or(j, |r| r.task_at[j] as usize)], h, r);
    }
    w.descs.hash(h);
    for c in &w.cfd {
        let crate::ipi::Cfd {
            csd,
            mask,
            mask_user,
        } = c;
        h.write_usize(csd.len());
        for x in csd {
            x.locked.hash(h);
            x.info.hash(h);
            h.write_usize(x.waiters.len());
            for (t, epoch) in &x.waiters {
                t.hash(h);
                let live = w.tasks.get(t.index()).is_some_and(|x| x.epoch == *epoch);
                live.hash(h);
            }
        }
        mask.hash(h);
        mask_user.hash(h);
    }
    let crate::arch::state::ArchState { x86, arm64 } = &w.arch_state;
    let crate::arch::x86::state::X86State {
        cpu_tlbstate,
        // Which CPU last held the `tlb_gen` cache line decides only what the next increment
        // costs: time, which the checker abstracts away (as it does the lock queues).
        tlb_gen_line: _,
        global_asid,
        asid_transition,
        next_global_asid,
        invlpgb_done_at,
        broadcasts,
        next_broadcast,
        tlbsync_owed,
        switching,
        // A count of `switching`'s entries, hashed with them.
        switching_n: _,
        // `cpu_tlbstate`'s `loaded_mm` and `is_lazy` again, hashed with it.
        loaded_bits: _,
        // Costs fixed for the run.
        fixed: _,
    } = x86;
    match r {
        None => cpu_tlbstate.hash(h),
        Some(r) => {
            h.write_usize(cpu_tlbstate.len());
            for &c in &r.cpu_at {
                cpu_tlbstate[c as usize].hash(h);
            }
        }
    }
    (global_asid, asid_transition, next_global_asid).hash(h);
    (invlpgb_done_at, broadcasts, next_broadcast, tlbsync_owed).hash(h);
    // A switch between its `tlb_gen` read and its CR3 write, with its store buffer (R7).
    match r {
        None => switching.hash(h),
        Some(r) => {
            h.write_usize(switching.len());
            for &c in &r.cpu_at {
                switching[c as usize].hash(h);
            }
        }
    }
    w.rng.hash(h);
    // arm64's state keeps its initial value through an x86 search (only `arch/arm64` writes
    // it, and a world's architecture never changes): hashed, it added the same words to every
    // key, a fortieth of a proof's instructions, and told no two states apart.
    if w.arch == crate::config::Arch::X86 {
        return;
    }
    let a = arm64;
    if a.jobs.is_empty() && a.walk.iter().all(Option::is_none) && a.free_at == 0 {
        a.hash(h);
    } else {
        let mut a = a.clone();
        for walk in &mut a.walk {
            // Approximation: a walk still in flight is kept without its end time; one that
            // has ended is gone (the checks read it only while `until > now`).
            *walk = walk.filter(|x| x.until > now).map(|mut x| {
                x.until = 0;
                x.row = 0;
                x
            });
        }
        a.free_at = 0;
        for j in &mut a.jobs {
            j.row = 0;
        }
        a.hash(h);
    }
}

/// A task without its name, epoch, timestamps and trace rows.
#[inline(always)]
fn hash_task<H: Hasher>(t: &crate::task::Task, h: &mut H, r: Option<&Relabel>) {
    let crate::task::Task {
        id,
        name: _,
        mm,
        prio,
        allowed,
        cpu,
        state,
        program,
        pc,
        iter,
        repeat,
        daemon,
        measure,
        victim,
        iter_start: _,
        measured,
        epoch: _,
        deadline,
        remaining,
        cont,
        preemptible,
        woken_at,
        flush,
        ipi_mask,
    } = t;
    let (id, cpu) = (map_task(r, *id), map_cpu(r, *cpu));
    let program = r.map_or(*program, |r| {
        r.program.get(*program).copied().unwrap_or(*program)
    });
    // Field by field, as the tuple `(id, mm, prio, allowed, ...)` hashed them, without
    // collecting the renamed `allowed` (a vector's hash is its length, then its elements).
    (id, mm, prio).hash(h);
    h.write_usize(allowed.len());
    for &c in allowed {
        map_cpu(r, c).hash(h);
    }
    (cpu, state, program, pc).hash(h);
    // A task that repeats forever behaves the same in every iteration.
    let iter = if *repeat == 0 { 0 } else { *iter };
    (iter, repeat, daemon, measure, victim, measured).hash(h);
    (deadline.is_some(), remaining.is_some(), cont, preemptible).hash(h);
    woken_at.is_some().hash(h);
    hash_cpus(r, ipi_mask, h);
    match flush {
        None => h.write_u8(0),
        Some(f) => {
            h.write_u8(1);
            let crate::task::FlushOp {
                mm,
                start,
                pages,
                freed_tables,
                new_tlb_gen,
                desc,
                cpu,
                targets,
                next_target,
                cursor,
                flush_row: _,
                poff_row,
                poff_start: _,
                wait_row,
                started: _,
                keep_present,
                check,
                // Costs time only, which the key leaves out.
                wait_read_ns: _,
            } = f;
            let cpu = map_cpu(r, *cpu);
            (mm, start, pages, freed_tables, new_tlb_gen, desc, cpu).hash(h);
            hash_cpus(r, targets, h);
            (next_target, cursor, poff_row.is_some()).hash(h);
            (wait_row.is_some(), keep_present, check).hash(h);
        }
    }
}

/// The pending events that would act, as `(kind, task or CPU, data)` sorted: what can
/// happen next, without times and sequence numbers.
#[inline(always)]
pub fn hash_pending<H: Hasher>(
    choices: &[(crate::ids::Ns, u64, crate::machine::Ev)],
    h: &mut H,
    r: Option<&Relabel>,
) {
    let t = |t: u32| r.map_or(t, |r| r.t(t));
    let c = |c: u16| r.map_or(c, |r| r.c(c)) as u32;
    let id = |ev: crate::machine::Ev| match ev.unpack() {
        Event::Step { task, .. } => (0u8, t(task), 0),
        Event::Wake { task, .. } => (1, t(task), 0),
        Event::IpiArrive { cpu, .. } => (2, c(cpu), 0),
        Event::HandlerNext { cpu } => (3, c(cpu), 0),
        Event::ArchTimer { cpu, data } => (4, c(cpu), data),
        Event::Migrate { task, cpu } => (5, t(task), c(cpu)),
    };
    // Sorted on the stack when they are few (as they are at nearly every state): hashed as
    // the sorted vector was, its length and then its elements.
    const FEW: usize = 32;
    if choices.len() <= FEW {
        let mut buf = [(0u8, 0u32, 0u32); FEW];
        let pending = &mut buf[..choices.len()];
        for (p, &(_, _, ev)) in pending.iter_mut().zip(choices) {
            *p = id(ev);
        }
        pending.sort_unstable();
        pending.hash(h);
        return;
    }
    let mut pending: Vec<(u8, u32, u32)> = choices.iter().map(|&(_, _, ev)| id(ev)).collect();
    pending.sort_unstable();
    pending.hash(h);
}

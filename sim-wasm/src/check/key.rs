//! The state the checker compares: two interleavings that reach the same key are one state.
//!
//! The key is the `Debug` text of the world's kernel state (CPUs with their TLBs, address
//! spaces, tasks, descriptors, csds, the architecture's state, the RNG) and of the events still
//! pending, hashed to 128 bits. What is left out is
//! what differs between orders of the same steps without changing what can happen next: the
//! clock and every timestamp, trace row numbers, task epochs (replaced by "is this event
//! live"), statistics. A field someone adds to the state is in the key by default, so a new
//! mechanism can only make the checker merge less, never merge states that differ.
//!
//! One approximation, stated where the arm64 walk is normalised: an in-flight page walk is
//! kept as "in flight" without how long it still has.

use std::fmt::Write;

use crate::machine::{Event, World};

/// Two 64-bit multiply-rotate lanes over the text's 8-byte words. Deterministic on every
/// target: a `HashSet`'s random keys would make state numbering differ between runs.
fn hash128(text: &str) -> u128 {
    let (mut a, mut b) = (0x243F_6A88_85A3_08D3u64, 0x1319_8A2E_0370_7344u64);
    let bytes = text.as_bytes();
    let mut chunks = bytes.chunks_exact(8);
    let mut word = |x: u64| {
        a = (a ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        b = (b ^ x).wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    };
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        word(u64::from_le_bytes(w));
    }
    let mut w = [0u8; 8];
    let rest = chunks.remainder();
    w[..rest.len()].copy_from_slice(rest);
    word(u64::from_le_bytes(w) ^ ((bytes.len() as u64) << 56));
    ((a as u128) << 64) | b as u128
}

/// The 128-bit key of `w`'s state (not a cryptographic hash: two different states of a search of
/// n states collide with probability about n²/2¹²⁸).
pub fn state_key(w: &World) -> u128 {
    // Written into one buffer and hashed once: the `Debug` output arrives in thousands of
    // small pieces, and hashing each as it came was most of the search's time.
    let mut h = String::with_capacity(32 << 10);
    let now = w.now();
    let (cpus, mms, tasks, descs, cfd, arch) =
        (&w.cpus, &w.mms, &w.tasks, &w.descs, &w.cfd, &w.arch_state);
    for c in cpus {
        // Destructured without `..`: a field added to `Cpu` fails to compile here until it is
        // put in the key (or argued out of it). Not cloned, so the TLB is not copied.
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
            handler,
            run_row,
            lazy_row,
            irqs_off_row,
            preempt_off_row,
        } = c;
        let _ = tlb.write_key(&mut h);
        let senders: Vec<_> = call_queue.iter().map(|r| r.sender).collect();
        let handler = handler.as_ref().map(|hd| {
            let items: Vec<_> = hd.items.iter().map(|r| r.sender).collect();
            (items, hd.next, hd.func.map(|(_, s)| s), hd.exiting)
        });
        let _ = write!(
            h,
            "{id:?}{curr:?}{rq:?}{need_resched}{preempt_count}{irqs_off}{:?}{senders:?}{handler:?}{:?}{:?}{:?}{:?}",
            ipi_pending.is_some(),
            run_row.is_some(),
            lazy_row.is_some(),
            irqs_off_row.is_some(),
            preempt_off_row.is_some(),
        );
    }
    for m in mms {
        // The page table compactly (its `Debug` was a third of the key): only changed pages.
        for (i, p) in m.pages.iter().enumerate() {
            if p.present || p.version != 0 || p.safe != 0 {
                let _ = write!(h, "{i}:{}:{}:{};", p.present, p.version, p.safe);
            }
        }
        let mut m = m.clone();
        m.pages = Vec::new();
        m.next_trim = 0;
        let _ = write!(h, "{m:?}");
    }
    for t in tasks {
        let mut t = t.clone();
        t.name = String::new();
        t.epoch = 0;
        t.deadline = t.deadline.map(|_| 0);
        t.remaining = t.remaining.map(|_| 0);
        t.woken_at = t.woken_at.map(|_| 0);
        t.iter_start = 0;
        if t.repeat == 0 {
            // A task that repeats forever behaves the same in every iteration.
            t.iter = 0;
        }
        if let Some(f) = t.flush.as_mut() {
            f.flush_row = 0;
            f.poff_row = f.poff_row.map(|_| 0);
            f.poff_start = 0;
            f.wait_row = f.wait_row.map(|_| 0);
            f.started = 0;
        }
        let _ = write!(h, "{t:?}");
    }
    let _ = write!(h, "{descs:?}");
    for c in cfd {
        let mut c = c.clone();
        for csd in &mut c.csd {
            for (t, epoch) in &mut csd.waiters {
                let live = tasks.get(t.index()).is_some_and(|x| x.epoch == *epoch);
                *epoch = live as u32;
            }
        }
        let _ = write!(h, "{c:?}");
    }
    let mut a = arch.clone();
    for walk in &mut a.arm64.walk {
        // Approximation: a walk still in flight is kept without its end time; one that has
        // ended is gone (the checks read it only while `until > now`).
        *walk = walk.filter(|x| x.until > now).map(|mut x| {
            x.until = 0;
            x.row = 0;
            x
        });
    }
    a.arm64.free_at = 0;
    for j in &mut a.arm64.jobs {
        j.row = 0;
    }
    let _ = write!(h, "{a:?}{:?}", w.rng);
    let mut pending: Vec<(u8, u32, u32)> = super::order::choices(w)
        .into_iter()
        .map(|(_, _, ev)| match ev.unpack() {
            Event::Step { task, .. } => (0, task, 0),
            Event::Wake { task, .. } => (1, task, 0),
            Event::IpiArrive { cpu, .. } => (2, cpu as u32, 0),
            Event::HandlerNext { cpu } => (3, cpu as u32, 0),
            Event::ArchTimer { cpu, data } => (4, cpu as u32, data),
        })
        .collect();
    pending.sort_unstable();
    let _ = write!(h, "{pending:?}");
    hash128(&h)
}

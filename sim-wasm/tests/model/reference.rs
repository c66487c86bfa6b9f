//! The reference model: a TLB flush takes effect everywhere, instantly, at the moment
//! `flush_tlb_mm_range()` returns. Built from the engine's trace (each `FlushRange` span is a
//! flush of `arg` pages at `addr` for generation `gen`, returning at `time + dur`), it judges
//! each recorded access: using a translation older than a flush that had already returned is
//! staler than the reference allows.

use std::collections::BTreeMap;

use tlbscope_sim::events::EventKind;
use tlbscope_sim::machine::{Access, USER_BASE};
use tlbscope_sim::trace::Trace;

/// Per (mm, page): the returned flushes (return time, generation) that removed its PTE.
type Returned = BTreeMap<(u16, u32), Vec<(f64, u32)>>;

fn returned_flushes(t: &Trace) -> Returned {
    let mut r = Returned::new();
    for i in t.rows_of(EventKind::FlushRange) {
        let start = ((t.addr[i] as u64 - USER_BASE) / 4096) as u32;
        for p in start..start + t.arg[i] as u32 {
            r.entry((t.mm[i], p))
                .or_default()
                .push((t.time[i] + t.dur[i], t.gen[i]));
        }
    }
    r
}

/// Accesses that used a translation removed by a flush that had returned strictly before.
pub fn staler_than_reference(t: &Trace, accesses: &[Access]) -> Vec<Access> {
    let returned = returned_flushes(t);
    accesses
        .iter()
        .filter(|a| {
            returned.get(&(a.mm.0, a.vpn)).is_some_and(|fl| {
                fl.iter()
                    .any(|&(ret, gen)| ret < a.time as f64 && gen > a.version)
            })
        })
        .copied()
        .collect()
}

//! The choices at a state: the events that would act (`World::enabled_events`), less those
//! that must wait for another pending event. The simulator encodes a few happens-before
//! edges only as times (an event is scheduled late enough to come after another); once any
//! pending event may go first, those edges have to be restored here, or the search reports
//! orders the hardware cannot produce.
//!
//! | edge | encoded in the simulator as |
//! |---|---|
//! | arm64: a task's `DSB ISH` completes only after its own broadcast `TLBI`s were performed on every PE | the task's step ends at `served_until + dsb_ish_ns`, after the interconnect's timer at `served_from` (`arch/arm64/tlbi.rs`) |
//! | x86: a task runs on only after its CPU's `switch_mm` wrote CR3 | the CR3 timer is due within the switch's cost, the task's step after it (`arch/x86/switch_mm.rs`) |
//! | x86: the CR3 write (serializing) retires only after the switch's buffered stores drained | the drain timer is queued first, at the same time |
//! | x86: `TLBSYNC` completes only after the INVLPGBs *its CPU* issued were performed | the task's TLBSYNC step ends at `invlpgb_done_at`, the broadcasts' completion timers' time (`arch/x86/invlpgb.rs`) |

use crate::ids::Ns;
use crate::machine::{Ev, Event, World};

pub fn choices(w: &World) -> Vec<(Ns, u64, Ev)> {
    let mut v = Vec::new();
    choices_into(w, &mut v);
    v
}

/// [`choices`] into `v` (cleared first), whose buffer the search reuses.
pub fn choices_into(w: &World, v: &mut Vec<(Ns, u64, Ev)>) {
    w.enabled_events_into(v);
    let switching = &w.arch_state.x86.switching;
    if switching.iter().any(Option::is_some) {
        v.retain(|&(_, _, e)| match e.unpack() {
            Event::Step { task, .. } => w
                .tasks
                .get(task as usize)
                .is_none_or(|t| switching.get(t.cpu.index()).is_none_or(Option::is_none)),
            Event::ArchTimer { cpu, data } if data == crate::arch::x86::switch_mm::TIMER_CR3 => {
                switching
                    .get(cpu as usize)
                    .copied()
                    .flatten()
                    .is_none_or(|s| !s.buffered)
            }
            _ => true,
        });
    }
    // Migrations come after the pending events, so a path's indices into the pending events
    // are the same with and without them.
    w.push_migration_choices(v);
    let is_broadcast = |e: Ev| match e.unpack() {
        // switch_mm's drain and CR3 timers are ordered above, not broadcasts.
        Event::ArchTimer { data, .. } => !is_switch_timer(w, data),
        _ => false,
    };
    if !v.iter().any(|&(_, _, e)| is_broadcast(e)) {
        return;
    }
    let broadcasting: Vec<u16> = v
        .iter()
        .filter_map(|&(_, _, e)| match e.unpack() {
            Event::ArchTimer { cpu, .. } if is_broadcast(e) => Some(cpu),
            _ => None,
        })
        .collect();
    if w.arch.name() == "x86" {
        v.retain(|&(_, _, e)| match e.unpack() {
            Event::Step { task, .. } => w
                .tasks
                .get(task as usize)
                .is_none_or(|t| !(in_tlbsync(w, t) && broadcasting.contains(&t.cpu.0))),
            _ => true,
        });
        return;
    }
    let in_dsb = &w.arch_state.arm64.in_dsb;
    v.retain(|&(_, _, e)| match e.unpack() {
        Event::Step { task, .. } => {
            let cpu = w.tasks.get(task as usize).map_or(u16::MAX, |t| t.cpu.0);
            !(in_dsb.get(cpu as usize).copied().unwrap_or(false) && broadcasting.contains(&cpu))
        }
        _ => true,
    });
}

fn is_switch_timer(w: &World, data: u32) -> bool {
    use crate::arch::x86::switch_mm::{TIMER_CR3, TIMER_DRAIN};
    w.arch.name() == "x86" && (data == TIMER_CR3 || data == TIMER_DRAIN)
}

/// The task's step is its `TLBSYNC` (x86: the flush owes one and its csd wait is over).
fn in_tlbsync(w: &World, t: &crate::task::Task) -> bool {
    t.cont == crate::task::Cont::Flush(crate::task::FlushPhase::Wait)
        && t.flush.as_ref().is_some_and(|f| f.cursor == i32::MAX)
        && w.arch_state.x86.tlbsync_owed.contains(&t.id.0)
}

//! `[[tasks]]`: explicit tasks with their programs, checked against the machine.

use super::file::TaskSection;
use crate::config::{Arch, TaskSpec};
use crate::error::SimError;
use crate::ids::{CpuId, MmId};
use crate::program;
use crate::scenario::vocabulary::{int_in, MAX_NS};

pub(super) fn validate_task(
    i: usize,
    t: TaskSection,
    cpus: u16,
    mm_pages: u32,
    arch: Arch,
) -> Result<TaskSpec, SimError> {
    let p = |f: &str| format!("tasks[{i}].{f}");
    let cpu = int_in(&p("cpu"), t.cpu, 0, 0, cpus as i64 - 1)? as u16;
    let mut allowed = vec![CpuId(cpu)];
    for &c in t.cpus.iter().flatten() {
        let c = int_in(&p("cpus"), Some(c), 0, 0, cpus as i64 - 1)? as u16;
        if !allowed.contains(&CpuId(c)) {
            allowed.push(CpuId(c));
        }
    }
    let program = program::parse(&t.program).map_err(|m| SimError::new(p("program"), m))?;
    for op in &program {
        if op.page_end() > mm_pages as u64 {
            return Err(SimError::new(
                p("program"),
                format!(
                    "{op:?} reaches past the address space ({mm_pages} pages; raise workload.mm_pages)"
                ),
            ));
        }
        if arch == Arch::X86 && matches!(op, program::Op::CpuId(_) | program::Op::ThisCpuInc) {
            return Err(SimError::new(
                p("program"),
                format!("{op:?} models arm64 per-CPU access; it is not available on x86"),
            ));
        }
        if let program::Op::Migrate(c) = op {
            if *c >= cpus {
                return Err(SimError::new(
                    p("program"),
                    format!("migrate {c}: there are only {cpus} CPUs"),
                ));
            }
        }
    }
    let repeat = int_in(&p("repeat"), t.repeat, 1, 0, 100_000_000)? as u32;
    Ok(TaskSpec {
        name: t.name.unwrap_or_else(|| format!("task{i}")),
        mm: MmId(int_in(&p("mm"), t.mm, 1, 0, 1000)? as u16),
        cpu: CpuId(cpu),
        cpus: allowed,
        prio: int_in(&p("prio"), t.prio, 0, 0, 99)? as u8,
        start_ns: int_in(&p("start_ns"), t.start_ns, 0, 0, MAX_NS)? as u64,
        repeat,
        daemon: t.daemon.unwrap_or(repeat == 0),
        measure: t.measure.unwrap_or(false),
        program,
    })
}

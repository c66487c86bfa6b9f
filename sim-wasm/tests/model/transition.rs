//! Transitions (what one task does next) and a generated case, rendered as a scenario file so
//! a failing case can be replayed by hand with `examples/inspect.rs`.

use std::fmt::Write;

#[derive(Clone, Debug)]
pub enum Transition {
    Touch { page: u32, n: u32 },
    Madvise { page: u32, n: u32 },
    Munmap { page: u32, n: u32 },
    Spin(u64),
    Sleep(u64),
    IrqsOff(u64),
    Yield,
}

impl Transition {
    fn text(&self) -> String {
        match self {
            Transition::Touch { page, n } => format!("touch {page} {n}"),
            Transition::Madvise { page, n } => format!("madvise {page} {n}"),
            Transition::Munmap { page, n } => format!("munmap {page} {n}"),
            Transition::Spin(d) => format!("spin {d}"),
            Transition::Sleep(d) => format!("sleep {d}"),
            Transition::IrqsOff(d) => format!("irqsoff {d}"),
            Transition::Yield => "yield".into(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct TaskCase {
    pub mm: u16,
    pub cpu: u16,
    pub cpus: Vec<u16>,
    pub prio: u8,
    pub start_ns: u64,
    pub repeat: u32,
    pub program: Vec<Transition>,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub cpus: u16,
    pub flush_info: &'static str,
    pub preempt: &'static str,
    pub pcid: &'static str,
    pub tlb_entries: u32,
    pub tasks: Vec<TaskCase>,
    pub seed: u64,
}

impl Case {
    pub fn overrides(&self) -> Vec<String> {
        vec![
            format!("flush_info={}", self.flush_info),
            format!("preempt={}", self.preempt),
            format!("pcid={}", self.pcid),
            format!("tlb_entries={}", self.tlb_entries),
            "max_events=200000".into(),
        ]
    }

    pub fn scenario(&self) -> String {
        let mut s = format!(
            "title = \"model case\"\n[machine]\ncpus = {}\ntlb_ways = 4\n",
            self.cpus
        );
        for t in &self.tasks {
            let program: Vec<String> = t.program.iter().map(Transition::text).collect();
            let _ = write!(
                s,
                "\n[[tasks]]\nmm = {}\ncpu = {}\ncpus = {:?}\nprio = {}\nstart_ns = {}\nrepeat = {}\nprogram = \"{}\"\n",
                t.mm,
                t.cpu,
                t.cpus,
                t.prio,
                t.start_ns,
                t.repeat,
                program.join("; ")
            );
        }
        s
    }
}

//! The settings a run actually used, in the flat `--set` vocabulary (`flush_info=stack`,
//! `cpus=4`, …): what the page's controls show as the value in effect, whether it came from
//! the scenario file, its preset's defaults or the reader's overrides.

use std::collections::BTreeMap;

use crate::config::{
    Arch, Config, CpuIdImpl, Dist, FlushInfo, Preempt, SkipRule, TlbIndex, WaitMask, WorkOp,
};

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

/// Every flat setting of `cfg` with its value as `--set` spells it. Settings of the other
/// architecture are left out (the simulator rejects them there).
pub fn effective(cfg: &Config) -> BTreeMap<&'static str, String> {
    let d = &cfg.design;
    let w = &cfg.workload;
    let mut m: BTreeMap<&'static str, String> = BTreeMap::new();
    m.insert("arch", cfg.arch.name().into());
    m.insert("machine", cfg.preset.clone());
    m.insert("cpus", cfg.cpus.to_string());
    m.insert("tlb_entries", cfg.tlb_entries.to_string());
    m.insert("tlb_ways", cfg.tlb_ways.to_string());
    let index = match cfg.tlb_index {
        TlbIndex::Hash => "hash",
        TlbIndex::Xor7 => "xor7",
    };
    m.insert("tlb_index", index.into());
    m.insert("stack_offset", cfg.stack_offset.to_string());
    m.insert("threads", w.threads.to_string());
    m.insert("busy_threads", w.busy_threads.to_string());
    m.insert("lazy_cpus", w.lazy_cpus.to_string());
    m.insert("flushes", w.flushes.to_string());
    m.insert("pages", w.pages.to_string());
    m.insert("initiator", w.initiator.0.to_string());
    m.insert("period_ns", w.period_ns.to_string());
    m.insert("freed_tables", on_off(w.freed_tables));
    m.insert("irqs_off_probability", w.irqs_off_probability.to_string());
    m.insert("irqs_off_gap_ns", w.irqs_off_gap_ns.to_string());
    let dist = match w.irqs_off_dist {
        Dist::Uniform => "uniform",
        Dist::Exp => "exp",
        Dist::Pareto => "pareto",
    };
    m.insert("irqs_off_dist", dist.into());
    m.insert("irqs_off_mean_ns", w.irqs_off_mean_ns.to_string());
    m.insert("irqs_off_max_ns", w.irqs_off_max_ns.to_string());
    m.insert("wakeup_period_ns", w.wakeup_period_ns.to_string());
    m.insert("wakeup_cpu", w.wakeup_cpu.0.to_string());
    m.insert("wakeup_work_ns", w.wakeup_work_ns.to_string());
    m.insert("mm_pages", w.mm_pages.to_string());
    let op = match w.op {
        WorkOp::Madvise => "madvise",
        WorkOp::Munmap => "munmap",
        WorkOp::Mprotect => "mprotect",
        WorkOp::Cow => "cow",
    };
    m.insert("op", op.into());
    m.insert("processes", w.processes.to_string());
    match cfg.arch {
        Arch::X86 => {
            let fi = match d.flush_info {
                FlushInfo::PerCpu => "percpu",
                FlushInfo::Stack => "stack",
                FlushInfo::StackUnaligned => "stack_unaligned",
            };
            m.insert("flush_info", fi.into());
            let p = match d.preempt {
                Preempt::Pinned => "pinned",
                Preempt::PreemptibleWait => "preemptible_wait",
            };
            m.insert("preempt", p.into());
            m.insert("pcid", on_off(d.pcid));
            let wm = match d.wait_mask {
                WaitMask::PerCpu => "percpu",
                WaitMask::Task => "task",
            };
            m.insert("wait_mask", wm.into());
            m.insert("plus_one_rule", on_off(d.plus_one_rule));
            let lazy = if d.lazy_freed_tables_ipi {
                "ipi"
            } else {
                "skip"
            };
            m.insert("lazy_freed_tables", lazy.into());
            m.insert("ceiling", d.ceiling.to_string());
        }
        Arch::Arm64 => {
            m.insert("asid_bits", cfg.asid_bits.to_string());
            m.insert("broadcast_skip", on_off(d.broadcast_skip));
            m.insert("dsb_before_dec", on_off(d.dsb_before_dec));
            let rule = match d.skip_rule {
                SkipRule::ActiveMm => "active_mm",
                SkipRule::MmUsers => "mm_users",
            };
            m.insert("skip_rule", rule.into());
            let id = match d.cpu_id {
                CpuIdImpl::PerCpu => "percpu",
                CpuIdImpl::ThreadInfo => "thread_info",
            };
            m.insert("cpu_id", id.into());
            m.insert("max_dvm_ops", d.max_dvm_ops.to_string());
        }
    }
    m
}

/// [`effective`] as a JSON object of strings.
pub fn effective_json(cfg: &Config) -> String {
    serde_json::to_string(&effective(cfg)).unwrap_or_else(|_| "{}".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    #[test]
    fn every_effective_value_is_accepted_back_as_an_override_and_changes_nothing() {
        for text in [
            "[machine]\ncpus = 3\n[design]\nflush_info = \"stack\"\n",
            "arch = \"arm64\"\n[machine]\nasid_bits = 4\n[design]\nbroadcast_skip = \"on\"\n",
        ] {
            let cfg = scenario::parse(text, &[]).unwrap();
            let sets: Vec<String> = effective(&cfg)
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            let again = scenario::parse(text, &sets).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(effective(&again), effective(&cfg));
        }
    }

    #[test]
    fn shows_the_file_and_the_override_in_effect() {
        let text = "[machine]\ncpus = 3\n[design]\nflush_info = \"stack\"\n";
        let cfg = scenario::parse(text, &["cpus=64".into()]).unwrap();
        let m = effective(&cfg);
        assert_eq!(m["cpus"], "64");
        assert_eq!(m["flush_info"], "stack");
        assert!(!m.contains_key("asid_bits"));
    }
}

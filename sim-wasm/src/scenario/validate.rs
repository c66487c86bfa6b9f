//! The scenario's settings into a [`Config`]: every bound, choice and default comes from the
//! setting's declaration in `vocabulary`; what is checked here is only what relates settings
//! to each other (the preset's architecture, the TLB geometry, CPUs left for the workload).
//! Fields are read in a fixed order, so the first error is always the same one.

use toml::{Table, Value};

use super::file::ScenarioFile;
use super::steps::validate_step;
use super::tasks::validate_task;
use crate::budget;
use crate::config::{
    Arch, Config, CpuIdImpl, Design, Dist, Expect, ExpectCase, FlushInfo, LockMode, Mapping,
    Preempt, PtiUserFlush, SkipRule, SwitchMmBarrier, TlbGenRead, TlbIndex, WaitMask, WorkOp,
    Workload,
};
use crate::error::SimError;
use crate::ids::CpuId;
use crate::presets;
use crate::scenario::vocabulary::{self as v, int_in, one_of};

/// The `section.field` paths of the settings a scenario table gives.
pub(super) fn given_settings(table: &Table) -> Vec<String> {
    let mut given = Vec::new();
    for (section, fields) in table {
        if let Value::Table(fields) = fields {
            given.extend(fields.keys().map(|f| format!("{section}.{f}")));
        }
    }
    given
}

/// Toggles of the other architecture are errors naming the field and the arch, so a setting
/// never silently does nothing.
fn check_arch_fields(arch: Arch, given: &[String]) -> Result<(), SimError> {
    let other = match arch {
        Arch::X86 => Arch::Arm64,
        Arch::Arm64 => Arch::X86,
    };
    match v::only_on(other).find(|s| given.contains(&s.path())) {
        Some(s) => Err(SimError::new(
            s.path(),
            format!(
                "not used on {} (it is a toggle of the {} model)",
                arch.name(),
                other.name()
            ),
        )),
        None => Ok(()),
    }
}

pub(super) fn validate(f: ScenarioFile, given: &[String]) -> Result<Config, SimError> {
    let arch = v::ARCH.choice(f.arch.as_deref(), Arch::ALL)?;
    check_arch_fields(arch, given)?;
    let m = f.machine;
    let preset_id = m.preset.as_deref().unwrap_or(presets::default_for(arch));
    let preset = presets::by_id(preset_id)
        .ok_or_else(|| one_of(&v::PRESET.path(), preset_id, &presets::IDS))?;
    if preset.arch != arch {
        return Err(SimError::new(
            v::PRESET.path(),
            format!(
                "`{preset_id}` is an {} machine but the scenario's arch is {}",
                preset.arch.name(),
                arch.name()
            ),
        ));
    }
    let cpus = v::CPUS.int_or(m.cpus, preset.cpus as i64)? as u16;
    let tlb_entries = v::TLB_ENTRIES.int_or(m.tlb_entries, preset.tlb_entries as i64)? as u32;
    let max_ways = crate::tlb::Tlb::MAX_WAYS as i64;
    if m.tlb_ways.is_some_and(|w| w > max_ways) {
        return Err(SimError::new(
            v::TLB_WAYS.path(),
            format!(
                "must be at most {max_ways} (the most ways the model's TLB sets hold), got {}",
                m.tlb_ways.unwrap_or(0)
            ),
        ));
    }
    let tlb_ways =
        v::TLB_WAYS.int_upto(m.tlb_ways, preset.tlb_ways as i64, tlb_entries as i64)? as u32;
    let tlb_index = match m.tlb_index.as_deref() {
        None => preset.tlb_index,
        Some(name) => v::TLB_INDEX.choice(Some(name), TlbIndex::ALL)?,
    };
    if tlb_index == TlbIndex::Xor7 && tlb_entries / tlb_ways != 128 {
        return Err(SimError::new(
            v::TLB_INDEX.path(),
            format!(
                "xor7 indexes 128 sets, but {tlb_entries} entries / {tlb_ways} ways make {} \
                 (use tlb_index = \"hash\" for another geometry)",
                tlb_entries / tlb_ways
            ),
        ));
    }
    // A preset's sockets are held to the CPUs a scenario asks for (one CPU is one socket).
    let sockets = v::SOCKETS.int_upto(
        m.sockets,
        (preset.sockets as i64).min(cpus as i64),
        (cpus as i64).min(64),
    )? as u16;
    let cacheline_bytes = v::CACHELINE_BYTES.int(m.cacheline_bytes)? as u32;
    // Keep every CPU's TLB within memory a browser tab can afford (4 M entries ≈ 64 MB).
    if cpus as u64 * tlb_entries as u64 > 4 << 20 {
        return Err(SimError::new(
            v::TLB_ENTRIES.path(),
            format!("{cpus} CPUs × {tlb_entries} entries is too large (at most 4194304 in total)"),
        ));
    }

    let d = f.design;
    // kernel=: the defaults of the toggles the scenario leaves out.
    let kernel = d.kernel.as_ref().map(x86_kernel).transpose()?;
    let design = Design {
        flush_info: match (d.flush_info.as_deref(), kernel) {
            (None, Some(k)) => k.flush_info,
            (given, _) => v::FLUSH_INFO.choice(given, FlushInfo::ALL)?,
        },
        preempt: match (d.preempt.as_deref(), kernel) {
            (None, Some(k)) => k.preempt,
            (given, _) => v::PREEMPT.choice(given, Preempt::ALL)?,
        },
        pcid: match (d.pcid.as_ref(), kernel) {
            (None, Some(k)) => k.pcid,
            (given, _) => v::PCID.on_off(given)?,
        },
        wait_mask: match (d.wait_mask.as_deref(), kernel) {
            (None, Some(k)) => k.wait_mask,
            (given, _) => v::WAIT_MASK.choice(given, WaitMask::ALL)?,
        },
        plus_one_rule: v::PLUS_ONE_RULE.on_off(d.plus_one_rule.as_ref())?,
        lazy_freed_tables_ipi: v::LAZY_FREED_TABLES
            .choice(d.lazy_freed_tables.as_deref(), &[true, false])?,
        ceiling: v::CEILING.int(d.ceiling)? as u32,
        broadcast_skip: v::BROADCAST_SKIP.on_off(d.broadcast_skip.as_ref())?,
        dsb_before_dec: v::DSB_BEFORE_DEC.on_off(d.dsb_before_dec.as_ref())?,
        skip_rule: v::SKIP_RULE.choice(d.skip_rule.as_deref(), SkipRule::ALL)?,
        cpu_id: v::CPU_ID.choice(d.cpu_id.as_deref(), CpuIdImpl::ALL)?,
        max_dvm_ops: v::MAX_DVM_OPS.int(d.max_dvm_ops)? as u32,
        pti: match (d.pti.as_ref(), kernel) {
            (None, k) => {
                k.is_none_or(|k| k.has_pti)
                    && crate::arch::x86::machine_defaults::pti_default(preset_id)
            }
            (given, _) => v::PTI.on_off(given)?,
        },
        pti_user_flush: v::PTI_USER_FLUSH.choice(d.pti_user_flush.as_deref(), PtiUserFlush::ALL)?,
        switch_mm_barrier: match (d.switch_mm_barrier.as_deref(), kernel) {
            (None, Some(k)) => k.switch_mm_barrier,
            (given, _) => v::SWITCH_MM_BARRIER.choice(given, SwitchMmBarrier::ALL)?,
        },
        tlb_gen_read: match (d.tlb_gen_read.as_deref(), kernel) {
            (None, Some(k)) => k.tlb_gen_read,
            (given, _) => v::TLB_GEN_READ.choice(given, TlbGenRead::ALL)?,
        },
        invlpgb: match (d.invlpgb.as_ref(), kernel) {
            (None, Some(k)) => k.has_invlpgb && crate::arch::x86::kernels::has_invlpgb(preset_id),
            (given, _) => v::INVLPGB.on_off(given)?,
        },
        global_asid_first_flush: v::GLOBAL_ASID.choice(d.global_asid.as_deref(), &[false, true])?,
        asid_transition: v::ASID_TRANSITION.on_off(d.asid_transition.as_ref())?,
        tlbsync_pinned: v::TLBSYNC_PINNED.on_off(d.tlbsync_pinned.as_ref())?,
        tlbi_range: match d.tlbi_range.as_ref() {
            None => crate::arch::arm64::range::preset_has_tlbi_range(preset.id),
            given => v::TLBI_RANGE.on_off(given)?,
        },
        locks: v::LOCKS.choice(d.locks.as_deref(), LockMode::ALL)?,
    };
    let asid_bits = v::ASID_BITS.int(m.asid_bits)? as u8;
    if arch == Arch::Arm64 && (1i64 << asid_bits) - 1 < cpus as i64 + 2 {
        return Err(SimError::new(
            v::ASID_BITS.path(),
            format!(
                "{asid_bits} bits give {} ASIDs; the allocator needs at least cpus + 2 = {} \
                 (one reserved per CPU at rollover, plus one to allocate)",
                (1i64 << asid_bits) - 1,
                cpus as i64 + 2
            ),
        ));
    }

    let tasks_given = !f.tasks.is_empty();
    let w = f.workload;
    let initiator = v::INITIATOR.int_upto(w.initiator, 0, cpus as i64 - 1)? as u16;
    let free_after_initiator = cpus as i64 - initiator as i64;
    let threads_default = if tasks_given { 0 } else { 1 };
    let threads = v::THREADS
        .int_upto(w.threads, threads_default, free_after_initiator)
        .map_err(|e| cpus_hint(e, m.cpus, m.preset.is_some(), &preset, initiator))?
        as u16;
    let free_after_threads = free_after_initiator - threads as i64;
    let lazy_cpus = v::LAZY_CPUS.int_upto(w.lazy_cpus, 0, free_after_threads)? as u16;
    let free_after_lazy = free_after_threads - lazy_cpus as i64;
    let victims = v::VICTIMS.int_upto(w.victims, 0, free_after_lazy)? as u16;
    let free = free_after_lazy - victims as i64;
    let busy_default = if tasks_given || threads == 0 { 0 } else { free };
    let busy_threads = v::BUSY_THREADS.int_upto(w.busy_threads, busy_default, free)? as u16;
    let probability = v::IRQS_OFF_PROBABILITY.float(w.irqs_off_probability)?;
    let pages = v::PAGES.int(w.pages)? as u32;
    let irqs_off_max_ns = v::IRQS_OFF_MAX_NS.int(w.irqs_off_max_ns)?;
    let hot_pages = v::HOT_PAGES.int(w.hot_pages)?;
    let needed_pages = (threads as i64).max(1) * (pages as i64 + hot_pages);
    let freed_tables = v::FREED_TABLES.on_off(w.freed_tables.as_ref())?;
    let reread = v::REREAD.on_off(w.reread.as_ref())?;
    let mapping = v::MAPPING.choice(w.mapping.as_deref(), Mapping::ALL)?;
    // Only the read-back loop faults pages back in from their backing: elsewhere `file` would
    // change nothing, so it is refused rather than ignored.
    if mapping == Mapping::File && !reread {
        return Err(SimError::new(
            v::MAPPING.path(),
            "mapping = \"file\" needs reread = true (the read-back loop is where a file \
             mapping differs from anonymous memory)"
                .to_string(),
        ));
    }
    let workload = Workload {
        threads,
        busy_threads,
        lazy_cpus,
        flushes: v::FLUSHES.int(w.flushes)? as u32,
        pages,
        initiator: CpuId(initiator),
        period_ns: v::PERIOD_NS.int(w.period_ns)? as u64,
        freed_tables,
        irqs_off_probability: probability,
        irqs_off_gap_ns: v::IRQS_OFF_GAP_NS.int(w.irqs_off_gap_ns)? as u64,
        irqs_off_dist: v::IRQS_OFF_DIST.choice(w.irqs_off_dist.as_deref(), Dist::ALL)?,
        irqs_off_mean_ns: v::IRQS_OFF_MEAN_NS.int_or(w.irqs_off_mean_ns, irqs_off_max_ns / 4)?
            as u64,
        irqs_off_max_ns: irqs_off_max_ns as u64,
        wakeup_period_ns: v::WAKEUP_PERIOD_NS.int(w.wakeup_period_ns)? as u64,
        wakeup_cpu: CpuId(
            v::WAKEUP_CPU.int_upto(w.wakeup_cpu, initiator as i64, cpus as i64 - 1)? as u16,
        ),
        wakeup_work_ns: v::WAKEUP_WORK_NS.int(w.wakeup_work_ns)? as u64,
        mm_pages: v::MM_PAGES.int(w.mm_pages)?.max(needed_pages.min(1 << 20)) as u32,
        op: match w.op.as_deref() {
            None if freed_tables => WorkOp::Munmap,
            op => v::OP.choice(op, WorkOp::ALL)?,
        },
        processes: v::PROCESSES.on_off(w.processes.as_ref())?,
        hot_pages: hot_pages as u32,
        victims,
        victim_work_ns: v::VICTIM_WORK_NS.int(w.victim_work_ns)? as u64,
        reread,
        mapping,
    };

    let mut costs = preset.costs;
    for (name, &value) in &f.costs {
        let path = format!("costs.{name}");
        let cost = v::COSTS.iter().find(|c| c.name == name).ok_or_else(|| {
            let names: Vec<&str> = v::COSTS.iter().map(|c| c.name).collect();
            SimError::new(
                &path,
                format!("unknown cost; known costs: {}", names.join(", ")),
            )
        })?;
        *(cost.field)(&mut costs) = int_in(&path, Some(value), 0, 0, cost.max())? as u64;
    }

    let mut tasks = Vec::with_capacity(f.tasks.len());
    if f.tasks.len() > budget::MAX_TASKS {
        return Err(too_many("tasks", f.tasks.len(), budget::MAX_TASKS));
    }
    if f.steps.len() > budget::MAX_STEPS {
        return Err(too_many("steps", f.steps.len(), budget::MAX_STEPS));
    }
    for (i, t) in f.tasks.into_iter().enumerate() {
        tasks.push(validate_task(i, t, cpus, workload.mm_pages, arch)?);
    }

    let e = f.expect;
    let names = |path: &str, v: Vec<String>| -> Result<Vec<String>, SimError> {
        for n in &v {
            let ok =
                n.len() >= 2 && n.starts_with('I') && n[1..].chars().all(|c| c.is_ascii_digit());
            if !ok {
                return Err(SimError::new(
                    path,
                    format!("`{n}` is not an invariant name like I3"),
                ));
            }
        }
        Ok(v)
    };
    let mut cases = Vec::new();
    for (i, c) in e.cases.into_iter().enumerate() {
        cases.push(ExpectCase {
            set: c.set,
            violations: names(&format!("expect.cases[{i}].violations"), c.violations)?,
        });
    }
    let expect = Expect {
        violations: names("expect.violations", e.violations)?,
        cases,
        test_set: e.test_set,
    };
    let guide = match f.guide {
        None => None,
        Some(g) => Some(int_in("guide", Some(g), 1, 1, 1000)? as u32),
    };
    let steps = f
        .steps
        .into_iter()
        .enumerate()
        .map(|(i, st)| validate_step(i, st, cpus))
        .collect::<Result<Vec<_>, _>>()?;

    let cfg = Config {
        title: f.title.unwrap_or_else(|| "Untitled scenario".into()),
        description: f.description.unwrap_or_default(),
        summary: f.summary.unwrap_or_default(),
        arch,
        cpus,
        preset: preset.id.to_string(),
        tlb_entries,
        tlb_ways,
        tlb_index,
        sockets,
        cacheline_bytes,
        flush_info_bytes: v::FLUSH_INFO_BYTES.int(m.flush_info_bytes)? as u32,
        stack_offset: v::STACK_OFFSET.int(m.stack_offset)? as u32,
        max_time_ns: v::MAX_TIME_NS.int(m.max_time_ns)? as u64,
        max_events: v::MAX_EVENTS.int(m.max_events)? as u64,
        max_memory_mb: v::MAX_MEMORY_MB.int(m.max_memory_mb)? as u32,
        asid_bits,
        design,
        workload,
        tasks,
        costs,
        expect,
        notes: Vec::new(),
        guide,
        steps,
        claims: f.claims,
    };
    check_state_fits(&cfg)?;
    Ok(cfg)
}

/// The error for an array of tables longer than its cap, naming the first entry over it.
pub(super) fn too_many(name: &str, count: usize, max: usize) -> SimError {
    SimError::new(
        format!("{name}[{max}]"),
        format!("{count} {name}; a scenario may have at most {max} (this is the first one over)"),
    )
}

/// The machine's state must fit the run's memory budget before the first event allocates it.
fn check_state_fits(cfg: &Config) -> Result<(), SimError> {
    let need = budget::state_bytes(cfg);
    if need <= budget::limit_bytes(cfg) {
        return Ok(());
    }
    let tlbs = cfg.cpus as u64 * cfg.tlb_entries as u64;
    let spaces = budget::address_spaces(cfg);
    let pages = spaces * cfg.workload.mm_pages as u64;
    let path = if tlbs * 16 >= pages * 12 {
        "machine.tlb_entries"
    } else {
        "workload.mm_pages"
    };
    Err(SimError::new(
        path,
        format!(
            "the machine's state needs {} MB ({} CPUs × {} TLB entries; {spaces} address \
             spaces × {} pages), over the run's memory budget of {} MB: use fewer CPUs, TLB \
             entries, processes or pages, or raise max_memory_mb (at most {})",
            need.div_ceil(budget::MIB),
            cfg.cpus,
            cfg.tlb_entries,
            cfg.workload.mm_pages,
            cfg.max_memory_mb,
            budget::MAX_MEMORY_MB
        ),
    ))
}

/// The kernel `kernel=` names, given as a string or (from `--set kernel=5.3`) a number.
fn x86_kernel(v: &toml::Value) -> Result<crate::arch::x86::kernels::Kernel, SimError> {
    use crate::arch::x86::kernels;
    let name = match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Integer(i) => i.to_string(),
        other => format!("{other:?}"),
    };
    kernels::by_name(&name).ok_or_else(|| one_of(&v::KERNEL.path(), &name, kernels::NAMES))
}

/// A count of threads that does not fit the CPUs: says where the CPU count came from, since a
/// scenario's own `machine.cpus` wins over the count of a preset named beside it.
fn cpus_hint(
    e: SimError,
    given: Option<i64>,
    named: bool,
    preset: &presets::Preset,
    initiator: u16,
) -> SimError {
    let after = if initiator > 0 {
        format!(" from the initiator's CPU {initiator} on")
    } else {
        String::new()
    };
    let (id, count) = (preset.id, preset.cpus);
    let why = match given {
        Some(n) if named && n != count as i64 => format!(
            "the scenario sets machine.cpus = {n}{after}, which wins over \
             machine={id}'s {count}: set machine.cpus too"
        ),
        Some(n) => format!("machine.cpus = {n}{after}"),
        None => format!("machine={id} has {count}{after}"),
    };
    SimError {
        message: format!("{}; one thread a CPU, and {why}", e.message),
        ..e
    }
}

//! A task's program: a short list of operations written as text in a scenario
//! (`program = "touch 0 4; madvise 0 4; spin 2us"`), parsed here into [`Op`]s.
//!
//! Grammar: operations separated by `;` or newlines; arguments separated by spaces; durations
//! are integers with an optional unit `ns` (default), `us`, `ms` or `s`.
//!
//! | op | meaning |
//! |---|---|
//! | `touch P [N]` | user access to pages P..P+N (TLB lookup; miss ⇒ walk; non-present ⇒ fault) |
//! | `read P [N]` | like touch, but a fault maps the zero page (or a file's page) instead of allocating one |
//! | `madvise P [N]` | `MADV_DONTNEED`: zap the PTEs, then `flush_tlb_mm_range` (no tables freed) |
//! | `munmap P [N]` | like madvise but page tables are freed (`freed_tables`) |
//! | `mprotect P [N]` | change protection: the PTEs change but stay present, then flush the range |
//! | `cow P [N]` | copy-on-write faults: fault + copy a page, replace the PTE, flush it (`ptep_clear_flush`) |
//! | `cpuid N` | N calls of `smp_processor_id()` (arm64: cost by `design.cpu_id`; commit bf0baa5bbdc9) |
//! | `this_cpu_inc` | one arm64 `this_cpu_inc()`: preempt_disable, TPIDR_EL1 + add, RMW, preempt_enable |
//! | `spin [T]` | busy in user mode for T (forever without T); preemptible |
//! | `cli` / `sti` | disable / enable local interrupts (IPIs stay pending in the APIC) |
//! | `irqsoff T\|rand` | `cli`, busy for T (or a draw from the workload's distribution), `sti` |
//! | `maybe_irqsoff` | with the workload's `irqs_off_probability`, `irqsoff rand` |
//! | `sleep T` | block for T (the CPU idles, lazily keeping the mm loaded) |
//! | `at T` | block until absolute simulated time T |
//! | `pace T` | busy in user mode until T after this iteration started |
//! | `speculate` | the CPU speculatively walks the page tables CR3 points at (checks I4) |
//! | `migrate C` | move to CPU C (`sched_setaffinity`) |
//! | `yield` | let an equal-priority runnable task run |

use crate::ids::Ns;
use crate::page_cache::Backing;

/// A duration that is either fixed or drawn from the workload's interrupts-off distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dur {
    Fixed(Ns),
    Rand,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Touch {
        page: u32,
        n: u32,
    },
    /// A read that faults non-present pages in read-only (allocating nothing).
    Read {
        page: u32,
        n: u32,
        from: Backing,
    },
    Madvise {
        page: u32,
        n: u32,
    },
    Munmap {
        page: u32,
        n: u32,
    },
    Mprotect {
        page: u32,
        n: u32,
    },
    /// A write fault on read-only pages: a new page for each, copied or zero-filled.
    Cow {
        page: u32,
        n: u32,
        from: Backing,
    },
    CpuId(u64),
    ThisCpuInc,
    Spin(Option<Ns>),
    Cli,
    Sti,
    IrqsOff(Dur),
    MaybeIrqsOff,
    Sleep(Ns),
    At(Ns),
    Pace(Ns),
    Speculate,
    Migrate(u16),
    Yield,
}

impl Op {
    /// Highest page (exclusive) the op addresses, for range validation.
    pub fn page_end(&self) -> u64 {
        match *self {
            Op::Touch { page, n }
            | Op::Read { page, n, .. }
            | Op::Madvise { page, n }
            | Op::Munmap { page, n }
            | Op::Mprotect { page, n }
            | Op::Cow { page, n, .. } => page as u64 + n as u64,
            _ => 0,
        }
    }
}

/// The longest duration a program may name (1000 s of simulated time).
const MAX_DUR: u64 = 1_000_000_000_000;

pub fn parse_duration(s: &str) -> Result<Ns, String> {
    let s = s.trim();
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (e.g. 500, 2us, 1ms)"))?;
    let mul = match unit {
        "" | "ns" => 1,
        "us" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        _ => return Err(format!("unknown unit in `{s}`; use ns, us, ms or s")),
    };
    let v = n
        .checked_mul(mul)
        .filter(|&v| v <= MAX_DUR)
        .ok_or_else(|| format!("`{s}` is too long (at most 1000 s)"))?;
    Ok(v)
}

fn parse_u32(s: &str, what: &str) -> Result<u32, String> {
    s.parse::<u32>()
        .map_err(|_| format!("{what} must be a non-negative integer, got `{s}`"))
}

/// Parses a program text into ops, or explains the first bad op.
pub fn parse(text: &str) -> Result<Vec<Op>, String> {
    let mut ops = Vec::new();
    for raw in text.split([';', '\n']) {
        let words: Vec<&str> = raw.split_whitespace().collect();
        let Some((&name, args)) = words.split_first() else {
            continue;
        };
        let arity = |lo: usize, hi: usize| -> Result<(), String> {
            if args.len() < lo || args.len() > hi {
                Err(format!(
                    "`{}` takes {lo}{} argument(s), got {}",
                    raw.trim(),
                    if hi > lo {
                        format!("–{hi}")
                    } else {
                        String::new()
                    },
                    args.len()
                ))
            } else {
                Ok(())
            }
        };
        let pages = |args: &[&str]| -> Result<(u32, u32), String> {
            let page = parse_u32(args[0], "page")?;
            let n = match args.get(1) {
                Some(a) => parse_u32(a, "page count")?,
                None => 1,
            };
            if n == 0 {
                return Err("page count must be at least 1".into());
            }
            Ok((page, n))
        };
        let op = match name {
            "touch" | "read" | "madvise" | "munmap" | "mprotect" | "cow" => {
                arity(1, 2)?;
                let (page, n) = pages(args)?;
                match name {
                    "touch" => Op::Touch { page, n },
                    // A program's read maps the zero page; its cow copies a page of its own.
                    "read" => Op::Read {
                        page,
                        n,
                        from: Backing::Zero,
                    },
                    "madvise" => Op::Madvise { page, n },
                    "mprotect" => Op::Mprotect { page, n },
                    "cow" => Op::Cow {
                        page,
                        n,
                        from: Backing::Page,
                    },
                    _ => Op::Munmap { page, n },
                }
            }
            "cpuid" => {
                arity(1, 1)?;
                let n: u64 = args[0]
                    .parse()
                    .ok()
                    .filter(|&n| n <= 1_000_000_000_000)
                    .ok_or_else(|| {
                        format!("cpuid takes a call count up to 10^12, got `{}`", args[0])
                    })?;
                Op::CpuId(n)
            }
            "this_cpu_inc" => Op::ThisCpuInc,
            "spin" => {
                arity(0, 1)?;
                match args.first() {
                    Some(a) => Op::Spin(Some(parse_duration(a)?)),
                    None => Op::Spin(None),
                }
            }
            "cli" => Op::Cli,
            "sti" => Op::Sti,
            "irqsoff" => {
                arity(1, 1)?;
                if args[0] == "rand" {
                    Op::IrqsOff(Dur::Rand)
                } else {
                    Op::IrqsOff(Dur::Fixed(parse_duration(args[0])?))
                }
            }
            "maybe_irqsoff" => Op::MaybeIrqsOff,
            "sleep" => {
                arity(1, 1)?;
                Op::Sleep(parse_duration(args[0])?)
            }
            "at" => {
                arity(1, 1)?;
                Op::At(parse_duration(args[0])?)
            }
            "pace" => {
                arity(1, 1)?;
                Op::Pace(parse_duration(args[0])?)
            }
            "speculate" => Op::Speculate,
            "migrate" => {
                arity(1, 1)?;
                let c = parse_u32(args[0], "cpu")?;
                Op::Migrate(c.min(u16::MAX as u32) as u16)
            }
            "yield" => Op::Yield,
            other => {
                return Err(format!(
                "unknown op `{other}`; known: touch, read, madvise, munmap, mprotect, cow, spin, \
                     cli, sti, irqsoff, maybe_irqsoff, sleep, at, pace, speculate, migrate, \
                     yield, cpuid, this_cpu_inc"
            ))
            }
        };
        if matches!(
            op,
            Op::Cli | Op::Sti | Op::Speculate | Op::Yield | Op::ThisCpuInc
        ) {
            arity(0, 0)?;
        }
        ops.push(op);
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_parses_into_ops_with_units() {
        let ops =
            parse("touch 0 4; madvise 0 4\nspin 2us; irqsoff rand; at 1ms; cli; sti").unwrap();
        assert_eq!(
            ops,
            [
                Op::Touch { page: 0, n: 4 },
                Op::Madvise { page: 0, n: 4 },
                Op::Spin(Some(2_000)),
                Op::IrqsOff(Dur::Rand),
                Op::At(1_000_000),
                Op::Cli,
                Op::Sti
            ]
        );
    }

    #[test]
    fn an_unknown_op_is_named() {
        let e = parse("touch 0; jump 3").unwrap_err();
        assert!(e.contains("unknown op `jump`"), "{e}");
    }

    #[test]
    fn a_huge_duration_is_rejected_not_overflowed() {
        assert!(parse("spin 99999999999999999s").is_err());
        assert!(parse("spin 18446744073709551615ms").is_err());
    }
}

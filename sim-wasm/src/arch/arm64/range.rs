//! How many TLBI ops a ranged flush issues, with and without FEAT_TLBIRANGE
//! (`__flush_tlb_range_nosync()` / `__flush_tlb_range_op()` in `arch/arm64/include/asm/tlbflush.h`).
//!
//! Without range ops (ARMv8.0–8.3 cores: Cavium ThunderX2, Neoverse N1, eMAG) the kernel issues
//! one `TLBI VALE1IS` (or `VAE1IS`) per page, all before one `DSB ISH`, until the range reaches
//! `MAX_DVM_OPS` (= `PTRS_PER_PTE`, 512) pages; from there on it flushes the whole ASID
//! instead. Every op is a DVM message of its own, so the cost of a range grows with its pages
//! and so does what every other core pays.
//!
//! With range ops (FEAT_TLBIRANGE, ARMv8.4) one `RVALE1IS` covers (NUM+1)·2^(5·SCALE+1) pages
//! (NUM 0…31, SCALE 0…3): the kernel starts at SCALE 3, takes the largest such block that fits,
//! goes down one scale at a time, and flushes a last odd page with a non-range op. A range thus
//! costs at most five ops, and only ranges over `MAX_TLBI_RANGE_PAGES` (2^21) pages fall back
//! to the ASID flush. The model charges a range op like a single-page op (one DVM message);
//! what a receiving core spends to invalidate a whole block is not modelled.

use super::state::TlbiOp;
use crate::config::Config;

/// `MAX_TLBI_RANGE_PAGES`: `__TLBI_RANGE_PAGES(31, 3)` = 32 · 2^16 pages.
pub const MAX_TLBI_RANGE_PAGES: u64 = 32 << 16;

/// `__TLBI_RANGE_PAGES(num, scale)`: pages one range op covers.
fn range_pages(num: u64, scale: u32) -> u64 {
    (num + 1) << (5 * scale + 1)
}

/// The pages each op of `__flush_tlb_range_op()` covers when the CPU has FEAT_TLBIRANGE, in
/// issue order: one range block per scale that fits, from SCALE 3 down, then one single-page op
/// for an odd last page.
pub fn range_blocks(pages: u64) -> Vec<u64> {
    let mut left = pages;
    let mut blocks = Vec::new();
    let mut scale: i32 = 3;
    while left > 0 {
        if left == 1 || scale < 0 {
            // Range ops span an even number of pages: the rest goes page by page.
            blocks.extend(std::iter::repeat_n(1, left as usize));
            break;
        }
        let s = scale as u32;
        // __TLBI_RANGE_NUM: the largest NUM whose block fits, or -1.
        let num = (left.min(range_pages(31, s)) >> (5 * s + 1)) as i64 - 1;
        if num >= 0 {
            let n = range_pages(num as u64, s);
            blocks.push(n);
            left -= n;
        }
        scale -= 1;
    }
    blocks
}

/// How many ops [`range_blocks`] issues.
pub fn range_ops(pages: u64) -> u64 {
    range_blocks(pages).len() as u64
}

/// Whether `__flush_tlb_range_nosync()` gives up on the range and flushes the whole ASID.
pub fn falls_back_to_asid(cfg: &Config, pages: u32) -> bool {
    if cfg.design.tlbi_range {
        pages as u64 > MAX_TLBI_RANGE_PAGES
    } else {
        pages >= cfg.design.max_dvm_ops
    }
}

/// TLBI ops (DVM messages, when broadcast) that `op` over `pages` pages issues.
pub fn ops(cfg: &Config, op: TlbiOp, pages: u32) -> u64 {
    match op {
        TlbiOp::Vale1 | TlbiOp::Vae1 if cfg.design.tlbi_range => range_ops(pages.max(1) as u64),
        _ => op.ops(pages),
    }
}

/// Presets whose CPUs implement FEAT_TLBIRANGE (ID_AA64ISAR0_EL1.TLB = 0b0010, ARMv8.4): the
/// default of `tlbi_range`. Every arm64 preset so far models an ARMv8.0–8.2 core without it.
pub fn preset_has_tlbi_range(_preset: &str) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_ops_take_one_block_per_scale_and_a_last_odd_page() {
        // 1 page: one single-page op. 2: one range op (NUM 0, SCALE 0).
        assert_eq!(range_ops(1), 1);
        assert_eq!(range_ops(2), 1);
        assert_eq!(range_ops(3), 2);
        // 64 pages fit SCALE 0 (at most 64): one op. 65: 64 + a last page.
        assert_eq!(range_ops(64), 1);
        assert_eq!(range_ops(65), 2);
        // 511 = 448 (SCALE 1, NUM 6) + 62 (SCALE 0, NUM 30) + 1.
        assert_eq!(range_ops(511), 3);
        // 512 = 512 (SCALE 1, NUM 7).
        assert_eq!(range_ops(512), 1);
        // The worst case: a block at every scale and an odd page.
        let worst = range_pages(0, 3) + range_pages(0, 2) + range_pages(0, 1) + 2 + 1;
        assert_eq!(range_ops(worst), 5);
        assert_eq!(range_ops(MAX_TLBI_RANGE_PAGES), 1);
    }

    #[test]
    fn range_blocks_cover_exactly_the_range_with_valid_granules() {
        let granule =
            |n: u64| n == 1 || (0..4u32).any(|s| (0..32u64).any(|num| range_pages(num, s) == n));
        for pages in [
            1u64,
            2,
            7,
            33,
            100,
            511,
            513,
            4097,
            65_535,
            1 << 20,
            MAX_TLBI_RANGE_PAGES,
        ] {
            let blocks = range_blocks(pages);
            assert_eq!(blocks.iter().sum::<u64>(), pages, "{pages}: {blocks:?}");
            assert!(blocks.iter().all(|&n| granule(n)), "{pages}: {blocks:?}");
            assert!(blocks.len() <= 5, "{pages}: {blocks:?}");
        }
    }
}

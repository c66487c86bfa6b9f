//! What backs the page a fault reads or writes, and what that adds to the fault: will-it-scale's
//! `tlb_flush1` (a private file mapping) and `tlb_flush2` (anonymous memory) run the same loop
//! and differ only here.
//!
//! - Anonymous memory (`Backing::Zero`): the read-back after `MADV_DONTNEED` maps the shared
//!   zero page (nothing to look up), and the next write allocates a page and zero-fills it
//!   (`wp_page_copy()` of the zero page: `clear_page`).
//! - A private file mapping (`Backing::File`): the read-back finds the file's folio in the page
//!   cache and maps it read-only (`filemap_map_pages()` / `filemap_fault()`), and the next write
//!   copies that folio into a new anonymous page (`wp_page_copy()`: `copy_page`).
//! - A page of the process's own (`Backing::Page`, fork's copy-on-write): the write copies it.

/// What a faulting page comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backing {
    /// A page of its own (fork's copy-on-write source, or a scenario's `cow`).
    Page,
    /// The shared zero page: anonymous memory read before it is written.
    Zero,
    /// A folio of the page cache, mapped privately.
    File,
}

/// The page-cache part of the cost model (`costs.<name>`, see `vocabulary::COSTS`).
#[derive(Clone, Debug, PartialEq)]
pub struct PageCosts {
    /// Zero-filling one new 4 KiB anonymous page on a write fault of the zero page.
    pub clear_page_ns: u64,
    /// A read fault's extra work when it maps a page-cache folio instead of the zero page.
    pub page_cache_fault_ns: u64,
}

impl Default for PageCosts {
    fn default() -> Self {
        PageCosts {
            // Estimate: half of the default `copy_page_ns` (700): a clear writes the 4 KiB a
            // copy writes and reads nothing (`clear_page_erms`, one `rep stosb`).
            clear_page_ns: 350,
            // Estimate: an xarray walk under RCU (three levels for a 128 MiB file), a folio
            // reference and trylock/unlock, and the file rmap's mapcount: about a dozen
            // dependent loads and four atomics at about 3 GHz.
            page_cache_fault_ns: 150,
        }
    }
}

impl PageCosts {
    /// Per page, what a write fault that replaces a read-only entry does besides the fault
    /// itself: copy the source page (`copy_page_ns`), or zero-fill a new one for the zero page.
    pub fn write_fault_page_ns(&self, from: Backing, copy_page_ns: u64) -> u64 {
        match from {
            Backing::Page | Backing::File => copy_page_ns,
            Backing::Zero => self.clear_page_ns,
        }
    }

    /// Per faulting page, what a read fault adds to `page_fault_ns` for its backing.
    pub fn read_fault_extra_ns(&self, from: Backing) -> u64 {
        match from {
            Backing::File => self.page_cache_fault_ns,
            Backing::Page | Backing::Zero => 0,
        }
    }
}

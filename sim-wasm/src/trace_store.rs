//! Where a run records its trace while it runs: the same rows and columns as [`Trace`], held in
//! 12 bytes a row (plus 16 for the rows whose fields do not fit) instead of 47, so that ten
//! million events fit in a browser worker and a native run faults in a quarter of the fresh pages.
//!
//! Rows live in chunks of 65,536; a full chunk is never moved again, so the trace grows without
//! the copy (and the twice-the-size peak) of one vector doubling. Within a chunk a row is one
//! 12-byte record of three words (one store per row, where ten column pushes cost a tenth of
//! the run): `time` as a 24-bit offset from the first row of its block of 1,024, `kind`,
//! `dur` as a 21-bit code, `parent` as the distance back to the parent row, `cpu`, and a 22-bit
//! `x` that holds `mm` and a small `arg` inline or points at the chunk's `ext` table, where the
//! row's `mm`, `asid`, `gen`, `addr` and `arg` are kept in 16 more bytes. Rows that need an
//! `ext` record mostly repeat one a few rows back (every target's `FlushTlbFunc` of one flush
//! reads the same descriptor), so identical records are shared. The rare value a code cannot
//! hold (a span longer than 2.1 ms, a block longer than 16.8 ms, an address off the user page
//! grid, a parent 8,191 rows back) is kept exactly in a side table keyed by row, so decoding
//! gives back the very `f64` the columns always held: the exported columns do not change, only
//! how they are kept.
//!
//! The widths, from every shipped scenario run whole and a 504-CPU fan-out of the bench: a
//! block spans at most 2.5 ms (the sparse `x86-pcid-pingpong-512`; 53 µs in the bench), spans
//! beyond 2.1 ms are the few whole-run `TaskRun`s, parents lie at most 4,871 rows back (the
//! fan-out; 138 in the shipped runs), and an instant's `gen` (kept in the `dur` code) passes
//! 2^21 only after about 55 M bench events.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns, USER_BASE};
use crate::trace::{Fields, Row, Trace, NO_PARENT};

const CHUNK_BITS: u32 = 16;
/// Rows per chunk: 768 KB of rows, small beside the traces it is for, large beside a push.
const CHUNK: usize = 1 << CHUNK_BITS;
/// Bytes of one chunk's rows.
pub const CHUNK_BYTES: u64 = CHUNK as u64 * ROW_BYTES;
/// Rows per block: each block's times are offsets from its first row's, so a 24-bit offset
/// holds any run that records a row per 16 µs on average, dense or sparse.
const BLOCK_BITS: u32 = 10;
const BLOCK: usize = 1 << BLOCK_BITS;

/// Bytes of one stored row (three words: time+kind+parent, dur+parent, x+cpu).
pub const ROW_BYTES: u64 = std::mem::size_of::<Rec>() as u64;
/// Bytes of one `ext` record (mm, asid: 2; gen, addr, arg: 4).
pub const EXT_BYTES: u64 = std::mem::size_of::<Ext>() as u64;
/// Bytes of one block's base time.
const BASE_BYTES: u64 = std::mem::size_of::<Ns>() as u64;
/// What one side-table entry costs the memory budget (key, value, B-tree node share).
const WIDE_BYTES: u64 = 32;

/// `a` and `b` are the halves of `time | kind << 24 | parent << 30 | dur << 43`: each field
/// whole in the 64 bits, so a push shifts each into place once.
const TIME_BITS: u32 = 24;
const TIME_MASK: u32 = (1 << TIME_BITS) - 1;
/// Time code of a row whose time is kept in the side table.
const TIME_WIDE: u32 = TIME_MASK;
const KIND_BITS: u32 = 6;
const KIND_MASK: u32 = (1 << KIND_BITS) - 1;
const PARENT_AT: u32 = TIME_BITS + KIND_BITS;
const PARENT_BITS: u32 = 13;
/// `parent` code of a row without one; codes `1..PARENT_WIDE` are the distance back to it.
const NO_PARENT_CODE: u32 = 0;
const PARENT_WIDE: u32 = (1 << PARENT_BITS) - 1;
/// A span's `dur` code, or an instant's `gen` (whose duration is 0 by its kind): the top 21
/// bits of `b`.
const DUR_AT: u32 = PARENT_AT + PARENT_BITS - 32;
const DUR_BITS: u32 = 32 - DUR_AT;
const DUR_MASK: u32 = (1 << DUR_BITS) - 1;
/// `dur` code of a span kept in the side table.
const WIDE: u32 = DUR_MASK;
/// `dur` code of a span not yet closed (exported as NaN until `close_all`).
const OPEN: u32 = DUR_MASK - 1;

/// `c` is `x | cpu << 22`. `x` with `EXT_BIT` set is an index into the chunk's `ext`
/// (at most `CHUNK` of them); clear, it is `mm << 14 | arg` and the row's `asid`, `gen`
/// (of a span) and `addr` are 0.
const X_BITS: u32 = 22;
const X_MASK: u32 = (1 << X_BITS) - 1;
const EXT_BIT: u32 = 1 << (X_BITS - 1);
const ARG_BITS: u32 = 14;
/// Largest `mm` and `arg` an inline `x` holds.
const INLINE_MM: u16 = (1 << (X_BITS - 1 - ARG_BITS)) - 1;
const INLINE_ARG: u64 = (1 << ARG_BITS) - 1;
/// A CPU from `CPU_WIDE` up is kept in the side table (the machine has at most 512, so only
/// a corrupted id would land there).
const CPU_WIDE: u16 = (1 << (32 - X_BITS)) - 1;

/// `ext` code of an `addr` or `arg` kept in the side table.
const EXT_WIDE: u32 = u32::MAX;

const _: () = {
    let mut i = 0;
    while i < EventKind::ALL.len() {
        assert!(
            (EventKind::ALL[i] as u32) < 1 << KIND_BITS,
            "a kind needs more bits"
        );
        i += 1;
    }
    assert!(PARENT_AT + PARENT_BITS + DUR_BITS == 64);
    assert!(EXT_BIT as usize >= CHUNK, "an ext index needs more bits");
    assert!(CHUNK.is_multiple_of(BLOCK));
};

/// Slots of the cache of recent `ext` records that lets a row share an identical one.
const RECENT_BITS: u32 = 5;

/// One row as stored: 12 bytes with no padding, so appending a row is one store of three words.
#[derive(Clone, Copy, Debug, Default)]
struct Rec {
    /// `time | kind << 24 | parent << 30` (the parent's low 2 bits); `time` is the offset
    /// from the block's base, or `TIME_WIDE`.
    a: u32,
    /// `parent >> 2 | dur << 11`.
    b: u32,
    /// `x | cpu << 22`.
    c: u32,
}

impl Rec {
    #[inline(always)]
    fn time(&self) -> u32 {
        self.a & TIME_MASK
    }
    #[inline(always)]
    fn kind(&self) -> u8 {
        (self.a >> TIME_BITS & KIND_MASK) as u8
    }
    #[inline(always)]
    fn dur(&self) -> u32 {
        self.b >> DUR_AT
    }
    #[inline(always)]
    fn set_dur(&mut self, code: u32) {
        self.b = self.b & ((1 << DUR_AT) - 1) | code << DUR_AT;
    }
    #[inline(always)]
    fn parent(&self) -> u32 {
        let lo = self.a as u64 | (self.b as u64) << 32;
        (lo >> PARENT_AT) as u32 & PARENT_WIDE
    }
    #[inline(always)]
    fn x(&self) -> u32 {
        self.c & X_MASK
    }
    #[inline(always)]
    fn cpu(&self) -> u16 {
        (self.c >> X_BITS) as u16
    }
    /// Whether the row's kind is a span (by `EventKind::is_span`'s rule, on the stored code).
    #[inline(always)]
    fn is_span(&self) -> bool {
        self.kind() < 32
    }
    #[inline(always)]
    fn pack(time: u32, kind: EventKind, dur: u32, parent: u32, x: u32, cpu: u16) -> Rec {
        let lo = (time | (kind as u32) << TIME_BITS) as u64
            | (parent as u64) << PARENT_AT
            | (dur as u64) << (DUR_AT + 32);
        Rec {
            a: lo as u32,
            b: (lo >> 32) as u32,
            c: x | (cpu as u32) << X_BITS,
        }
    }
}

/// The fields of a row that did not fit inline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Ext {
    mm: u16,
    asid: u16,
    gen: u32,
    /// `addr` code: 0, `1 + page` of a user page, or `WIDE`.
    addr: u32,
    /// `arg`, or `WIDE`.
    arg: u32,
}

impl Ext {
    /// Slot of the recent-records cache.
    #[inline(always)]
    fn slot(&self) -> usize {
        // Without `mm` and with shifts in place of most rotations: a record that differs only
        // in `mm` shares a slot, which costs a miss (1 % more records in the bench), never a
        // wrong share, as the whole record is compared.
        let h = self.gen ^ self.addr.rotate_left(16) ^ (self.asid as u32) << 3 ^ self.arg;
        (h.wrapping_mul(0x9e37_79b9) >> (32 - RECENT_BITS)) as usize
    }
}

#[derive(Clone, Debug, Default)]
struct Chunk {
    /// Time of the current block's first row: what `push` takes offsets from.
    base: Ns,
    /// `base` of each block begun, for decoding.
    bases: Vec<Ns>,
    rows: Vec<Rec>,
    ext: Vec<Ext>,
    /// Spans begun in this chunk and not yet ended: `close_all` scans only the chunks that
    /// still hold one. (A list of every begun span's row, compacted now and then, cost a cache
    /// miss per span to re-read its row: 3 % of a bench run.) Kept beside the rows, not in a
    /// vector of its own, so `begin` and `end` count it without a second bounds check.
    open: u32,
}

impl Chunk {
    fn capacity(&self) -> usize {
        self.rows.capacity()
    }

    /// Base time of the block of row `i` (of this chunk).
    #[inline]
    fn base(&self, i: usize) -> Ns {
        self.bases.get(i >> BLOCK_BITS).copied().unwrap_or(0)
    }

    /// The `ext` record an `x` word points at (zeros if it points nowhere).
    #[inline]
    fn ext(&self, x: u32) -> Ext {
        if x & EXT_BIT == 0 {
            Ext {
                mm: (x >> ARG_BITS) as u16,
                arg: x & INLINE_ARG as u32,
                ..Ext::default()
            }
        } else {
            self.ext
                .get((x & !EXT_BIT) as usize)
                .copied()
                .unwrap_or_default()
        }
    }
}

/// The values the narrow columns could not hold, by row.
#[derive(Clone, Debug, Default)]
struct Wide {
    time: BTreeMap<Row, Ns>,
    /// Exact `f64` of the duration (as the old `f64` column computed it).
    dur: BTreeMap<Row, f64>,
    addr: BTreeMap<Row, u64>,
    arg: BTreeMap<Row, u64>,
    parent: BTreeMap<Row, i32>,
    cpu: BTreeMap<Row, u16>,
}

impl Wide {
    fn len(&self) -> usize {
        self.time.len()
            + self.dur.len()
            + self.addr.len()
            + self.arg.len()
            + self.parent.len()
            + self.cpu.len()
    }
}

#[derive(Clone, Debug, Default)]
pub struct TraceStore {
    /// Filled chunks, in row order.
    full: Vec<Chunk>,
    /// The chunk rows are appended to (grows by doubling only while it is the first).
    cur: Chunk,
    len: usize,
    /// `ext` records of every chunk, for the memory budget.
    ext_len: usize,
    /// Index in `cur.ext` of a recent record per cache slot, plus one (0: empty). Reset with
    /// each chunk, as indices are per chunk.
    recent: [u32; 1 << RECENT_BITS],
    wide: Wide,
    /// Explanations referenced by `arg` of `InvariantViolated` rows.
    strings: Vec<String>,
    /// Bytes of `strings`, for the run's memory budget.
    string_bytes: u64,
    /// Rows are numbered but not kept (`mute`).
    muted: bool,
    /// Rows `cur` may hold before `make_room` runs again: its capacity, capped at the end of
    /// the current block (0 while muted or not begun). `push` tests this one number, so each
    /// block gets its base and a chunk never passes `CHUNK` rows even where `Vec` gives more
    /// capacity than was asked for, which its documentation allows, or a clone of a store
    /// holds less.
    room: usize,
}

/// `addr` code: 0 for 0, `1 + page` for a user page address, else `EXT_WIDE`.
#[inline(always)]
fn addr_code(addr: u64) -> u32 {
    // One compare for "on the page grid, at or above USER_BASE, below the limit": rotated,
    // an offset's bits within the page land on top, and one below USER_BASE has wrapped to
    // far beyond the limit, so either fails it.
    let page = addr.wrapping_sub(USER_BASE).rotate_right(12);
    if addr == 0 {
        0
    } else if page < (EXT_WIDE - 2) as u64 {
        page as u32 + 1
    } else {
        EXT_WIDE
    }
}

/// `dur` code of a closed span's exact duration, or `WIDE`.
fn dur_code(d: f64) -> u32 {
    if d >= 0.0 && d < OPEN as f64 && d.fract() == 0.0 {
        d as u32
    } else {
        WIDE
    }
}

impl TraceStore {
    /// From now on rows are numbered as before but not kept: the interleaving checker's
    /// search runs the simulator's transitions for their effect on the state, clones a world
    /// per state, and never reads the rows (a counterexample is replayed with a recording
    /// trace). The simulator itself never reads its trace back, so a muted run takes exactly
    /// the same transitions.
    pub fn mute(&mut self) {
        *self = TraceStore {
            len: self.len,
            muted: true,
            ..TraceStore::default()
        };
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the trace's rows, `ext` records, side tables and strings hold: what the run's
    /// memory budget counts. The chunk being filled holds up to [`CHUNK_BYTES`] more,
    /// uncounted so that the budget stops a run where it is full, not a chunk early.
    pub fn bytes(&self) -> u64 {
        let kept = if self.muted { 0 } else { self.len };
        kept as u64 * ROW_BYTES
            + kept.div_ceil(BLOCK) as u64 * BASE_BYTES
            + self.ext_len as u64 * EXT_BYTES
            + self.wide.len() as u64 * WIDE_BYTES
            + self.string_bytes
    }

    /// Bytes reserved for rows, block bases and `ext` records, filled or not (what memory
    /// measurements see).
    pub fn reserved_bytes(&self) -> u64 {
        let chunks = || self.full.iter().chain(std::iter::once(&self.cur));
        let rows: usize = chunks().map(Chunk::capacity).sum();
        let bases: usize = chunks().map(|c| c.bases.capacity()).sum();
        let ext: usize = chunks().map(|c| c.ext.capacity()).sum();
        rows as u64 * ROW_BYTES + bases as u64 * BASE_BYTES + ext as u64 * EXT_BYTES
    }

    /// The explanations `InvariantViolated` rows point at.
    pub fn strings(&self) -> &[String] {
        &self.strings
    }

    /// The `x` word of a row with fields `f` (`gen`, `addr` and `arg` already coded): inline
    /// when they fit, else an `ext` record, shared with an identical recent one. An instant
    /// keeps its `gen` in its `dur` code, so only a span's `gen`, or an instant's beyond the
    /// code, needs the record.
    #[inline(always)]
    fn x_word(&mut self, f: &Fields, instant: bool, gen: u32, addr: u32, arg: u32) -> u32 {
        let ext_gen = if instant { gen & !DUR_MASK } else { gen };
        // One test for all five conditions: each bit that may not be set, or'ed together.
        let spill = f.asid as u32
            | ext_gen
            | addr
            | arg & !(INLINE_ARG as u32)
            | (f.mm.0 & !INLINE_MM) as u32;
        if spill == 0 {
            return (f.mm.0 as u32) << ARG_BITS | arg;
        }
        self.ext_index(Ext {
            mm: f.mm.0,
            asid: f.asid,
            gen,
            addr,
            arg,
        })
    }

    /// `EXT_BIT |` the index of `e` in the current chunk's `ext`: an identical recent record
    /// if the cache has one, else `e` appended.
    #[inline]
    fn ext_index(&mut self, e: Ext) -> u32 {
        let slot = e.slot();
        let hit = self.recent[slot].wrapping_sub(1) as usize;
        if self.cur.ext.get(hit) == Some(&e) {
            return EXT_BIT | hit as u32;
        }
        let i = self.cur.ext.len();
        self.cur.ext.push(e);
        self.ext_len += 1;
        self.recent[slot] = i as u32 + 1;
        EXT_BIT | i as u32
    }

    /// Makes room for a row when the current chunk holds `room` rows: a full chunk is
    /// followed by a new one, a row that begins a block makes `time` the block's base, and the
    /// first chunk doubles (from 4 rows, up to `CHUNK`).
    #[cold]
    fn make_room(&mut self, time: Ns) {
        if self.cur.rows.len() == CHUNK {
            // The next chunk's records reserved at what this one needed and an eighth more: a
            // run's chunks need about as many each, and regrowing the table (a copy, and in
            // WASM a fresh block from the allocator) cost 2 % of a WASM bench run.
            let ext = self.cur.ext.len() + self.cur.ext.len() / 8;
            let next = Chunk {
                base: time,
                bases: Vec::with_capacity(CHUNK / BLOCK),
                rows: Vec::with_capacity(CHUNK),
                ext: Vec::with_capacity(ext.max(CHUNK / 64)),
                open: 0,
            };
            self.full.push(std::mem::replace(&mut self.cur, next));
            self.recent = Default::default();
        }
        let n = self.cur.rows.len();
        if n.is_multiple_of(BLOCK) {
            self.cur.base = time;
            self.cur.bases.push(time);
        }
        if self.cur.rows.capacity() <= n {
            self.cur.rows.reserve_exact(n.max(4).min(CHUNK - n));
        }
        let block_end = n - n % BLOCK + BLOCK;
        self.room = block_end.min(self.cur.rows.capacity());
    }

    // Inlined into every recording site: a `Fields` passed through memory and read back in
    // wider loads than it was written with stalled each push on store forwarding. The common
    // row takes one test for "the chunk has room" (which a muted store, whose rows never get
    // any, always fails: its rows go to `push_cold` without a test of their own) and one for
    // "every field fits its code"; the rest go through `push_wide`.
    #[inline(always)]
    fn push(&mut self, time: Ns, dur: u32, cpu: CpuId, kind: EventKind, f: Fields) -> Row {
        if self.cur.rows.len() == self.room {
            return self.push_cold(
                time, dur, cpu, kind, f.mm, f.asid, f.gen, f.addr, f.arg, f.parent,
            );
        }
        let instant = !kind.is_span();
        let row = self.len as Row;
        let off = time.wrapping_sub(self.cur.base);
        let addr = addr_code(f.addr);
        let back = f.parent.map_or(0, |p| row.wrapping_sub(p));
        // A parent 0 rows back (itself) or ahead (wrapped) is not a distance the code holds.
        let back_fits = f.parent.is_none() || back.wrapping_sub(1) < PARENT_WIDE - 1;
        let fits = (off < TIME_WIDE as u64)
            & (addr != EXT_WIDE)
            & (f.arg < EXT_WIDE as u64)
            & back_fits
            & (cpu.0 < CPU_WIDE);
        if !fits {
            return self.push_wide(
                time, dur, cpu, kind, f.mm, f.asid, f.gen, f.addr, f.arg, f.parent,
            );
        }
        // Generations beyond u32 would need > 4e9 flushes of one mm in one run.
        let gen = f.gen.min(u32::MAX as u64) as u32;
        let x = self.x_word(&f, instant, gen, addr, f.arg as u32);
        // An instant's duration is 0 by its kind: the code holds its `gen` instead (or what
        // fits of it, the whole being in its `ext` record).
        let dur = if instant { gen & DUR_MASK } else { dur };
        self.cur
            .rows
            .push(Rec::pack(off as u32, kind, dur, back, x, cpu.0));
        self.len += 1;
        row
    }

    /// `push` of a row when the chunk has no room: a muted store only numbers it.
    #[cold]
    #[inline(never)]
    // The fields one by one, not a `Fields`: an aggregate that size goes through memory, and
    // LLVM wrote it to the caller's stack frame ahead of `push`'s tests, on every row, for this
    // rare call (WASM: 6 stores a row and a frame in every recording function).
    #[allow(clippy::too_many_arguments)]
    fn push_cold(
        &mut self,
        time: Ns,
        dur: u32,
        cpu: CpuId,
        kind: EventKind,
        mm: MmId,
        asid: u16,
        gen: u64,
        addr: u64,
        arg: u64,
        parent: Option<Row>,
    ) -> Row {
        if self.muted {
            self.len += 1;
            return (self.len - 1) as Row;
        }
        self.make_room(time);
        self.push_wide(time, dur, cpu, kind, mm, asid, gen, addr, arg, parent)
    }

    /// `push` of a row with a field its code cannot hold: that field's code is `WIDE` (or
    /// `PARENT_WIDE`, `CPU_WIDE`) and its value goes to the side table.
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn push_wide(
        &mut self,
        time: Ns,
        dur: u32,
        cpu: CpuId,
        kind: EventKind,
        mm: MmId,
        asid: u16,
        gen: u64,
        addr: u64,
        arg: u64,
        parent: Option<Row>,
    ) -> Row {
        let f = Fields {
            mm,
            asid,
            gen,
            addr,
            arg,
            parent,
        };
        let row = self.len as Row;
        let instant = !kind.is_span();
        let off = time.wrapping_sub(self.cur.base);
        let time_code = if off < TIME_WIDE as u64 {
            off as u32
        } else {
            self.wide.time.insert(row, time);
            TIME_WIDE
        };
        let addr = addr_code(f.addr);
        if addr == EXT_WIDE {
            self.wide.addr.insert(row, f.addr);
        }
        let arg = if f.arg < EXT_WIDE as u64 {
            f.arg as u32
        } else {
            self.wide.arg.insert(row, f.arg);
            EXT_WIDE
        };
        let gen = f.gen.min(u32::MAX as u64) as u32;
        let x = self.x_word(&f, instant, gen, addr, arg);
        let parent = match f.parent {
            None => NO_PARENT_CODE,
            Some(p) => {
                let back = row.wrapping_sub(p);
                if back != 0 && back < PARENT_WIDE {
                    back
                } else {
                    self.wide.parent.insert(row, p as i32);
                    PARENT_WIDE
                }
            }
        };
        let cpu_code = if cpu.0 < CPU_WIDE {
            cpu.0
        } else {
            self.wide.cpu.insert(row, cpu.0);
            CPU_WIDE
        };
        let dur = if instant { gen & DUR_MASK } else { dur };
        self.cur
            .rows
            .push(Rec::pack(time_code, kind, dur, parent, x, cpu_code));
        self.len += 1;
        row
    }

    /// Records an instant event.
    // Forced like `span`: with the architecture's methods inlined into the event loop (the
    // `match` dispatch of `arch/mod.rs`), the native build stopped inlining this and `begin`
    // into the flush functions and paid a call per row (+1 % of the bench run's instructions).
    #[inline(always)]
    pub fn instant(&mut self, time: Ns, cpu: CpuId, kind: EventKind, f: Fields) -> Row {
        debug_assert!(!kind.is_span());
        self.push(time, 0, cpu, kind, f)
    }

    /// Opens a span at `time`; close it with [`TraceStore::end`]. Until closed its `dur` is NaN.
    #[inline(always)]
    pub fn begin(&mut self, time: Ns, cpu: CpuId, kind: EventKind, f: Fields) -> Row {
        debug_assert!(kind.is_span());
        let row = self.push(time, OPEN, cpu, kind, f);
        // The row is in `cur` (`push` starts a chunk before it). A muted store counts into its
        // empty chunk, which `close_all` finds nothing in: cheaper than testing for it.
        self.cur.open = self.cur.open.wrapping_add(1);
        row
    }

    /// Records a span whose duration is already known (it starts now and ends in the future).
    // Forced inline like `push`: left to itself the compiler called it, and its hot site
    // (`flush_tlb_func`, a row per target CPU) paid a call, six saved registers and its
    // `Fields` through memory on each row.
    #[inline(always)]
    pub fn span(&mut self, time: Ns, dur: Ns, cpu: CpuId, kind: EventKind, f: Fields) -> Row {
        debug_assert!(kind.is_span());
        // An integer below OPEN is its own code (what `dur_code` of its exact f64 gives,
        // without the float round trip); anything longer keeps the f64 the column held.
        let code = if dur < OPEN as u64 { dur as u32 } else { WIDE };
        if code == WIDE && !self.muted {
            self.wide.dur.insert(self.len as Row, dur as f64);
        }
        self.push(time, code, cpu, kind, f)
    }
    /// Closes a span opened by [`TraceStore::begin`].
    pub fn end(&mut self, row: Row, time: Ns) {
        let (k, i) = Self::at(row as usize);
        // One lookup of the row, no test for `muted` or `len`: a muted store keeps no rows,
        // and a row not recorded is not in its chunk.
        // Most spans end in the chunk they began in: the one being filled is tried first.
        let c = if k == self.full.len() {
            &mut self.cur
        } else if let Some(c) = self.full.get_mut(k) {
            c
        } else {
            return;
        };
        let base = c.base(i);
        let Some(r) = c.rows.get_mut(i) else {
            return;
        };
        if r.dur() == OPEN && r.is_span() {
            close(r, base, row, time, &mut self.wide);
            c.open = c.open.saturating_sub(1);
        }
    }

    /// Closes every span still open at the end of the run, so no NaN crosses the boundary.
    pub fn close_all(&mut self, time: Ns) {
        let chunks = self.full.iter_mut().chain(std::iter::once(&mut self.cur));
        for (k, c) in chunks.enumerate() {
            let first = k << CHUNK_BITS;
            for (i, r) in c.rows.iter_mut().enumerate() {
                if c.open == 0 {
                    break;
                }
                if r.dur() == OPEN && r.is_span() {
                    let base = c.bases.get(i >> BLOCK_BITS).copied().unwrap_or(0);
                    close(r, base, (first + i) as Row, time, &mut self.wide);
                    c.open -= 1;
                }
            }
        }
    }

    /// Adds an explanation to the string table and returns its index (for `arg`).
    pub fn intern(&mut self, s: String) -> u64 {
        if self.muted {
            return 0;
        }
        self.string_bytes += s.len() as u64 + 24;
        self.strings.push(s);
        (self.strings.len() - 1) as u64
    }

    #[inline]
    fn at(row: usize) -> (usize, usize) {
        (row >> CHUNK_BITS, row & (CHUNK - 1))
    }

    #[inline]
    fn chunk(&self, k: usize) -> &Chunk {
        self.full.get(k).unwrap_or(&self.cur)
    }

    /// `time` of one row (`row < len`).
    pub fn time(&self, row: usize) -> f64 {
        let (k, i) = Self::at(row);
        let c = self.chunk(k);
        decode_time(c.base(i), c.rows[i].time(), row, &self.wide)
    }

    /// `dur` of one row: NaN while the span is open.
    pub fn dur(&self, row: usize) -> f64 {
        let (k, i) = Self::at(row);
        decode_dur(&self.chunk(k).rows[i], row, &self.wide)
    }

    pub fn kind(&self, row: usize) -> u8 {
        let (k, i) = Self::at(row);
        self.chunk(k).rows[i].kind()
    }

    pub fn cpu(&self, row: usize) -> u16 {
        let (k, i) = Self::at(row);
        decode_cpu(self.chunk(k).rows[i].cpu(), row, &self.wide)
    }

    /// One column's values over `rows` (clamped to the trace), decoded per chunk (`decode`
    /// takes the chunk, the row, its index in the chunk and in the trace).
    fn column<T>(
        &self,
        rows: Range<usize>,
        decode: impl Fn(&Chunk, &Rec, usize, usize) -> T,
    ) -> Vec<T> {
        let end = rows.end.min(self.len);
        let start = rows.start.min(end);
        let mut out = Vec::with_capacity(end - start);
        let mut row = start;
        while row < end {
            let (k, i) = Self::at(row);
            let c = self.chunk(k);
            let n = (CHUNK - i).min(end - row);
            for (j, r) in c.rows[i..i + n].iter().enumerate() {
                out.push(decode(c, r, i + j, row + j));
            }
            row += n;
        }
        out
    }

    pub fn time_column(&self, rows: Range<usize>) -> Vec<f64> {
        self.column(rows, |c, r, i, row| {
            decode_time(c.base(i), r.time(), row, &self.wide)
        })
    }
    pub fn dur_column(&self, rows: Range<usize>) -> Vec<f64> {
        self.column(rows, |_, r, _, row| decode_dur(r, row, &self.wide))
    }
    pub fn addr_column(&self, rows: Range<usize>) -> Vec<f64> {
        self.column(rows, |c, r, _, row| {
            decode_addr(c.ext(r.x()).addr, row, &self.wide)
        })
    }
    pub fn arg_column(&self, rows: Range<usize>) -> Vec<f64> {
        self.column(rows, |c, r, _, row| {
            decode_arg(c.ext(r.x()).arg, row, &self.wide)
        })
    }
    pub fn gen_column(&self, rows: Range<usize>) -> Vec<u32> {
        self.column(rows, |c, r, _, _| decode_gen(c, r))
    }
    pub fn parent_column(&self, rows: Range<usize>) -> Vec<i32> {
        self.column(rows, |_, r, _, row| {
            decode_parent(r.parent(), row, &self.wide)
        })
    }
    pub fn cpu_column(&self, rows: Range<usize>) -> Vec<u16> {
        self.column(rows, |_, r, _, row| decode_cpu(r.cpu(), row, &self.wide))
    }
    pub fn mm_column(&self, rows: Range<usize>) -> Vec<u16> {
        self.column(rows, |c, r, _, _| c.ext(r.x()).mm)
    }
    pub fn asid_column(&self, rows: Range<usize>) -> Vec<u16> {
        self.column(rows, |c, r, _, _| c.ext(r.x()).asid)
    }
    pub fn kind_column(&self, rows: Range<usize>) -> Vec<u8> {
        self.column(rows, |_, r, _, _| r.kind())
    }

    /// Every row, decoded into the plain columns (for tests and tools; the WASM side exports
    /// column ranges instead, so it never holds the wide form whole).
    pub fn decode(&self) -> Trace {
        let all = 0..self.len;
        Trace {
            time: self.time_column(all.clone()),
            dur: self.dur_column(all.clone()),
            cpu: self.cpu_column(all.clone()),
            kind: self.kind_column(all.clone()),
            mm: self.mm_column(all.clone()),
            asid: self.asid_column(all.clone()),
            gen: self.gen_column(all.clone()),
            addr: self.addr_column(all.clone()),
            arg: self.arg_column(all.clone()),
            parent: self.parent_column(all),
            strings: self.strings.clone(),
        }
    }

    /// [`Trace::hash`] of the decoded trace, computed chunk by chunk without decoding it whole.
    pub fn hash(&self) -> u64 {
        let mut h = crate::trace::Fnv::default();
        let mut row = 0;
        while row < self.len {
            let end = (row + CHUNK).min(self.len);
            let part = Trace {
                time: self.time_column(row..end),
                dur: self.dur_column(row..end),
                cpu: self.cpu_column(row..end),
                kind: self.kind_column(row..end),
                mm: self.mm_column(row..end),
                asid: self.asid_column(row..end),
                gen: self.gen_column(row..end),
                addr: self.addr_column(row..end),
                arg: self.arg_column(row..end),
                parent: self.parent_column(row..end),
                strings: Vec::new(),
            };
            part.hash_rows(&mut h);
            row = end;
        }
        for s in &self.strings {
            h.eat(s.as_bytes());
        }
        h.finish()
    }
}

/// Below 2^53 ns (104 days) integer and f64 arithmetic agree; beyond, a duration is what the
/// f64 columns always computed, kept exactly in the side table.
const EXACT: u64 = 1 << 53;

/// Sets the `dur` of the open span `r` (row `row` of a chunk based at `base`) ending at `time`.
// Inlined into `end`'s sites with only the common span's arithmetic: a call per span cost
// more than the few instructions that close it.
#[inline(always)]
fn close(r: &mut Rec, base: Ns, row: Row, time: Ns, wide: &mut Wide) {
    let start = base.wrapping_add(r.time() as u64);
    let d = time.saturating_sub(start);
    if r.time() != TIME_WIDE && d < OPEN as u64 && (time | start) < EXACT {
        r.set_dur(d as u32);
    } else {
        close_wide(r, base, row, time, wide);
    }
}

/// `close` of any span, also one whose start, end or duration its codes cannot hold.
#[cold]
#[inline(never)]
fn close_wide(r: &mut Rec, base: Ns, row: Row, time: Ns, wide: &mut Wide) {
    let start = base.wrapping_add(r.time() as u64);
    let code = if r.time() != TIME_WIDE && time < EXACT && start < EXACT {
        let d = time.saturating_sub(start);
        if d < OPEN as u64 {
            d as u32
        } else {
            wide.dur.insert(row, d as f64);
            WIDE
        }
    } else {
        let start = match r.time() {
            TIME_WIDE => wide.time.get(&row).copied().unwrap_or(0),
            _ => start,
        };
        let d = (time as f64 - start as f64).max(0.0);
        let code = dur_code(d);
        if code == WIDE {
            wide.dur.insert(row, d);
        }
        code
    };
    r.set_dur(code);
}

#[inline]
fn decode_time(base: Ns, v: u32, row: usize, wide: &Wide) -> f64 {
    if v == TIME_WIDE {
        wide.time.get(&(row as Row)).copied().unwrap_or(0) as f64
    } else {
        base.wrapping_add(v as u64) as f64
    }
}

/// A row's `gen`: in its `ext` record if it has one, else 0 for a span and the `dur` code
/// for an instant.
#[inline]
fn decode_gen(c: &Chunk, r: &Rec) -> u32 {
    if r.x() & EXT_BIT != 0 {
        c.ext(r.x()).gen
    } else if r.is_span() {
        0
    } else {
        r.dur()
    }
}

#[inline]
fn decode_dur(r: &Rec, row: usize, wide: &Wide) -> f64 {
    if !r.is_span() {
        return 0.0;
    }
    match r.dur() {
        OPEN => f64::NAN,
        WIDE => wide.dur.get(&(row as Row)).copied().unwrap_or(0.0),
        d => d as f64,
    }
}

#[inline]
fn decode_addr(v: u32, row: usize, wide: &Wide) -> f64 {
    match v {
        0 => 0.0,
        EXT_WIDE => wide.addr.get(&(row as Row)).copied().unwrap_or(0) as f64,
        p => (USER_BASE + (p as u64 - 1) * 4096) as f64,
    }
}

#[inline]
fn decode_parent(v: u32, row: usize, wide: &Wide) -> i32 {
    match v {
        NO_PARENT_CODE => NO_PARENT,
        PARENT_WIDE => wide.parent.get(&(row as Row)).copied().unwrap_or(NO_PARENT),
        back => row as i32 - back as i32,
    }
}

#[inline]
fn decode_cpu(cpu: u16, row: usize, wide: &Wide) -> u16 {
    match cpu {
        CPU_WIDE => wide.cpu.get(&(row as Row)).copied().unwrap_or(CPU_WIDE),
        cpu => cpu,
    }
}

#[inline]
fn decode_arg(v: u32, row: usize, wide: &Wide) -> f64 {
    if v == EXT_WIDE {
        wide.arg.get(&(row as Row)).copied().unwrap_or(0) as f64
    } else {
        v as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::MmId;

    /// Rows with values on both sides of every narrow code's range, across chunk boundaries,
    /// decode to exactly what the plain `f64` columns held.
    #[test]
    fn narrow_columns_decode_to_the_exact_values_pushed() {
        let mut s = TraceStore::default();
        let mut want = Vec::new();
        let cpu = CpuId(3);
        for i in 0..(2 * CHUNK as u64 + 7) {
            // Mostly small steps, now and then a jump beyond 2^32 ns from the chunk's start.
            let time = i * 10 + if i % 40_000 == 39_999 { 1 << 33 } else { 0 };
            let addr = match i % 5 {
                0 => 0,
                1 => USER_BASE + (i % 1000) * 4096,
                2 => USER_BASE + 12,
                3 => 4096,
                _ => u64::MAX,
            };
            let arg = if i % 7 == 0 { 1 << 40 } else { i % 9 };
            let f = Fields {
                mm: MmId((i % 3) as u16),
                asid: (i % 6) as u16,
                gen: i,
                addr,
                arg,
                parent: (i % 4 == 0 && i > 0).then(|| (i - 1) as Row),
            };
            let row = match i % 3 {
                0 => s.instant(time, cpu, EventKind::IpiSent, f),
                1 => s.span(
                    time,
                    if i % 11 == 0 { 1 << 35 } else { i },
                    cpu,
                    EventKind::IpiWait,
                    f,
                ),
                _ => s.begin(time, cpu, EventKind::TaskRun, f),
            };
            want.push((row, time, addr, arg));
        }
        assert!(s.dur(2).is_nan(), "an open span exports NaN");
        s.end(2, 5);
        assert_eq!(s.dur(2), 0.0, "an end before the start clamps to 0");
        s.close_all(1 << 40);
        let t = s.decode();
        assert_eq!(t.len(), want.len());
        for &(row, time, addr, arg) in &want {
            let r = row as usize;
            assert_eq!(t.time[r], time as f64, "time of row {r}");
            assert_eq!(t.addr[r], addr as f64, "addr of row {r}");
            assert_eq!(t.arg[r], arg as f64, "arg of row {r}");
            assert_eq!(s.time(r), t.time[r]);
            assert_eq!(s.dur(r).to_bits(), t.dur[r].to_bits());
            assert!(t.dur[r].is_finite(), "row {r} left open");
        }
        assert_eq!(t.dur[22], (1u64 << 35) as f64, "a span beyond u32 ns");
        assert_eq!(t.dur[5], (1u64 << 40) as f64 - t.time[5]);
        assert_eq!(t.parent[4], 3);
        assert_eq!(t.parent[5], NO_PARENT);
        assert_eq!(s.hash(), t.hash());
        let part = s.time_column(CHUNK - 2..CHUNK + 2);
        assert_eq!(part, t.time[CHUNK - 2..CHUNK + 2].to_vec());
        assert!(s.time_column(5..usize::MAX).len() == t.len() - 5);
    }

    #[test]
    fn rows_take_12_bytes_and_chunks_are_reserved_whole_after_the_first() {
        assert_eq!(ROW_BYTES, 12);
        assert_eq!(EXT_BYTES, 16);
        let mut s = TraceStore::default();
        for i in 0..(3 * CHUNK as u64) {
            s.instant(i, CpuId(0), EventKind::IpiSent, Fields::default());
        }
        // Chunks after the first reserve their smallest `ext` table (the rows needed none);
        // each holds a base per block.
        let ext = (CHUNK / 64) as u64 * EXT_BYTES;
        let bases = (CHUNK / BLOCK) as u64 * BASE_BYTES;
        assert_eq!(s.reserved_bytes(), 3 * (CHUNK_BYTES + bases) + 2 * ext);
        s.instant(0, CpuId(0), EventKind::IpiSent, Fields::default());
        assert_eq!(s.reserved_bytes(), 4 * (CHUNK_BYTES + bases) + 3 * ext);
        let blocks = 3 * (CHUNK / BLOCK) as u64 + 1;
        assert_eq!(
            s.bytes(),
            (3 * CHUNK as u64 + 1) * ROW_BYTES + blocks * BASE_BYTES
        );
    }

    /// A clone's vectors hold only what they have, so its chunk is at capacity mid-way: the
    /// clone grows it to `CHUNK` rows, never past, and records on exactly as the original does.
    #[test]
    fn a_clone_taken_mid_chunk_records_on_like_the_original() {
        let mut s = TraceStore::default();
        let f = Fields::default();
        for i in 0..(CHUNK as u64 + 40_000) {
            s.instant(i, CpuId(1), EventKind::IpiSent, f);
        }
        let mut c = s.clone();
        assert_eq!(c.cur.rows.capacity(), 40_000, "a clone holds only its rows");
        for s in [&mut s, &mut c] {
            for i in 0..CHUNK as u64 {
                s.instant(1 << 20 | i, CpuId(2), EventKind::IpiSent, f);
            }
        }
        assert!(c.full.iter().all(|k| k.rows.len() == CHUNK));
        assert_eq!(c.hash(), s.hash());
    }

    /// Fields on both sides of what the inline word holds (`mm` 7 bits, `arg` 14 bits, no
    /// `asid`, span `gen` or `addr`), parents on both sides of the 13-bit distance, CPUs on both
    /// sides of the 10-bit code: every row decodes to what was pushed, identical `ext`
    /// records are shared and different ones are not, also across a chunk boundary.
    #[test]
    fn inline_words_ext_records_parents_and_cpus_decode_at_their_edges() {
        let mut s = TraceStore::default();
        let mut want: Vec<(CpuId, Fields)> = Vec::new();
        let variants = [
            Fields::default(),
            Fields {
                mm: MmId(INLINE_MM),
                arg: INLINE_ARG,
                ..Fields::default()
            },
            Fields {
                mm: MmId(INLINE_MM + 1),
                ..Fields::default()
            },
            Fields {
                arg: INLINE_ARG + 1,
                ..Fields::default()
            },
            Fields {
                asid: 1,
                ..Fields::default()
            },
            Fields {
                gen: 1,
                ..Fields::default()
            },
            Fields {
                mm: MmId(u16::MAX),
                asid: u16::MAX,
                gen: u32::MAX as u64 - 1,
                addr: USER_BASE + 4096,
                arg: u32::MAX as u64 - 1,
                parent: None,
            },
        ];
        let n = CHUNK + 3 * PARENT_WIDE as usize;
        let mut ext_before_chunk = 0;
        for i in 0..n {
            if i == CHUNK {
                ext_before_chunk = s.ext_len;
            }
            let row = i as Row;
            let parent = match i % 9 {
                0 => None,
                1 => Some(row - 1),
                2 if i >= PARENT_WIDE as usize - 1 => Some(row - (PARENT_WIDE - 1)),
                3 if i >= PARENT_WIDE as usize => Some(row - PARENT_WIDE),
                4 => Some(row),
                5 => Some(row + 7),
                6 => Some(0),
                _ => None,
            };
            let f = Fields {
                parent,
                ..variants[i % variants.len()]
            };
            let cpu = CpuId([0, 511, CPU_WIDE - 1, CPU_WIDE, u16::MAX][i % 5]);
            assert_eq!(s.span(i as u64, 5, cpu, EventKind::FlushTlbFunc, f), row);
            want.push((cpu, f));
        }
        // Five of the seven variants need an ext record; the cache shares each after its
        // first row in a chunk, so a chunk holds about five.
        assert!((5..=10).contains(&ext_before_chunk), "{ext_before_chunk}");
        assert!(
            s.ext_len - ext_before_chunk >= 5 && s.ext_len <= 20,
            "{}",
            s.ext_len
        );
        let t = s.decode();
        for (r, (cpu, f)) in want.iter().enumerate() {
            let at = format!("row {r}");
            assert_eq!(t.cpu[r], cpu.0, "{at}");
            assert_eq!(t.kind[r], EventKind::FlushTlbFunc as u8, "{at}");
            assert_eq!(t.dur[r], 5.0, "{at}");
            assert_eq!(t.mm[r], f.mm.0, "{at}");
            assert_eq!(t.asid[r], f.asid, "{at}");
            assert_eq!(t.gen[r] as u64, f.gen, "{at}");
            assert_eq!(t.addr[r], f.addr as f64, "{at}");
            assert_eq!(t.arg[r], f.arg as f64, "{at}");
            assert_eq!(
                t.parent[r],
                f.parent.map_or(NO_PARENT, |p| p as i32),
                "{at}"
            );
            assert_eq!(s.cpu(r), cpu.0, "{at}");
        }
        assert_eq!(s.hash(), t.hash());
    }

    /// An instant keeps its `gen` in the `dur` code: generations that equal the span codes
    /// (`OPEN`, `WIDE`) stay generations, its `dur` stays 0, and neither `end` nor `close_all`
    /// mistakes it for an open span; a generation beyond the code takes an `ext` record.
    #[test]
    fn an_instant_keeps_its_gen_in_the_dur_word_without_looking_open() {
        let mut s = TraceStore::default();
        let gens = [0, 1, OPEN as u64, WIDE as u64, WIDE as u64 + 1, 1 << 40];
        for (i, &gen) in gens.iter().enumerate() {
            let f = Fields {
                gen,
                mm: MmId(1),
                arg: 3,
                ..Fields::default()
            };
            s.instant(i as u64, CpuId(1), EventKind::IpiSent, f);
        }
        let span = s.begin(9, CpuId(1), EventKind::IpiWait, Fields::default());
        assert_eq!(
            s.ext_len, 2,
            "mm, arg and gen of an instant fit its row up to the code"
        );
        s.end(2, 50);
        s.end(3, 50);
        s.end(4, 50);
        s.close_all(100);
        let t = s.decode();
        for (r, &gen) in gens.iter().enumerate() {
            assert_eq!(t.gen[r] as u64, gen.min(u32::MAX as u64), "gen of row {r}");
            assert_eq!(t.dur[r].to_bits(), 0f64.to_bits(), "dur of row {r}");
            assert_eq!(s.dur(r), 0.0);
        }
        assert_eq!(t.dur[span as usize], 91.0, "the span is closed at the end");
    }
}

//! The columnar trace: one row per recorded event, columns as plain vectors so they cross the
//! WASM boundary as typed arrays in one copy each. Rows are appended in simulated-time order
//! (the engine pops events in time order), so the `time` column is sorted and the UI can
//! binary-search it. Spans are recorded at their start and closed later by patching `dur`.

use crate::events::EventKind;
use crate::ids::{CpuId, MmId, Ns};

/// Bytes of one trace row across its columns (time, dur, addr, arg: f64; gen: u32;
/// parent: i32; cpu, mm, asid: u16; kind: u8).
pub const ROW_BYTES: u64 = 8 * 4 + 4 + 4 + 2 * 3 + 1;

/// Row index of a trace event; also used as a causal link ("this row happened because of that one").
pub type Row = u32;

/// `parent` value of a row with no recorded cause.
pub const NO_PARENT: i32 = -1;

#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub time: Vec<f64>,
    pub dur: Vec<f64>,
    pub cpu: Vec<u16>,
    pub kind: Vec<u8>,
    pub mm: Vec<u16>,
    pub asid: Vec<u16>,
    pub gen: Vec<u32>,
    pub addr: Vec<f64>,
    pub arg: Vec<f64>,
    /// Causal predecessor row (e.g. an IPI handler's `IpiSent`), or `NO_PARENT`.
    pub parent: Vec<i32>,
    /// Explanations referenced by `arg` of `InvariantViolated` rows.
    pub strings: Vec<String>,
    /// Rows of spans begun and perhaps not yet ended (compacted now and then).
    open: Vec<Row>,
    /// Bytes of `strings`, for the run's memory budget.
    string_bytes: u64,
}

/// Fields of one row beyond time, cpu and kind; `Default` leaves them zero / no parent.
#[derive(Clone, Copy, Debug)]
pub struct Fields {
    pub mm: MmId,
    pub asid: u16,
    pub gen: u64,
    pub addr: u64,
    pub arg: u64,
    pub parent: Option<Row>,
}

impl Default for Fields {
    fn default() -> Self {
        Fields {
            mm: MmId::INIT_MM,
            asid: 0,
            gen: 0,
            addr: 0,
            arg: 0,
            parent: None,
        }
    }
}

impl Trace {
    pub fn len(&self) -> usize {
        self.time.len()
    }

    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// Bytes the trace's rows and strings hold (what the run's memory budget counts).
    pub fn bytes(&self) -> u64 {
        self.len() as u64 * ROW_BYTES + self.string_bytes
    }

    fn push(&mut self, time: Ns, dur: f64, cpu: CpuId, kind: EventKind, f: Fields) -> Row {
        let row = self.time.len() as Row;
        self.time.push(time as f64);
        self.dur.push(dur);
        self.cpu.push(cpu.0);
        self.kind.push(kind as u8);
        self.mm.push(f.mm.0);
        self.asid.push(f.asid);
        // Generations beyond u32 would need > 4e9 flushes of one mm in one run.
        self.gen.push(f.gen.min(u32::MAX as u64) as u32);
        self.addr.push(f.addr as f64);
        self.arg.push(f.arg as f64);
        self.parent.push(f.parent.map_or(NO_PARENT, |p| p as i32));
        row
    }

    /// Records an instant event.
    pub fn instant(&mut self, time: Ns, cpu: CpuId, kind: EventKind, f: Fields) -> Row {
        debug_assert!(!kind.is_span());
        self.push(time, 0.0, cpu, kind, f)
    }

    /// Opens a span at `time`; close it with [`Trace::end`]. Until closed its `dur` is NaN.
    pub fn begin(&mut self, time: Ns, cpu: CpuId, kind: EventKind, f: Fields) -> Row {
        debug_assert!(kind.is_span());
        let row = self.push(time, f64::NAN, cpu, kind, f);
        if self.open.len() >= 4096 && self.open.len() == self.open.capacity() {
            let dur = &self.dur;
            self.open.retain(|&r| dur[r as usize].is_nan());
        }
        self.open.push(row);
        row
    }

    /// Records a span whose duration is already known (it starts now and ends in the future).
    pub fn span(&mut self, time: Ns, dur: Ns, cpu: CpuId, kind: EventKind, f: Fields) -> Row {
        debug_assert!(kind.is_span());
        self.push(time, dur as f64, cpu, kind, f)
    }

    /// Closes a span opened by [`Trace::begin`].
    pub fn end(&mut self, row: Row, time: Ns) {
        let i = row as usize;
        if self.dur[i].is_nan() {
            self.dur[i] = (time as f64 - self.time[i]).max(0.0);
        }
    }

    /// Closes every span still open at the end of the run, so no NaN crosses the boundary.
    pub fn close_all(&mut self, time: Ns) {
        for r in std::mem::take(&mut self.open) {
            let i = r as usize;
            if self.dur[i].is_nan() {
                self.dur[i] = (time as f64 - self.time[i]).max(0.0);
            }
        }
    }

    /// Adds an explanation to the string table and returns its index (for `arg`).
    pub fn intern(&mut self, s: String) -> u64 {
        self.string_bytes += s.len() as u64 + 24;
        self.strings.push(s);
        (self.strings.len() - 1) as u64
    }

    /// Rows of one kind, in time order.
    pub fn rows_of(&self, kind: EventKind) -> impl Iterator<Item = usize> + '_ {
        let k = kind as u8;
        (0..self.len()).filter(move |&i| self.kind[i] == k)
    }

    /// FNV-1a over every column: equal hashes ⇔ (with overwhelming probability) equal traces.
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for b in bytes {
                h ^= *b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for i in 0..self.len() {
            eat(&self.time[i].to_bits().to_le_bytes());
            eat(&self.dur[i].to_bits().to_le_bytes());
            eat(&self.cpu[i].to_le_bytes());
            eat(&[self.kind[i]]);
            eat(&self.mm[i].to_le_bytes());
            eat(&self.asid[i].to_le_bytes());
            eat(&self.gen[i].to_le_bytes());
            eat(&self.addr[i].to_bits().to_le_bytes());
            eat(&self.arg[i].to_bits().to_le_bytes());
            eat(&self.parent[i].to_le_bytes());
        }
        for s in &self.strings {
            eat(s.as_bytes());
        }
        h
    }
}

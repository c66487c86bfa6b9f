//! The columnar trace: one row per recorded event, columns as plain vectors, as the web app and
//! the CLI see them (each column crosses the WASM boundary as one typed array). Rows are in
//! simulated-time order (the engine pops events in time order), so the `time` column is sorted
//! and the UI can binary-search it. A run records into the compact
//! [`TraceStore`](crate::trace_store::TraceStore); this is its decoded form.

use crate::ids::MmId;

/// Row index of a trace event; also used as a causal link ("this row happened because of that one").
pub type Row = u32;

/// `parent` value of a row with no recorded cause.
pub const NO_PARENT: i32 = -1;

#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub time: Vec<f64>,
    /// Span length in ns (0 for instants).
    pub dur: Vec<f64>,
    pub cpu: Vec<u16>,
    /// [`EventKind`](crate::events::EventKind) as its number.
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

/// FNV-1a, fed byte by byte.
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub fn eat(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Trace {
    pub fn len(&self) -> usize {
        self.time.len()
    }

    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// Rows of one kind, in time order.
    pub fn rows_of(&self, kind: crate::events::EventKind) -> impl Iterator<Item = usize> + '_ {
        let k = kind as u8;
        (0..self.len()).filter(move |&i| self.kind[i] == k)
    }

    /// Feeds every row, column by column within a row, to `h`.
    pub fn hash_rows(&self, h: &mut Fnv) {
        for i in 0..self.len() {
            h.eat(&self.time[i].to_bits().to_le_bytes());
            h.eat(&self.dur[i].to_bits().to_le_bytes());
            h.eat(&self.cpu[i].to_le_bytes());
            h.eat(&[self.kind[i]]);
            h.eat(&self.mm[i].to_le_bytes());
            h.eat(&self.asid[i].to_le_bytes());
            h.eat(&self.gen[i].to_le_bytes());
            h.eat(&self.addr[i].to_bits().to_le_bytes());
            h.eat(&self.arg[i].to_bits().to_le_bytes());
            h.eat(&self.parent[i].to_le_bytes());
        }
    }

    /// FNV-1a over every column: equal hashes ⇔ (with overwhelming probability) equal traces.
    pub fn hash(&self) -> u64 {
        let mut h = Fnv::default();
        self.hash_rows(&mut h);
        for s in &self.strings {
            h.eat(s.as_bytes());
        }
        h.finish()
    }
}

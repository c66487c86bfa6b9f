//! One pending event of the queue: when it comes due, its place among events of the same time,
//! and the event itself.

use crate::ids::Ns;

#[derive(Debug, Clone, Copy)]
pub(super) struct Entry<E> {
    pub(super) time: Ns,
    /// The scheduling order: ties in `time` pop in this order.
    pub(super) seq: u64,
    pub(super) event: E,
}

impl<E> Entry<E> {
    /// `time << 64 | seq`: one integer compare orders by time, then by scheduling order. (Kept
    /// as two words rather than a stored `u128`, whose 16-byte alignment made entries 32 bytes.)
    #[inline(always)]
    pub(super) fn key(&self) -> u128 {
        (self.time as u128) << 64 | self.seq as u128
    }
}

//! `Clone` whose `clone_from` reuses the target's buffers.
//!
//! The interleaving checker copies a world per transition (`check/explore.rs`). A derived
//! `clone_from` is `*self = source.clone()`: a fresh allocation for each of the world's few
//! dozen vectors and a free for each of the old ones, which was about half of a proof's time.
//! Copied field by field, every vector keeps its buffer (`Vec::clone_from` copies into it and
//! calls `clone_from` on the elements it already has), so copying into a recycled world
//! allocates only where the source has grown past it.
//!
//! Only for types whose behaviour does not depend on a buffer's capacity. The trace store sizes
//! its chunks by it and keeps its derived `clone` (a search's worlds keep no rows anyway); the
//! event queue has its own `clone_from` (`engine/mod.rs`), as its capacity decides only which
//! tier an event waits in.
//!
//! `clone_reusing!(Type { field, ... })` destructures without `..`: a field added to the
//! struct fails to compile until it is listed.
macro_rules! clone_reusing {
    ($t:ident { $($f:ident),* $(,)? }) => {
        impl Clone for $t {
            fn clone(&self) -> Self {
                let $t { $($f),* } = self;
                $t { $($f: Clone::clone($f)),* }
            }

            fn clone_from(&mut self, source: &Self) {
                let $t { $($f),* } = self;
                $(Clone::clone_from($f, &source.$f);)*
            }
        }
    };
}

pub(crate) use clone_reusing;

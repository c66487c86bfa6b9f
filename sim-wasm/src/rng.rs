//! The one source of randomness in a simulated world. Every random draw goes through a single
//! `Rng` owned by the world and seeded from the run's seed, so a seed fully determines a trace.
//! xoshiro256** seeded through splitmix64: small, fast, portable, and identical on native and
//! wasm32 targets (no platform-dependent floats in the integer path).

#[derive(Clone, Debug, Hash)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform in [0, 1) with 53 bits of precision.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform integer in [lo, hi] (inclusive). Returns `lo` when the range is empty.
    pub fn range_u64(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }
}

/// Natural logarithm from basic IEEE operations only (exactly rounded `+ - * /`), so that a
/// draw gives bit-identical results on native and wasm32 (libm `ln` may differ in the last
/// bit between platforms). Accurate to ~1e-15 relative; returns -745 for x <= 0.
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return -745.0;
    }
    if x.is_infinite() {
        return 710.0;
    }
    // x = m · 2^e with m in [1, 2).
    let mut m = x;
    let mut e = 0i32;
    while m >= 2.0 {
        m /= 2.0;
        e += 1;
    }
    while m < 1.0 {
        m *= 2.0;
        e -= 1;
    }
    // ln m = 2·atanh(s), s = (m−1)/(m+1) ∈ [0, 1/3).
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    for _ in 0..20 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    2.0 * sum + e as f64 * std::f64::consts::LN_2
}

#[cfg(test)]
mod tests {
    #[test]
    fn ln_matches_the_platform_closely() {
        for x in [1e-300, 1e-9, 0.001, 0.5, 1.0, 2.0, 10.0, 12345.678] {
            let (a, b) = (super::ln(x), f64::ln(x));
            assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{x}: {a} vs {b}");
        }
    }

    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sequence() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn different_seeds_give_different_sequences() {
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }

    #[test]
    fn range_stays_within_its_bounds() {
        let mut r = Rng::new(7);
        for _ in 0..1000 {
            let v = r.range_u64(10, 20);
            assert!((10..=20).contains(&v));
        }
    }
}

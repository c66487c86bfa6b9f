//! Design settings whose default depends on the machine preset, not only on the kernel.

/// Whether a machine preset's kernel runs with page-table isolation when the scenario does not
/// say: on for a Meltdown-affected CPU under a kernel since 4.15 (PTI's default `pti=auto`),
/// off where the source machine ran without it: `icelake-8336c-128` (Chuyi Zhou's 2026 mails
/// say "pti off"; Ice Lake is not affected either), `skylake-laptop-kvm` (measured on a 4.14-era
/// kernel, before PTI), `zen3-epyc-7763-128` (AMD is not affected), the generic preset.
pub fn pti_default(preset: &str) -> bool {
    matches!(preset, "skylake-desktop-4" | "skylake-sp-56")
}

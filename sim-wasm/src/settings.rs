//! The settings a run actually used, in the flat `--set` vocabulary (`flush_info=stack`,
//! `cpus=4`, …): what the page's controls show as the value in effect, whether it came from
//! the scenario file, its preset's defaults or the reader's overrides.

use std::collections::BTreeMap;

use crate::config::Config;
use crate::scenario::vocabulary::SETTINGS;

/// Every flat setting of `cfg` with its value as `--set` spells it. Settings of the other
/// architecture are left out (the simulator rejects them there), and so are those a run does
/// not report (the run budget, cache geometry).
pub fn effective(cfg: &Config) -> BTreeMap<&'static str, String> {
    SETTINGS
        .iter()
        .filter(|s| s.arch.is_none_or(|a| a == cfg.arch))
        .filter_map(|s| Some((s.key, (s.value?)(cfg))))
        .collect()
}

/// [`effective`] as a JSON object of strings.
pub fn effective_json(cfg: &Config) -> String {
    serde_json::to_string(&effective(cfg)).unwrap_or_else(|_| "{}".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    #[test]
    fn every_effective_value_is_accepted_back_as_an_override_and_changes_nothing() {
        for text in [
            "[machine]\ncpus = 3\n[design]\nflush_info = \"stack\"\n",
            "arch = \"arm64\"\n[machine]\nasid_bits = 4\n[design]\nbroadcast_skip = \"on\"\n",
        ] {
            let cfg = scenario::parse(text, &[]).unwrap();
            let sets: Vec<String> = effective(&cfg)
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            let again = scenario::parse(text, &sets).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(effective(&again), effective(&cfg));
        }
    }

    #[test]
    fn shows_the_file_and_the_override_in_effect() {
        let text = "[machine]\ncpus = 3\n[design]\nflush_info = \"stack\"\n";
        let cfg = scenario::parse(text, &["cpus=64".into()]).unwrap();
        let m = effective(&cfg);
        assert_eq!(m["cpus"], "64");
        assert_eq!(m["flush_info"], "stack");
        assert!(!m.contains_key("asid_bits"));
    }
}

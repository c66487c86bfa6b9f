//! The settings vocabulary: every setting a scenario file, `--set`, the URL, the CLI and CSV
//! `variant` columns accept, declared once with its key, section, type, bounds, default,
//! architecture and meaning, and every cost parameter with its unit and source. Scenario
//! validation reads its bounds, choices and defaults from here (`scenario/validate.rs`), the
//! settings a run used are listed from here (`settings.rs`), and the web app's controls, the
//! CLI's help and `content/README.md`'s reference are generated from [`json`]
//! (`npm run vocab`), so no copy of the vocabulary is kept by hand.
//!
//! `setting.rs`: what a setting is and how a value is checked against it; `settings.rs`:
//! every setting; `costs.rs`: every cost parameter; `export.rs`: the JSON the
//! generated TypeScript module is written from.

mod costs;
mod export;
mod setting;
mod settings;

pub use costs::{costs_json, Cost, Range, COSTS};
pub use export::json;
pub use setting::{int_in, one_of, Default, Kind, Setting, MAX_NS};
pub use settings::*;

//! What a setting is (key, section, type, bounds, default, architecture, doc, how a run
//! reports it) and how a given value is checked against its declaration.

use crate::config::{Arch, Config};
use crate::error::SimError;

/// Upper bound for any duration knob: 1000 s of simulated time.
pub const MAX_NS: i64 = 1_000_000_000_000;

/// What values a setting takes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// An integer in `[min, max]`; `max_of` names the setting the upper bound derives from
    /// when it is not fixed (then `max` is the largest it can be).
    Int {
        min: i64,
        max: i64,
        max_of: Option<&'static str>,
    },
    /// A number in `[min, max]`.
    Float { min: f64, max: f64 },
    /// `on` / `off` (`true` / `false` too).
    OnOff,
    /// One of the names, listed in the order errors list them.
    Choice(&'static [&'static str]),
}

/// A setting's value when the scenario does not give it.
#[derive(Clone, Copy, Debug)]
pub enum Default {
    Int(i64),
    Float(f64),
    OnOff(bool),
    Name(&'static str),
    /// Derived from other settings or the machine preset, as described.
    Derived(&'static str),
}

/// One setting.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// The flat `--set` key (`flush_info`), or the dotted path for settings without one.
    pub key: &'static str,
    /// Other flat keys for the same field.
    pub aliases: &'static [&'static str],
    /// The scenario table it lives in (`machine`, `design`, `workload`; "" = top level).
    pub section: &'static str,
    pub field: &'static str,
    pub kind: Kind,
    pub default: Default,
    /// Only this architecture's model reads it (the other rejects it).
    pub arch: Option<Arch>,
    pub doc: &'static str,
    /// The value a run used, as `--set` spells it; `None` for settings the controls do not
    /// show (the run budget, cache geometry).
    pub value: Option<fn(&Config) -> String>,
}

impl Setting {
    /// `section.field`, the path errors name.
    pub fn path(&self) -> String {
        if self.section.is_empty() {
            self.field.to_string()
        } else {
            format!("{}.{}", self.section, self.field)
        }
    }

    /// Whether `--set` accepts [`Setting::key`] (settings without one take `section.field`).
    pub fn is_flat(&self) -> bool {
        !self.key.contains('.')
    }

    /// The given integer, or the default, checked against the fixed bounds.
    pub fn int(&self, v: Option<i64>) -> Result<i64, SimError> {
        let d = match self.default {
            Default::Int(d) => d,
            _ => 0,
        };
        self.int_or(v, d)
    }

    /// The given integer, or `default`, checked against the fixed bounds.
    pub fn int_or(&self, v: Option<i64>, default: i64) -> Result<i64, SimError> {
        let (lo, hi) = match self.kind {
            Kind::Int { min, max, .. } => (min, max),
            _ => (i64::MIN, i64::MAX),
        };
        int_in(&self.path(), v, default, lo, hi)
    }

    /// The given integer, or `default`, at most `max` (a bound derived from other settings).
    pub fn int_upto(&self, v: Option<i64>, default: i64, max: i64) -> Result<i64, SimError> {
        let lo = match self.kind {
            Kind::Int { min, .. } => min,
            _ => i64::MIN,
        };
        int_in(&self.path(), v, default, lo, max)
    }

    /// The named choice (the first name when absent), as one of `values` (same order).
    pub fn choice<T: Copy>(&self, v: Option<&str>, values: &[T]) -> Result<T, SimError> {
        let names = match self.kind {
            Kind::Choice(names) => names,
            _ => &[],
        };
        let got = v.or(names.first().copied()).unwrap_or("");
        names
            .iter()
            .position(|n| *n == got)
            .and_then(|i| values.get(i).copied())
            .ok_or_else(|| one_of(&self.path(), got, names))
    }

    /// `on`/`off` (or a TOML boolean), or the default.
    pub fn on_off(&self, v: Option<&toml::Value>) -> Result<bool, SimError> {
        let default = matches!(self.default, Default::OnOff(true));
        match v {
            None => Ok(default),
            Some(toml::Value::Boolean(b)) => Ok(*b),
            Some(toml::Value::String(s)) if s == "on" || s == "true" => Ok(true),
            Some(toml::Value::String(s)) if s == "off" || s == "false" => Ok(false),
            Some(other) => Err(SimError::new(
                self.path(),
                format!("expected on or off, got {other:?}"),
            )),
        }
    }

    /// The number given, or the default, within the bounds.
    pub fn float(&self, v: Option<f64>) -> Result<f64, SimError> {
        let (lo, hi) = match self.kind {
            Kind::Float { min, max } => (min, max),
            _ => (f64::MIN, f64::MAX),
        };
        let d = match self.default {
            Default::Float(d) => d,
            _ => 0.0,
        };
        let v = v.unwrap_or(d);
        if !(lo..=hi).contains(&v) {
            return Err(SimError::new(
                self.path(),
                format!("must be between {lo} and {hi}, got {v}"),
            ));
        }
        Ok(v)
    }
}

/// `v` (or `default`) if it lies in `[lo, hi]`, else an error naming `path`.
pub fn int_in(path: &str, v: Option<i64>, default: i64, lo: i64, hi: i64) -> Result<i64, SimError> {
    let v = v.unwrap_or(default);
    if v < lo || v > hi {
        return Err(SimError::new(
            path,
            format!("must be between {lo} and {hi}, got {v}"),
        ));
    }
    Ok(v)
}

/// An unknown name: the error lists the allowed ones.
pub fn one_of(path: &str, got: &str, allowed: &[&str]) -> SimError {
    SimError::new(
        path,
        format!(
            "unknown value `{got}`; expected one of: {}",
            allowed.join(", ")
        ),
    )
}

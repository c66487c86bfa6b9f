//! The one error type of the simulator's public surface. Every way a scenario or an override
//! can be wrong ends here, with the path of the offending field (e.g. `machine.cpus`) and,
//! where the scenario text is known, the line it sits on. Nothing in the core panics on input.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimError {
    /// Dotted path of the field at fault (`machine.cpus`, `--set flush_info`); empty if unknown.
    pub path: String,
    /// What is wrong, for a human.
    pub message: String,
    /// 1-based line in the scenario text, 0 when not applicable (e.g. a `--set` override).
    pub line: u32,
}

impl SimError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        SimError {
            path: path.into(),
            message: message.into(),
            line: 0,
        }
    }

    pub fn at_line(mut self, line: u32) -> Self {
        self.line = line;
        self
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.path.is_empty(), self.line) {
            (true, 0) => write!(f, "{}", self.message),
            (true, l) => write!(f, "line {l}: {}", self.message),
            (false, 0) => write!(f, "{}: {}", self.path, self.message),
            (false, l) => write!(f, "line {l}: {}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for SimError {}

//! Where an error is: the line and field of a TOML error, and the line of a field that
//! failed validation.

use crate::error::SimError;

pub(super) fn toml_error(text: &str, e: &toml::de::Error) -> SimError {
    let line = e
        .span()
        .map(|s| {
            text.as_bytes()[..s.start.min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u32
                + 1
        })
        .unwrap_or(0);
    let message = e.message().to_string();
    // Serde names the field only for unknown, missing and duplicate fields; a wrong value's
    // field is the key on the line the error points at.
    let named = ["unknown field", "missing field", "duplicate field"]
        .iter()
        .any(|m| message.contains(m));
    let path = if named {
        field_named_in(&message)
    } else {
        crate::locate::key_at_line(text, line)
    };
    SimError::new(path.unwrap_or_default(), message).at_line(line)
}

/// serde names the unknown or bad field in backticks: "unknown field `cpu`, expected …".
fn field_named_in(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(message[start..start + len].to_string())
}

/// Best-effort line of `section.key` in the text: the first `key =` line after `[section]`.
/// `tasks[3].program` finds the fourth `[[tasks]]` header, then `program =` below it.
pub(super) fn find_line(text: &str, path: &str) -> u32 {
    let (section, key) = match path.rsplit_once('.') {
        Some((s, k)) => (Some(s), k),
        None => (None, path),
    };
    let (section, nth) = match section.and_then(|s| s.split_once('[')) {
        Some((name, rest)) => (Some(name), rest.trim_end_matches(']').parse::<usize>().ok()),
        None => (section, None),
    };
    let mut in_section = section.is_none();
    let mut seen = 0usize;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            let name = t.trim_matches(|c| c == '[' || c == ']');
            in_section = section.is_some_and(|s| name == s);
            if in_section {
                if let Some(n) = nth {
                    in_section = seen == n;
                    seen += 1;
                }
            }
            continue;
        }
        let is_key = t
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='));
        if in_section && is_key {
            return i as u32 + 1;
        }
    }
    0
}

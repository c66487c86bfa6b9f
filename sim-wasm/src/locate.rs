//! Where in a scenario's text a field sits, for error messages: the key on a given line (with
//! the table it is in), and the line of a dotted path written with dotted keys
//! (`machine.cpus = 4` at the top level, `workload.flushes = 2` under no header).

/// The dotted path of the key assigned on 1-based `line` (`machine.cpus`, `tasks[1].repeat`),
/// if that line is a `key = value` line.
pub fn key_at_line(text: &str, line: u32) -> Option<String> {
    let mut table = String::new();
    let mut arrays: Vec<(String, usize)> = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if let Some(name) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
            let name = normalise(name);
            let n = match arrays.iter_mut().find(|(a, _)| *a == name) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    arrays.push((name.clone(), 0));
                    0
                }
            };
            table = format!("{name}[{n}]");
        } else if let Some(name) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
            table = normalise(name);
        } else if i as u32 + 1 == line {
            let key = normalise(t.split_once('=')?.0);
            if key.is_empty() || key.starts_with('#') {
                return None;
            }
            return Some(if table.is_empty() {
                key
            } else {
                format!("{table}.{key}")
            });
        }
    }
    None
}

/// The 1-based line assigning `path` through a dotted key (`machine.cpus = 0` at the top level,
/// or `cpus = 0` under `[machine]`), 0 if there is none.
pub fn dotted_key_line(text: &str, path: &str) -> u32 {
    let lines = text.lines().count() as u32;
    (1..=lines)
        .find(|&l| key_at_line(text, l).as_deref() == Some(path))
        .unwrap_or(0)
}

/// A key or table name as a path: no spaces, no quotes (`"machine" . cpus` → `machine.cpus`).
fn normalise(key: &str) -> String {
    key.chars()
        .filter(|c| !c.is_whitespace() && *c != '"' && *c != '\'')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_with_their_table() {
        let text = "title = \"x\"\n[machine]\ncpus = \"four\"\n[[tasks]]\ncpu = 0\n[[tasks]]\nrepeat = 1\n";
        assert_eq!(key_at_line(text, 1).as_deref(), Some("title"));
        assert_eq!(key_at_line(text, 3).as_deref(), Some("machine.cpus"));
        assert_eq!(key_at_line(text, 7).as_deref(), Some("tasks[1].repeat"));
        assert_eq!(key_at_line(text, 2), None);
    }

    #[test]
    fn dotted_keys_are_found() {
        let text = "title = \"x\"\nmachine.cpus = 0\n[workload]\nflushes = 2\n";
        assert_eq!(dotted_key_line(text, "machine.cpus"), 2);
        assert_eq!(dotted_key_line(text, "workload.flushes"), 4);
        assert_eq!(dotted_key_line(text, "workload.pages"), 0);
    }
}

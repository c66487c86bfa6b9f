//! Where in a scenario's text a field sits, for error messages: the key on a given line (with
//! the table it is in), the line of a dotted path written with dotted keys
//! (`machine.cpus = 4` at the top level, `workload.flushes = 2` under no header), and the lines
//! of an array of tables' headers. Each walks the text once: a file of many thousand tasks must
//! get its error at once, not after a scan per line.

/// The dotted path of the key assigned on 1-based `line` (`machine.cpus`, `tasks[1].repeat`),
/// if that line is a `key = value` line.
pub fn key_at_line(text: &str, line: u32) -> Option<String> {
    let mut keys = Keys::default();
    for (i, l) in text.lines().enumerate() {
        let key = keys.next_line(l);
        if i as u32 + 1 == line {
            return key;
        }
    }
    None
}

/// The 1-based line assigning `path` through a dotted key (`machine.cpus = 0` at the top level,
/// or `cpus = 0` under `[machine]`), 0 if there is none.
pub fn dotted_key_line(text: &str, path: &str) -> u32 {
    let mut keys = Keys::default();
    for (i, l) in text.lines().enumerate() {
        if keys.next_line(l).as_deref() == Some(path) {
            return i as u32 + 1;
        }
    }
    0
}

/// The 1-based lines of every `[[name]]` header, in order.
pub fn header_lines(text: &str, name: &str) -> Vec<u32> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            l.trim_start()
                .strip_prefix("[[")
                .and_then(|r| r.split("]]").next())
                .is_some_and(|n| normalise(n) == name)
        })
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

/// The table a walk through the text is in, and how many of each array of tables it has seen.
#[derive(Default)]
struct Keys {
    table: String,
    arrays: Vec<(String, usize)>,
}

impl Keys {
    /// Moves past one line, returning the path of the key it assigns, if it is a key line.
    fn next_line(&mut self, l: &str) -> Option<String> {
        let t = l.trim();
        if let Some(name) = t.strip_prefix("[[").and_then(|r| r.split("]]").next()) {
            let name = normalise(name);
            let n = match self.arrays.iter_mut().find(|(a, _)| *a == name) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    self.arrays.push((name.clone(), 0));
                    0
                }
            };
            self.table = format!("{name}[{n}]");
            None
        } else if let Some(name) = t.strip_prefix('[').and_then(|r| r.split(']').next()) {
            self.table = normalise(name);
            None
        } else {
            let key = normalise(t.split_once('=')?.0);
            if key.is_empty() || key.starts_with('#') {
                return None;
            }
            Some(if self.table.is_empty() {
                key
            } else {
                format!("{}.{key}", self.table)
            })
        }
    }
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
    fn a_long_file_is_walked_once() {
        // 60,000 lines: one walk per line (as locating used to do) takes minutes here.
        let text = "[[tasks]]\ncpu = 0\nprogram = \"spin 5ns\"\n".repeat(20_000);
        let start = std::time::Instant::now();
        assert_eq!(dotted_key_line(&text, "machine.cpus"), 0);
        assert_eq!(dotted_key_line(&text, "tasks[19999].program"), 60_000);
        assert_eq!(header_lines(&text, "tasks").len(), 20_000);
        assert_eq!(header_lines(&text, "tasks")[4096], 4096 * 3 + 1);
        let took = start.elapsed();
        assert!(took.as_secs() < 2, "took {took:?}");
    }

    #[test]
    fn dotted_keys_are_found() {
        let text = "title = \"x\"\nmachine.cpus = 0\n[workload]\nflushes = 2\n";
        assert_eq!(dotted_key_line(text, "machine.cpus"), 2);
        assert_eq!(dotted_key_line(text, "workload.flushes"), 4);
        assert_eq!(dotted_key_line(text, "workload.pages"), 0);
    }
}

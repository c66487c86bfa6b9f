//! The TypeScript shapes of the JSON the simulator hands the web app (the run summary, the
//! inspector's snapshot and a guided step), generated from the Rust structs with ts-rs so that the two cannot
//! drift: the test below fails when `web/src/trace/shapes.generated.ts` is not what these
//! structs generate, and `UPDATE_SHAPES=1 cargo test shapes` (part of `npm run vocab`)
//! rewrites it. Only the test build derives `TS`, so the WASM build carries none of it.

#[cfg(test)]
mod tests {
    use std::path::Path;
    use ts_rs::TS;

    use crate::snapshot::{AsidAllocator, CpuState, MmContext, MmState, Slot, Snapshot, TlbEntry};
    use crate::steps::Step;
    use crate::summary::{Stats, Summary, Violation, X86Ops};

    const OUT: &str = "../web/src/trace/shapes.generated.ts";

    /// One field per line, each after its doc comment: ts-rs writes a declaration on one line.
    fn layout(decl: &str) -> String {
        let Some(open) = decl.find("= {") else {
            return format!("export {decl}\n");
        };
        let (head, body) = decl.split_at(open + 3);
        let body = body
            .trim_end_matches(';')
            .trim_end()
            .trim_end_matches('}')
            .trim();
        let mut fields = Vec::new();
        let (mut depth, mut start, mut comment) = (0i32, 0usize, false);
        let bytes = body.as_bytes();
        for (i, c) in body.char_indices() {
            if comment {
                comment = !(c == '/' && i > 0 && bytes[i - 1] == b'*');
                continue;
            }
            match c {
                '/' if body[i..].starts_with("/**") => comment = true,
                '<' | '[' | '{' | '(' => depth += 1,
                '>' | ']' | '}' | ')' => depth -= 1,
                ',' if depth == 0 => {
                    fields.push(&body[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        fields.push(&body[start..]);
        let mut out = format!("export {head}\n");
        for field in fields.iter().map(|f| f.trim()).filter(|f| !f.is_empty()) {
            for line in field.lines() {
                let line = line.trim();
                let indent = if line.starts_with('*') { "   " } else { "  " };
                out.push_str(indent);
                out.push_str(line);
                out.push('\n');
            }
            out.pop();
            out.push_str(";\n");
        }
        out.push_str("};\n");
        out
    }

    fn render() -> String {
        let decls = [
            Stats::decl(),
            Violation::decl(),
            Summary::decl(),
            X86Ops::decl(),
            Snapshot::decl(),
            CpuState::decl(),
            Slot::decl(),
            TlbEntry::decl(),
            MmState::decl(),
            MmContext::decl(),
            AsidAllocator::decl(),
            Step::decl(),
        ];
        let mut out = String::from(
            "// Generated from sim-wasm/src/summary.rs, snapshot.rs and steps.rs by ts-rs (src/shapes.rs).\n\
             // Do not edit: `cargo test` fails when this file and the Rust structs differ, and\n\
             // `npm run vocab` rewrites it. 64-bit integers are `number`: serde_json writes them as\n\
             // JSON numbers and JSON.parse reads them as such (every count here is far below 2^53).\n",
        );
        for d in decls {
            out.push('\n');
            out.push_str(&layout(&d.replace("bigint", "number")));
        }
        out
    }

    #[test]
    fn generated_shapes_match_the_rust_structs() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(OUT);
        let want = render();
        if std::env::var_os("UPDATE_SHAPES").is_some() {
            std::fs::write(&path, &want).expect("write shapes.generated.ts");
            return;
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "{OUT} differs from the Rust structs: run `npm run vocab` (or UPDATE_SHAPES=1 cargo test shapes)"
        );
    }
}

//! The vocabulary as data for the outside: the binding `vocabularyJson` returns it and
//! `npm run vocab` writes `web/src/sim/vocabulary.generated.ts` from it.

use serde_json::{json, Value};

use super::costs::{Range, COSTS};
use super::setting::{Default, Kind, Setting};
use super::settings::SETTINGS;
use crate::config::Arch;
use crate::presets;

fn kind_json(s: &Setting) -> Value {
    match s.kind {
        Kind::Int { min, max, max_of } => {
            json!({"type": "int", "min": min, "max": max, "maxOf": max_of})
        }
        Kind::Float { min, max } => json!({"type": "float", "min": min, "max": max}),
        Kind::OnOff => json!({"type": "onoff", "choices": ["on", "off"]}),
        Kind::Choice(names) => json!({"type": "choice", "choices": names}),
    }
}

fn default_json(d: Default) -> Value {
    match d {
        Default::Int(v) => json!(v),
        Default::Float(v) => json!(v),
        Default::OnOff(b) => json!(if b { "on" } else { "off" }),
        Default::Name(n) => json!(n),
        Default::Derived(how) => json!({ "derived": how }),
    }
}

/// The whole vocabulary as JSON: settings (key, aliases, path, type, bounds, choices, default,
/// architecture, doc, whether a run reports it), cost parameters (unit, doc with its source,
/// bound), and the machine presets with their geometry and every cost value.
pub fn json() -> Value {
    let settings: Vec<Value> = SETTINGS
        .iter()
        .map(|s| {
            let mut v = kind_json(s);
            if let Some(o) = v.as_object_mut() {
                o.insert("key".into(), json!(s.key));
                o.insert("aliases".into(), json!(s.aliases));
                o.insert("path".into(), json!(s.path()));
                o.insert("default".into(), default_json(s.default));
                o.insert("arch".into(), json!(s.arch.map(Arch::name)));
                o.insert("doc".into(), json!(s.doc));
                o.insert("reported".into(), json!(s.value.is_some()));
            }
            v
        })
        .collect();
    let costs: Vec<Value> = COSTS
        .iter()
        .map(|c| {
            let (low, high, why) = match c.range {
                Range::Exact => (json!(null), json!(null), json!(null)),
                Range::Factor { low, high, why } => (json!(low), json!(high), json!(why)),
            };
            json!({"name": c.name, "unit": c.unit, "max": c.max(), "doc": c.doc,
                "low": low, "high": high, "range": why})
        })
        .collect();
    let presets: Vec<Value> = presets::IDS
        .iter()
        .filter_map(|id| presets::by_id(id))
        .map(|p| {
            let costs: serde_json::Map<String, Value> = COSTS
                .iter()
                .map(|c| (c.name.to_string(), json!(c.get(&p.costs))))
                .collect();
            json!({
                "id": p.id,
                "arch": p.arch.name(),
                "default": presets::default_for(p.arch) == p.id,
                "cpus": p.cpus,
                "tlbEntries": p.tlb_entries,
                "tlbWays": p.tlb_ways,
                "sockets": p.sockets,
                "tlbIndex": p.tlb_index.name(),
                "costs": costs,
            })
        })
        .collect();
    // kernel=: the x86 history, oldest first, each step with the commit that made it.
    let kernels: Vec<Value> = crate::arch::x86::kernels::KERNELS
        .iter()
        .map(|k| {
            // The toggles a replay sets over a scenario's own. Where the kernel has PTI or
            // INVLPGB, whether they are on depends on the machine (kernel= decides it, or the
            // scenario); where it has not, they are off.
            let mut set = vec![
                format!("flush_info={}", k.flush_info.name()),
                format!("preempt={}", k.preempt.name()),
                format!("pcid={}", if k.pcid { "on" } else { "off" }),
                format!("wait_mask={}", k.wait_mask.name()),
                format!("switch_mm_barrier={}", k.switch_mm_barrier.name()),
                format!("tlb_gen_read={}", k.tlb_gen_read.name()),
            ];
            if !k.has_pti {
                set.push("pti=off".into());
            }
            if !k.has_invlpgb {
                set.push("invlpgb=off".into());
            }
            json!({"name": k.name, "change": k.change, "set": set})
        })
        .collect();
    json!({
        "archs": Arch::NAMES,
        "settings": settings,
        "costs": costs,
        "presets": presets,
        "kernels": kernels,
    })
}

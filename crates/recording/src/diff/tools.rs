//! Two tool catalogs compared: tools added, removed, renamed and changed.
//!
//! Tools are matched by name. A removed tool and an added one are a **rename** when
//! their `description` and `inputSchema` are equal (volatile members aside) and the
//! pairing is one to one: no other removed or added tool has the same pair. A tool
//! with a new name and a new schema or description is a removal and an addition,
//! since nothing then says it is the same tool.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::value::{FieldChange, canonical, strip, value_changes};

/// Which part of a tool a change is in, from its pointer's first segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Area {
    /// `/description`.
    Description,
    /// `/title`.
    Title,
    /// `/annotations/…` (hints, and the annotations' own `title`).
    Annotations,
    /// `/inputSchema/…`.
    InputSchema,
    /// `/outputSchema/…`.
    OutputSchema,
    /// Any other member (`icons`, `execution`, …).
    Other,
}

impl Area {
    /// The area `pointer` (from a tool's root) falls in.
    pub fn of(pointer: &str) -> Area {
        let first = pointer.split('/').nth(1).unwrap_or_default();
        match first {
            "description" => Area::Description,
            "title" => Area::Title,
            "annotations" => Area::Annotations,
            "inputSchema" => Area::InputSchema,
            "outputSchema" => Area::OutputSchema,
            _ => Area::Other,
        }
    }

    /// The member's name as the spec spells it, for people.
    pub fn label(self) -> &'static str {
        match self {
            Area::Description => "description",
            Area::Title => "title",
            Area::Annotations => "annotations",
            Area::InputSchema => "inputSchema",
            Area::OutputSchema => "outputSchema",
            Area::Other => "other",
        }
    }
}

/// One difference inside a tool: a [`FieldChange`] (its pointer from the tool's
/// root) and the part of the tool it is in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolFieldChange {
    /// The part of the tool.
    pub area: Area,
    /// Where and what.
    #[serde(flatten)]
    pub change: FieldChange,
}

/// A tool in only one catalog.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolEntry {
    /// Its name.
    pub name: String,
    /// The tool as listed (volatile members left out).
    pub tool: Value,
}

/// A tool under a new name: same description and input schema.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Renamed {
    /// Its name in A.
    pub from: String,
    /// Its name in B.
    pub to: String,
    /// What else changed (title, annotations, output schema…), `/name` left out.
    pub changes: Vec<ToolFieldChange>,
}

/// A tool in both catalogs whose definition changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolChanged {
    /// Its name.
    pub name: String,
    /// Every difference, in pointer order.
    pub changes: Vec<ToolFieldChange>,
}

/// Two catalogs compared.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CatalogDiff {
    /// Tools only B lists, by name.
    pub added: Vec<ToolEntry>,
    /// Tools only A lists, by name.
    pub removed: Vec<ToolEntry>,
    /// Tools B lists under another name, by A's name.
    pub renamed: Vec<Renamed>,
    /// Tools in both whose definitions differ, by name.
    pub changed: Vec<ToolChanged>,
}

/// The tools of a listing by name (the first of a repeated name; a tool without a
/// string name cannot be matched and is left out).
fn by_name(tools: &[Value]) -> BTreeMap<&str, &Value> {
    let mut out = BTreeMap::new();
    for t in tools {
        if let Some(name) = t.get("name").and_then(|n| n.as_str()) {
            out.entry(name).or_insert(t);
        }
    }
    out
}

fn changes(a: &Value, b: &Value) -> Vec<ToolFieldChange> {
    value_changes(a, b)
        .into_iter()
        .filter(|c| c.pointer != "/name")
        .map(|change| ToolFieldChange {
            area: Area::of(&change.pointer),
            change,
        })
        .collect()
}

/// What a rename keeps: the description and the input schema, printed canonically.
fn identity(tool: &Value) -> String {
    let part = |k: &str| {
        tool.get(k)
            .map_or_else(String::new, |v| canonical(&strip(v)))
    };
    [part("description"), part("inputSchema")].join("\u{0}")
}

/// Compares catalog `a` with catalog `b`.
pub fn diff_catalogs(a: &[Value], b: &[Value]) -> CatalogDiff {
    let (xa, xb) = (by_name(a), by_name(b));
    let mut out = CatalogDiff::default();
    let gone: Vec<(&str, &Value)> = xa
        .iter()
        .filter(|(n, _)| !xb.contains_key(*n))
        .map(|(n, t)| (*n, *t))
        .collect();
    let new: Vec<(&str, &Value)> = xb
        .iter()
        .filter(|(n, _)| !xa.contains_key(*n))
        .map(|(n, t)| (*n, *t))
        .collect();
    let ids_gone: Vec<String> = gone.iter().map(|(_, t)| identity(t)).collect();
    let ids_new: Vec<String> = new.iter().map(|(_, t)| identity(t)).collect();
    let mut paired_new = vec![false; new.len()];
    for (i, (name, tool)) in gone.iter().enumerate() {
        let id = &ids_gone[i];
        let matches: Vec<usize> = (0..new.len()).filter(|j| ids_new[*j] == *id).collect();
        let unique_here = ids_gone.iter().filter(|g| *g == id).count() == 1;
        match matches.as_slice() {
            [j] if unique_here => {
                paired_new[*j] = true;
                out.renamed.push(Renamed {
                    from: (*name).to_owned(),
                    to: new[*j].0.to_owned(),
                    changes: changes(tool, new[*j].1),
                });
            }
            _ => out.removed.push(entry(name, tool)),
        }
    }
    for (j, (name, tool)) in new.iter().enumerate() {
        if !paired_new[j] {
            out.added.push(entry(name, tool));
        }
    }
    for (name, ta) in &xa {
        if let Some(tb) = xb.get(name) {
            let c = changes(ta, tb);
            if !c.is_empty() {
                out.changed.push(ToolChanged {
                    name: (*name).to_owned(),
                    changes: c,
                });
            }
        }
    }
    out
}

fn entry(name: &str, tool: &Value) -> ToolEntry {
    ToolEntry {
        name: name.to_owned(),
        tool: strip(tool),
    }
}

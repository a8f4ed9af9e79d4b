//! The official schemas of each revision, to check every reply the asks module
//! builds (native only: `jsonschema` is a native dev-dependency).

use std::path::PathBuf;

use serde_json::Value;

/// Every revision.
#[allow(dead_code)]
pub const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// The official schemas' folder, or `None` (with a notice; a failure under
/// `MCPG_REQUIRE_PEERS`) when the reference data is absent.
pub fn dir() -> Option<PathBuf> {
    // Beside the main checkout, or beside the worktrees' folder (a worktree sits deeper).
    let dir = std::env::var_os("MCPG_SPEC_SCHEMAS").map_or_else(
        || {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
            let near = root.join("../../../shared/spec-schemas");
            if near.is_dir() {
                near
            } else {
                root.join("../../../../shared/spec-schemas")
            }
        },
        PathBuf::from,
    );
    if dir.is_dir() {
        return Some(dir);
    }
    let required = std::env::var("MCPG_REQUIRE_PEERS").is_ok_and(|v| !v.is_empty() && v != "0");
    assert!(
        !required,
        "{} is absent and MCPG_REQUIRE_PEERS is set",
        dir.display()
    );
    println!("SKIP: {} is absent (set MCPG_SPEC_SCHEMAS)", dir.display());
    None
}

/// The 2026-07-28 examples of definition `def`, by file name.
#[allow(dead_code)]
pub fn examples(def: &str) -> Vec<(String, Value)> {
    let Some(dir) = dir() else {
        return Vec::new();
    };
    let mut out: Vec<(String, Value)> =
        std::fs::read_dir(dir.join("2026-07-28/examples").join(def))
            .unwrap()
            .map(|e| {
                let path = e.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (
                    name,
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap(),
                )
            })
            .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The schema of `rev`, or `None` (with a notice; a failure under
/// `MCPG_REQUIRE_PEERS`) when the reference data is absent.
pub fn schema(rev: &str) -> Option<Value> {
    let path = dir()?.join(rev).join("schema.json");
    Some(serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap())
}

/// Whether `rev` defines `def`.
#[allow(dead_code)]
pub fn has(schema: &Value, def: &str) -> bool {
    schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .is_some_and(|d| d.get(def).is_some())
}

/// Panics unless `value` is a valid `def` of `schema`.
pub fn check(schema: &Value, def: &str, value: &Value) {
    let mut root = schema.clone();
    let key = if root.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    root.as_object_mut()
        .unwrap()
        .insert("$ref".into(), Value::from(format!("#/{key}/{def}")));
    let v = jsonschema::validator_for(&root).unwrap();
    let errors: Vec<String> = v.iter_errors(value).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{def}: {errors:?}\n{value:#}");
}

//! Skill entries against the spec's rules (SEP-2640), and verification of what a
//! host reads: the spec's own examples, then each rule broken once.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_skills::{Digest, EntryError, Listing, Skill, SkillFiles, VerifyError};
use proptest::prelude::*;
use serde_json::{Value, json};

const SKILL_MD: &[u8] =
    b"---\nname: refunds\ndescription: Process refunds\n---\nSee examples/email.md.\n";
const EMAIL: &[u8] = b"Dear customer,\n";

fn entry() -> Value {
    json!({
        "uri": "skill://acme/billing/refunds/SKILL.md",
        "frontmatter": {"name": "refunds", "description": "Process refunds", "license": "Apache-2.0"},
        "resources": [
            {"uri": "skill://acme/billing/refunds/SKILL.md", "digest": Digest::of(SKILL_MD).to_string(), "size": SKILL_MD.len()},
            {"uri": "skill://acme/billing/refunds/examples/email.md", "digest": Digest::of(EMAIL).to_string(), "size": EMAIL.len()},
        ],
    })
}

fn broken(edit: impl FnOnce(&mut Value)) -> EntryError {
    let mut v = entry();
    edit(&mut v);
    Skill::from_value(&v).unwrap_err()
}

#[test]
fn a_valid_entry_reads_with_its_name_root_and_files() {
    let s = Skill::from_value(&entry()).unwrap();
    assert_eq!(s.name(), "refunds");
    assert_eq!(s.description(), "Process refunds");
    assert_eq!(s.root(), "skill://acme/billing/refunds");
    assert_eq!(
        s.frontmatter["license"], "Apache-2.0",
        "every field passes through"
    );
    let SkillFiles::Listed(files) = &s.files else {
        panic!("listed")
    };
    assert_eq!(files.len(), 2);
    assert_eq!(
        s.path_of("skill://acme/billing/refunds/examples/email.md"),
        Some("examples/email.md")
    );
    assert_eq!(s.path_of("skill://acme/billing/other/x.md"), None);
}

#[test]
fn the_digest_is_sha256_of_the_raw_bytes_in_lowercase_hex() {
    // The SHA-256 of "abc" (FIPS 180-2's example).
    assert_eq!(
        Digest::of(b"abc").to_string(),
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    let d = Digest::of(b"abc");
    assert_eq!(Digest::parse(&d.to_string()), Some(d));
    assert_eq!(
        Digest::parse("sha256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"),
        None,
        "lowercase only"
    );
    assert_eq!(Digest::parse("sha1:ba7816bf"), None);
    assert_eq!(Digest::parse("sha256:ba78"), None);
    assert_eq!(Digest::parse(&format!("sha256:{}", "g".repeat(64))), None);
}

#[test]
fn each_rule_broken_once_is_refused() {
    assert_eq!(broken(|v| *v = json!([])), EntryError::NotAnObject);
    assert_eq!(
        broken(|v| {
            v.as_object_mut().unwrap().remove("uri");
        }),
        EntryError::NoUri
    );
    assert!(matches!(
        broken(|v| v["uri"] = json!("skill://acme/billing/refunds/README.md")),
        EntryError::NotSkillMd(_)
    ));
    assert!(matches!(
        broken(|v| v["uri"] = json!("/SKILL.md")),
        EntryError::NotSkillMd(_)
    ));
    assert_eq!(
        broken(|v| v["frontmatter"] = json!("name: refunds")),
        EntryError::NoFrontmatter
    );
    assert_eq!(
        broken(|v| {
            v["frontmatter"]
                .as_object_mut()
                .unwrap()
                .remove("description");
        }),
        EntryError::MissingField("description")
    );
    assert_eq!(
        broken(|v| {
            v["frontmatter"].as_object_mut().unwrap().remove("name");
        }),
        EntryError::MissingField("name")
    );
    assert!(matches!(
        broken(|v| v["frontmatter"]["name"] = json!("Refunds")),
        EntryError::BadName { .. }
    ));
    assert_eq!(
        broken(|v| v["frontmatter"]["name"] = json!("returns")),
        EntryError::NameMismatch {
            segment: "refunds".into(),
            name: "returns".into()
        }
    );
    assert_eq!(
        broken(|v| {
            v.as_object_mut().unwrap().remove("resources");
        }),
        EntryError::BadResources
    );
    assert_eq!(
        broken(|v| v["resources"] = json!("static")),
        EntryError::BadResources
    );
    assert_eq!(
        broken(|v| {
            v["resources"][1].as_object_mut().unwrap().remove("size");
        }),
        EntryError::BadFile(1)
    );
    assert!(matches!(
        broken(|v| v["resources"][1]["digest"] = json!("sha256:abc")),
        EntryError::BadDigest { .. }
    ));
    assert!(matches!(
        broken(|v| v["resources"][1]["uri"] = json!("skill://acme/billing/other/x.md")),
        EntryError::Outside(_)
    ));
    assert!(matches!(
        broken(|v| v["resources"][1]["uri"] = json!("skill://acme/billing/refunds/../other/x.md")),
        EntryError::Outside(_)
    ));
    assert!(matches!(
        broken(|v| v["resources"][1]["uri"] = json!("skill://acme/billing/refundsX/x.md")),
        EntryError::Outside(_)
    ));
    // An empty segment makes the path inside the skill absolute ("/tmp/x.md").
    for hostile in [
        "skill://acme/billing/refunds//tmp/x.md",
        "skill://acme/billing/refunds/a//b.md",
        "skill://acme/billing/refunds/a/",
    ] {
        assert!(
            matches!(
                broken(|v| v["resources"][1]["uri"] = json!(hostile)),
                EntryError::Outside(_)
            ),
            "{hostile}"
        );
    }
    assert!(matches!(
        broken(|v| v["resources"][1] = v["resources"][0].clone()),
        EntryError::Duplicate(_)
    ));
    assert_eq!(
        broken(|v| {
            v["resources"].as_array_mut().unwrap().remove(0);
        }),
        EntryError::NoSkillMd
    );
    assert_eq!(
        broken(|v| v["resources"][1]["size"] = json!(16 * 1024 * 1024)),
        EntryError::TooLarge(16 * 1024 * 1024 + SKILL_MD.len() as u64)
    );
    let many: Vec<Value> = (0..513).map(|i| json!({"uri": format!("skill://acme/billing/refunds/f{i}"), "digest": Digest::of(b"").to_string(), "size": 0})).collect();
    assert_eq!(
        broken(|v| v["resources"] = json!(many)),
        EntryError::TooManyFiles(513)
    );
}

#[test]
fn what_is_read_is_verified_by_size_then_digest() {
    let s = Skill::from_value(&entry()).unwrap();
    let email = "skill://acme/billing/refunds/examples/email.md";
    assert_eq!(s.verify(email, EMAIL), Ok(()));
    assert!(matches!(
        s.verify(email, b"Dear customer!\n"),
        Err(VerifyError::Digest { .. })
    ));
    assert!(matches!(
        s.verify(email, b"Dear customer,\n\n"),
        Err(VerifyError::Size {
            expected: 15,
            got: 16,
            ..
        })
    ));
    assert!(matches!(
        s.verify("skill://acme/billing/refunds/secret.md", b""),
        Err(VerifyError::Unlisted(_))
    ));
    let mut dynamic = entry();
    dynamic["resources"] = json!("dynamic");
    let d = Skill::from_value(&dynamic).unwrap();
    assert_eq!(d.files, SkillFiles::Dynamic);
    assert_eq!(
        d.verify("skill://acme/billing/refunds/SKILL.md", SKILL_MD),
        Err(VerifyError::Dynamic)
    );
}

#[test]
fn relative_references_resolve_inside_the_skill_only() {
    let s = Skill::from_value(&entry()).unwrap();
    assert_eq!(
        s.resolve("examples/email.md").as_deref(),
        Some("skill://acme/billing/refunds/examples/email.md")
    );
    assert_eq!(
        s.resolve("./examples/../SKILL.md").as_deref(),
        Some("skill://acme/billing/refunds/SKILL.md")
    );
    assert_eq!(s.resolve("../refunds/SKILL.md"), None, "above the root");
    assert_eq!(s.resolve("/etc/passwd"), None);
    assert_eq!(s.resolve("https://evil.example/x"), None);
    assert_eq!(s.resolve("."), None);
}

#[test]
fn a_listing_keeps_valid_entries_beside_an_invalid_one() {
    let mut bad = entry();
    bad["frontmatter"]["name"] = json!("other");
    let page = json!({"resultType": "complete", "skills": [entry(), bad, {"uri": 3}], "nextCursor": "p2", "ttlMs": 300000, "cacheScope": "public"});
    let l = Listing::from_result(&page).unwrap();
    assert_eq!(l.entries.len(), 3);
    assert!(l.entries[0].is_ok());
    assert!(
        matches!(&l.entries[1], Err((Some(u), EntryError::NameMismatch { .. })) if u.ends_with("refunds/SKILL.md"))
    );
    assert!(matches!(&l.entries[2], Err((None, EntryError::NoUri))));
    assert_eq!(l.next_cursor.as_deref(), Some("p2"));
    assert_eq!(l.ttl_ms, Some(300_000));
    assert!(Listing::from_result(&json!({"tools": []})).is_err());
    assert!(Listing::from_result(&json!({"skills": [], "nextCursor": 5})).is_err());
    let got =
        Listing::skill_of(&json!({"skill": entry(), "ttlMs": 1, "cacheScope": "public"})).unwrap();
    assert_eq!(got.unwrap().name(), "refunds");
    assert!(Listing::skill_of(&json!({"skills": []})).is_err());
}

proptest! {
    /// Any bytes verify against an entry built from them, and any change of one
    /// byte is caught.
    #[test]
    fn any_content_verifies_and_any_flip_is_caught(bytes in proptest::collection::vec(any::<u8>(), 1..2048), at in any::<prop::sample::Index>(), flip in 1u8..=255) {
        let uri = "skill://p/SKILL.md";
        let v = json!({"uri": uri, "frontmatter": {"name": "p", "description": "d"},
                       "resources": [{"uri": uri, "digest": Digest::of(&bytes).to_string(), "size": bytes.len()}]});
        let s = Skill::from_value(&v).unwrap();
        prop_assert_eq!(s.verify(uri, &bytes), Ok(()));
        let mut changed = bytes.clone();
        let i = at.index(changed.len());
        changed[i] ^= flip;
        let is_digest_error = matches!(s.verify(uri, &changed), Err(VerifyError::Digest { .. }));
        prop_assert!(is_digest_error);
    }
}

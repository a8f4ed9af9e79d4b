//! The demo's skill (MCP Skills, SEP-2640) through the core's client: declared
//! under 2026-07-28 only, listed and got with an entry the host side accepts, and
//! every file it lists read back with the digest and size the entry promises.
//! Runs natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use mcpg_core::client::GenerationMode;
use mcpg_core::server::SKILLS_EXTENSION;
use mcpg_skills::{Listing, SkillFiles};
use serde_json::json;
use support::{Session, rpc_code};

#[test]
fn the_skill_is_listed_got_and_its_files_verify_under_2026_07_28() {
    assert_eq!(SKILLS_EXTENSION, mcpg_skills::EXTENSION, "one name");
    let mut s = Session::new(GenerationMode::Auto);
    let caps = &s.client.negotiated().unwrap().capabilities;
    assert_eq!(caps["extensions"][SKILLS_EXTENSION], json!({}), "{caps:?}");
    assert!(
        caps.contains_key("resources"),
        "a skills server declares resources too"
    );

    let page = s.ok("skills/list", json!({}));
    assert_eq!(page["resultType"], "complete");
    assert!(
        page["ttlMs"].is_u64() && page["cacheScope"].is_string(),
        "{page}"
    );
    let listing = Listing::from_result(&page).unwrap();
    assert_eq!(listing.entries.len(), 1);
    let skill = listing.entries[0].clone().unwrap();
    assert_eq!(skill.name(), "weather-report");
    assert_eq!(skill.uri, "skill://weather-report/SKILL.md");
    let SkillFiles::Listed(files) = &skill.files else {
        panic!("listed")
    };
    assert_eq!(files.len(), 2);
    for f in files {
        let read = s.ok("resources/read", json!({"uri": f.uri}));
        let text = read["contents"][0]["text"].as_str().unwrap();
        assert_eq!(read["contents"][0]["mimeType"], "text/markdown");
        skill.verify(&f.uri, text.as_bytes()).unwrap();
    }
    // The frontmatter the entry carries is the SKILL.md's, field by field.
    let md = s.ok("resources/read", json!({"uri": skill.uri}));
    let md = md["contents"][0]["text"].as_str().unwrap();
    for (k, v) in &skill.frontmatter {
        assert!(
            md.contains(&format!("{k}: {}", v.as_str().unwrap())),
            "{k} in {md}"
        );
    }
    // A relative reference of SKILL.md resolves to a listed file.
    assert_eq!(
        skill.resolve("references/cities.md").as_deref(),
        Some(files[1].uri.as_str())
    );

    let got = s.ok(
        "skills/get",
        json!({"uri": "skill://weather-report/SKILL.md"}),
    );
    assert_eq!(got["resultType"], "complete");
    assert_eq!(Listing::skill_of(&got).unwrap().unwrap(), skill);
    assert_eq!(
        rpc_code(s.request("skills/get", json!({"uri": "skill://nope/SKILL.md"}))),
        -32602
    );
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

#[test]
fn under_2025_11_25_there_is_no_skills_extension() {
    let mut s = Session::new(GenerationMode::Initialize);
    let caps = &s.client.negotiated().unwrap().capabilities;
    assert!(!caps.contains_key("extensions"), "{caps:?}");
    assert_eq!(rpc_code(s.request("skills/list", json!({}))), -32601);
    // The files are resources still, read as any other.
    let read = s.ok(
        "resources/read",
        json!({"uri": "skill://weather-report/SKILL.md"}),
    );
    assert!(
        read["contents"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("---\nname: weather-report")
    );
}

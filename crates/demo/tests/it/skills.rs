//! The demo's skill (MCP Skills, SEP-2640) through the core's client: declared
//! under 2026-07-28 only, listed and got with an entry the host side accepts, and
//! every file it lists read back with the digest and size the entry promises.
//! Runs natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use mcpg_core::client::{ClientConfig, GenerationMode};
use mcpg_core::server::SKILLS_EXTENSION;
use mcpg_demo::{DemoServer, handlers};
use mcpg_skills::{Child, DirectoryPage, Listing, SkillFiles};
use serde_json::json;
use support::{Session, rpc_code};

#[test]
fn the_skill_is_listed_got_and_its_files_verify_under_2026_07_28() {
    assert_eq!(SKILLS_EXTENSION, mcpg_skills::EXTENSION, "one name");
    let mut s = Session::new(GenerationMode::Auto);
    let caps = &s.client.negotiated().unwrap().capabilities;
    assert_eq!(
        caps["extensions"][SKILLS_EXTENSION],
        json!({"directoryRead": true}),
        "{caps:?}"
    );
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

/// The checked children of one directory read (the demo's fit on one page).
fn children(s: &mut Session, dir: &str) -> Vec<Child> {
    let page = s.ok("resources/directory/read", json!({"uri": dir}));
    assert_eq!(page["resultType"], "complete", "{page}");
    let page = DirectoryPage::from_result(dir, &page).unwrap();
    assert_eq!(page.next_cursor, None);
    page.children.into_iter().map(Result::unwrap).collect()
}

#[test]
fn the_skill_s_directories_are_read_from_its_entry_under_2026_07_28() {
    let mut s = Session::new(GenerationMode::Auto);
    let root = children(&mut s, "skill://weather-report");
    let shown: Vec<(&str, bool)> = root
        .iter()
        .map(|c| (c.segment.as_str(), c.is_directory()))
        .collect();
    assert_eq!(shown, [("SKILL.md", false), ("references", true)]);
    assert_eq!(root[0].mime_type.as_deref(), Some("text/markdown"));
    assert_eq!(root[1].uri, "skill://weather-report/references");

    let refs = children(&mut s, "skill://weather-report/references");
    assert_eq!(refs.len(), 1);
    assert_eq!(refs[0].uri, FILES_REF);
    assert!(!refs[0].is_directory());
    // Every file the directories show is one the entry lists (and reads).
    let read = s.ok("resources/read", json!({"uri": refs[0].uri}));
    assert!(read["contents"][0]["text"].is_string());

    // A file, an unknown directory, a prefix that is no folder: -32602.
    for uri in [
        "skill://weather-report/SKILL.md",
        "skill://nope",
        "skill://weather-rep",
        "skill://weather-report/references/cities.md",
        "skill://weather-report/",
    ] {
        let r = s.request("resources/directory/read", json!({"uri": uri}));
        assert_eq!(rpc_code(r), -32602, "{uri}");
    }
    let r = s.request("resources/directory/read", json!({}));
    assert_eq!(rpc_code(r), -32602);
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

const FILES_REF: &str = "skill://weather-report/references/cities.md";

#[test]
fn directory_read_is_not_offered_under_2025_11_25_nor_before_the_answers_load() {
    let mut old = Session::new(GenerationMode::Initialize);
    let r = old.request(
        "resources/directory/read",
        json!({"uri": "skill://weather-report"}),
    );
    assert_eq!(rpc_code(r), -32601);

    let cfg = ClientConfig {
        mode: GenerationMode::Auto,
        ..Default::default()
    };
    let mut s = Session::with_server(cfg, DemoServer::without_handlers());
    let caps = &s.client.negotiated().unwrap().capabilities;
    assert_eq!(
        caps["extensions"][SKILLS_EXTENSION]["directoryRead"],
        json!(true),
        "declared from the configuration before the answers come"
    );
    let r = s.request(
        "resources/directory/read",
        json!({"uri": "skill://weather-report"}),
    );
    assert_eq!(rpc_code(r), -32603, "not loaded yet");
    s.server.set_handlers(handlers());
    assert_eq!(children(&mut s, "skill://weather-report").len(), 2);
}

//! `mcpg skills list|get [--out DIR]`: the demo's skill under 2026-07-28 (listed,
//! printed, written byte for byte); a scripted hostile server
//! (`fixtures/hostile_skills.py`) whose skills carry a file with a wrong digest, a
//! SKILL.md longer than its entry says, a file whose path is absolute and one that
//! climbs out with `..` (nothing lands outside the output directory, nothing
//! unverified is written or shown); and servers without the extension (a clear
//! error, exit 3).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use crate::asks_support;
use crate::mcpg_run;
use crate::peers;

use mcpg_demo::content::skills::FILES;
use mcpg_run::{Run, mcpg, python};
use serde_json::Value;

/// `--stdio` for `mcpg demo`, speaking only 2026-07-28 (the extension's revision).
pub(crate) fn demo() -> [String; 4] {
    [
        "--stdio".into(),
        format!("'{}' demo", env!("CARGO_BIN_EXE_mcpg")),
        "--protocol-version".into(),
        "2026-07-28".into(),
    ]
}

/// `mcpg skills args… conn…`.
pub(crate) fn skills(args: &[&str], conn: &[String]) -> Run {
    let conn: Vec<&str> = conn.iter().map(String::as_str).collect();
    mcpg(&[&["skills"][..], args, &conn].concat())
}

/// `--stdio` for the hostile server, its absolute file pointing at `outside`.
pub(crate) fn hostile(outside: &Path, flags: &str) -> Option<[String; 2]> {
    let python = python()?;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile_skills.py");
    Some([
        "--stdio".into(),
        format!(
            "{python} '{}' '{}' {flags}",
            script.display(),
            outside.display()
        ),
    ])
}

/// No control character but newline on either stream.
pub(crate) fn assert_clean(r: &Run) {
    for text in [&r.stdout, &r.stderr] {
        let bad = text
            .chars()
            .find(|&c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c));
        assert_eq!(bad, None, "a raw control character: {text:?}");
    }
}

/// Every file under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn the_demo_s_skill_is_listed_printed_and_written_under_2026_07_28() {
    let conn = demo();
    let (skill_md, cities) = (FILES[0].1, FILES[1].1);
    let total = skill_md.len() + cities.len();

    // Listing reads no file (a host reads a skill's files when it loads it).
    let r = skills(&["list", "--verbose"], &conn);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout.lines().collect::<Vec<_>>(),
        [
            "--- page 1 of 1 (1 skill) ---",
            &format!(
                "weather-report <skill://weather-report/SKILL.md> 2 files, {total} bytes: Write a short weather report for a city with this server's tools (get_weather, then get_forecast), and say plainly when …"
            ),
            "1 skill in 1 page",
        ]
    );
    assert!(r.stderr.contains(r#""method":"skills/list""#), "{r:?}");
    assert!(!r.stderr.contains("resources/read"), "{r:?}");
    assert!(!r.stderr.contains("diagnostic:"), "{r:?}");

    let r = skills(&["list", "--json"], &conn);
    assert_eq!(r.code, 0, "{r:?}");
    let all: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 1);
    assert_eq!(all[0]["uri"], "skill://weather-report/SKILL.md");
    assert_eq!(all[0]["resources"].as_array().unwrap().len(), 2);

    // SKILL.md exactly, on stdout; the other file listed on stderr, not read.
    for name in ["weather-report", "skill://weather-report/SKILL.md"] {
        let r = skills(&["get", name, "--verbose"], &conn);
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.stdout, skill_md);
        assert!(
            r.stderr
                .contains(&format!("SKILL.md: {} bytes, verified\n", skill_md.len())),
            "{r:?}"
        );
        assert!(
            r.stderr.contains(&format!(
                "1 other file not read (--out DIR reads, verifies and writes them all):\n  references/cities.md ({} bytes)\n",
                cities.len()
            )),
            "{r:?}"
        );
        assert!(
            !r.stderr.contains("references/cities.md\"}"),
            "not read: {r:?}"
        );
    }

    let out = tempfile::tempdir().unwrap();
    let r = skills(
        &[
            "get",
            "weather-report",
            "--out",
            out.path().to_str().unwrap(),
        ],
        &conn,
    );
    assert_eq!(r.code, 0, "{r:?}");
    let root = out.path().join("weather-report");
    assert_eq!(
        tree(out.path()),
        [
            "weather-report/SKILL.md",
            "weather-report/references/cities.md"
        ]
    );
    assert_eq!(
        std::fs::read(root.join("SKILL.md")).unwrap(),
        skill_md.as_bytes()
    );
    assert_eq!(
        std::fs::read(root.join("references/cities.md")).unwrap(),
        cities.as_bytes()
    );
    assert_eq!(
        r.last_line(),
        format!("2 files ({total} bytes) written to {}", root.display())
    );
    assert_eq!(r.stderr, "");

    let r = skills(&["get", "nope"], &conn);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(
        r.error_line(),
        "mcpg: the server lists no skill named \"nope\"; it lists: weather-report"
    );
}

#[test]
fn a_hostile_server_gets_nothing_unverified_written_and_nothing_outside() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside/pwned.md");
    let Some(conn) = hostile(&outside, "") else {
        return;
    };

    // Both pages; the entry that climbs out is named and skipped, the rest listed.
    let r = skills(&["list"], &conn);
    assert_eq!(r.code, 1, "{r:?}");
    assert_clean(&r);
    assert_eq!(
        r.stdout,
        "--- page 1 of 2 (1 skill, 1 skipped) ---\n\
         tampered <skill://tampered/SKILL.md> 4 files, 344 bytes: Tampered \\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\u{202e}exe\n\
         --- page 2 of 2 (2 skills, 1 skipped) ---\n\
         forged <skill://forged/SKILL.md> 1 file, 57 bytes: forged skill\n\
         live <skill://live/SKILL.md> dynamic files: live skill\n\
         3 skills in 2 pages\n"
    );
    assert_eq!(
        r.stderr,
        format!(
            "skipped skill://absolute/SKILL.md: file \"skill://absolute/{}\" is outside the skill's directory\n\
             skipped skill://escape/SKILL.md: file \"skill://escape/../x\" is outside the skill's directory\n\
             mcpg: 2 skill entries (above) must not be loaded\n",
            outside.display()
        )
    );
    let r = skills(&["list", "--json"], &conn);
    let all: Value = serde_json::from_str(&r.stdout).unwrap();
    let uris: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "skill://tampered/SKILL.md",
            "skill://forged/SKILL.md",
            "skill://live/SKILL.md"
        ],
        "only what may be loaded"
    );

    // A server that names the same page again is not followed forever.
    let looping = hostile(&outside, "--loop").unwrap();
    let r = skills(&["list"], &looping);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.ends_with("3 skills in 2 pages\n"), "{r:?}");
    assert!(
        r.stderr.ends_with(
            "skills/list returned the cursor \"2\" a second time (page 2); stopped instead of looping forever\n\
             mcpg: 2 skill entries (above) must not be loaded; the listing stopped before its end (above)\n"
        ),
        "{r:?}"
    );

    let out = tmp.path().join("out");
    let dir = out.to_str().unwrap();

    // A file whose bytes hash to another digest is not written; the others are.
    let r = skills(&["get", "tampered", "--out", dir], &conn);
    assert_eq!(r.code, 1, "{r:?}");
    assert_clean(&r);
    let stderr: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(stderr.len(), 2, "{r:?}");
    assert!(
        stderr[0].starts_with(
            "not written: references/bad.md: \"skill://tampered/references/bad.md\" hashes to sha256:"
        ) && stderr[0].contains(", but its entry says sha256:"),
        "{r:?}"
    );
    assert_eq!(
        stderr[1],
        format!(
            "mcpg: 1 of 4 files not written (above); 3 files (329 bytes) written to {}",
            out.join("tampered").display()
        )
    );
    assert_eq!(
        tree(&out),
        [
            "tampered/SKILL.md",
            "tampered/assets/logo.bin",
            "tampered/references/ok.md"
        ]
    );
    let logo: Vec<u8> = (0..=255).collect();
    assert_eq!(
        std::fs::read(out.join("tampered/assets/logo.bin")).unwrap(),
        logo,
        "a blob, decoded"
    );
    assert_eq!(
        std::fs::read(out.join("tampered/references/ok.md")).unwrap(),
        b"All good.\n"
    );

    // A file whose path inside the skill would be absolute (an empty segment):
    // the entry must not be loaded at all, and nothing lands there.
    let r = skills(&["get", "absolute", "--out", dir], &conn);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.error_line(),
        format!(
            "mcpg: the skill skill://absolute/SKILL.md must not be loaded: file \"skill://absolute/{}\" is outside the skill's directory",
            outside.display()
        )
    );
    assert!(!outside.exists(), "written outside the output directory");
    assert!(!outside.parent().unwrap().exists());
    assert!(!out.join("absolute").exists());

    // `..`: the entry must not be loaded at all.
    let r = skills(&["get", "escape", "--out", dir], &conn);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.error_line(),
        "mcpg: the skill skill://escape/SKILL.md must not be loaded: file \"skill://escape/../x\" is outside the skill's directory"
    );
    assert!(!out.join("escape").exists());
    assert!(!tmp.path().join("x").exists());

    // A SKILL.md longer than its entry says is neither printed nor written.
    let r = skills(&["get", "forged"], &conn);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.error_line(),
        "mcpg: SKILL.md of skill://forged/SKILL.md not shown: \"skill://forged/SKILL.md\" is 74 bytes, but its entry says 57"
    );
    let r = skills(&["get", "forged", "--out", dir], &conn);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!out.join("forged").exists());

    // "dynamic" files: SKILL.md shown and said to be unverified; nothing written.
    let r = skills(&["get", "live"], &conn);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "---\nname: live\ndescription: live skill\n---\n\n# live\n"
    );
    assert_eq!(
        r.stderr,
        "SKILL.md: 51 bytes, NOT verified: the skill's files are \"dynamic\" (no digests)\n"
    );
    let r = skills(&["get", "live", "--out", dir], &conn);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.error_line(),
        "mcpg: the skill skill://live/SKILL.md lists its files as \"dynamic\": the server publishes no digests, so --out writes nothing"
    );
    assert!(!out.join("live").exists());
}

#[test]
fn a_server_without_the_extension_gets_a_clear_error() {
    let old = format!("'{}' demo", env!("CARGO_BIN_EXE_mcpg"));
    let conn = [
        "--stdio".to_owned(),
        old,
        "--protocol".into(),
        "initialize".into(),
    ];
    let under_2025 = "mcpg: the server does not declare the Skills extension (io.modelcontextprotocol/skills) under 2025-11-25: the extension needs protocol 2026-07-28";
    for args in [&["list"][..], &["get", "weather-report"]] {
        let r = skills(args, &conn);
        assert_eq!(r.code, 3, "{r:?}");
        assert_eq!(r.error_line(), under_2025);
    }

    // A 2026-07-28 server that declares no extension: it is not asked.
    let tmp = tempfile::tempdir().unwrap();
    if let Some(conn) = hostile(&tmp.path().join("x"), "--no-skills") {
        let r = skills(&["list", "--verbose"], &conn);
        assert_eq!(r.code, 3, "{r:?}");
        assert!(
            r.stderr.ends_with(
                "mcpg: the server does not declare the Skills extension (io.modelcontextprotocol/skills): it serves no skills\n"
            ),
            "{r:?}"
        );
        assert!(!r.stderr.contains(r#""method":"skills/list""#), "{r:?}");
    }

    // server-everything (2025-11-25): the same words.
    if let Some(server) = asks_support::stdio(peers::Peer::Everything) {
        let r = mcpg(&["skills", "list", "--stdio", &server]);
        assert_eq!(r.code, 3, "{r:?}");
        assert_eq!(r.error_line(), under_2025);
    }
}

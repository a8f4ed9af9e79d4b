//! `mcpg skills dir URI` (`resources/directory/read`): the demo's skill root and
//! its folder under 2026-07-28; the hostile server's directory (children outside,
//! two levels down, `..` plain and percent-encoded, repeated, a name of terminal
//! controls, a cursor that loops), where every refused child is named and the
//! rest printed escaped; and servers that did not declare `directoryRead` (a usage
//! error, nothing sent).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::skills::{assert_clean, demo, hostile, skills};

#[test]
fn the_demo_s_skill_directories_are_listed() {
    let conn = demo();
    let r = skills(&["dir", "skill://weather-report", "--verbose"], &conn);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout.lines().collect::<Vec<_>>(),
        [
            "--- page 1 of 1 (2 items) ---",
            "SKILL.md  text/markdown  <skill://weather-report/SKILL.md>",
            "references/  directory  <skill://weather-report/references>",
            "2 items in 1 page",
        ]
    );
    assert!(
        r.stderr.contains(r#""method":"resources/directory/read""#),
        "{r:?}"
    );
    assert!(!r.stderr.contains("resources/read\""), "{r:?}");

    // A trailing slash typed is dropped (directory URIs have none).
    let r = skills(&["dir", "skill://weather-report/references/"], &conn);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout.lines().collect::<Vec<_>>(),
        [
            "--- page 1 of 1 (1 item) ---",
            "cities.md  text/markdown  <skill://weather-report/references/cities.md>",
            "1 item in 1 page",
        ]
    );

    // A file is no directory: the server's -32602, exit 3.
    let r = skills(&["dir", "skill://weather-report/SKILL.md"], &conn);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.error_line()
            .contains("skill://weather-report/SKILL.md is not a directory resource"),
        "{r:?}"
    );
}

#[test]
fn a_hostile_directory_has_its_bad_children_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(conn) = hostile(&tmp.path().join("x"), "") else {
        return;
    };
    let r = skills(&["dir", "skill://tampered"], &conn);
    assert_eq!(r.code, 1, "{r:?}");
    assert_clean(&r);
    let out: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(out[0], "--- page 1 of 2 (3 items, 3 skipped) ---");
    assert_eq!(
        out[1],
        "SKILL.md  text/markdown  <skill://tampered/SKILL.md>"
    );
    assert_eq!(
        out[2],
        "references/  directory  <skill://tampered/references>"
    );
    assert!(out[3].starts_with("evil\\u{1b}[2J"), "{out:?}");
    assert_eq!(out[4], "--- page 2 of 2 (1 item, 2 skipped) ---");
    assert_eq!(out[5], "assets/  directory  <skill://tampered/assets>");
    assert_eq!(out[6], "4 items in 2 pages");
    assert_eq!(out.len(), 7);
    for refused in [
        r#"skipped: "skill://other/x.md" is not inside the directory read"#,
        r#"skipped: "skill://tampered/references/bad.md" is not a direct child of the directory read"#,
        r#"skipped: "skill://tampered/.." names the directory itself or its parent"#,
        r#"skipped: "skill://tampered/%2E%2e" names the directory itself or its parent"#,
        r#"skipped: "skill://tampered/SKILL.md" is listed twice"#,
    ] {
        assert!(r.stderr.contains(refused), "{refused} in {r:?}");
    }
    assert!(
        r.stderr
            .ends_with("\nmcpg: 5 children (above) were refused\n"),
        "{r:?}"
    );

    // A cursor that names its own page again: stopped, said, exit 1.
    let looping = hostile(&tmp.path().join("x"), "--loop").unwrap();
    let r = skills(&["dir", "skill://tampered"], &looping);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(
            r#"resources/directory/read returned the cursor "d2" a second time (page 2); stopped instead of looping forever"#
        ),
        "{r:?}"
    );
    assert!(r.stdout.ends_with("4 items in 2 pages\n"), "{r:?}");
}

#[test]
fn without_directory_read_declared_nothing_is_sent() {
    let tmp = tempfile::tempdir().unwrap();
    if let Some(conn) = hostile(&tmp.path().join("x"), "--no-dir-read") {
        let r = skills(&["dir", "skill://tampered", "--verbose"], &conn);
        assert_eq!(r.code, 2, "{r:?}");
        let last = r.stderr.lines().last().unwrap_or_default();
        assert!(
            last.starts_with(
                "mcpg: the server declares the Skills extension without directoryRead: true"
            ),
            "{r:?}"
        );
        assert!(
            !r.stderr.contains(r#""method":"resources/directory/read""#),
            "{r:?}"
        );
    }
    if let Some(conn) = hostile(&tmp.path().join("x"), "--no-skills") {
        let r = skills(&["dir", "skill://tampered"], &conn);
        assert_eq!(r.code, 3, "{r:?}");
        assert!(r.error_line().contains("it serves no skills"), "{r:?}");
    }
    // Under 2025-11-25 the demo declares no extension at all.
    let old = [
        "--stdio".to_owned(),
        format!("'{}' demo", env!("CARGO_BIN_EXE_mcpg")),
        "--protocol".into(),
        "initialize".into(),
    ];
    let r = skills(&["dir", "skill://weather-report"], &old);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.error_line().contains("under 2025-11-25"), "{r:?}");
}

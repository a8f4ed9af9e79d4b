//! `mcpg apps check` and the MCP Apps marks of `mcpg tools list`: against the npm
//! MCP Apps examples (`tests/peers/node-apps`), and against a scripted server whose
//! views are wrong in every way the check looks for (`fixtures/bad_apps.py`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use crate::mcpg_run::{mcpg, python};
use crate::peers;

/// An npm MCP Apps example over stdio, by package name.
fn example(package: &str) -> Option<String> {
    let js = peers::peers_dir().join(format!(
        "node-apps/node_modules/@modelcontextprotocol/{package}/dist/index.js"
    ));
    if !js.is_file() {
        peers::missing(&format!("{package} not found at {}", js.display()))?;
    }
    Some(format!("node '{}' --stdio", js.display()))
}

fn bad_apps() -> Option<String> {
    let python = python()?;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bad_apps.py");
    Some(format!("{python} '{}'", script.display()))
}

#[test]
fn the_npm_examples_views_pass_the_check() {
    for (package, uri) in [
        ("server-basic-vanillajs", "ui://get-time/mcp-app.html"),
        (
            "server-budget-allocator",
            "ui://budget-allocator/mcp-app.html",
        ),
    ] {
        let Some(server) = example(package) else {
            return;
        };
        let r = mcpg(&["apps", "check", "--stdio", &server]);
        assert_eq!(r.code, 0, "{package}: {r:?}");
        assert!(
            r.stdout.contains(&format!("✓ {uri}")),
            "{package}: {}",
            r.stdout
        );
        assert!(
            r.stdout.contains("bytes of text/html;profile=mcp-app"),
            "{}",
            r.stdout
        );

        let r = mcpg(&["tools", "list", "--stdio", &server]);
        assert_eq!(r.code, 0, "{r:?}");
        assert!(r.stdout.contains(&format!("[view {uri}]")), "{}", r.stdout);
    }
}

#[test]
fn every_wrong_view_is_named_and_the_check_fails() {
    let Some(server) = bad_apps() else {
        return;
    };
    let r = mcpg(&["apps", "check", "--stdio", &server]);
    assert_eq!(r.code, 1, "{r:?}");
    let out = &r.stdout;
    assert!(
        out.starts_with("5 of 6 tools link a view; 1 app-only (hidden from the model)\n"),
        "{out}"
    );
    assert!(
        out.contains("✗ tool odd_visibility: visibility has \"agent\""),
        "{out}"
    );
    assert!(
        out.contains("✓ ui://fixture/good (linked by good, refresh)"),
        "{out}"
    );
    assert!(
        out.contains("connect-src https://api.example.com;"),
        "{out}"
    );
    assert!(
        out.contains("✗ ui://fixture/plain (linked by wrong_mime)\n"),
        "{out}"
    );
    assert!(
        out.contains("problem: the MIME type is \"text/html\""),
        "{out}"
    );
    assert!(out.contains("✗ ui://fixture/wide"), "{out}");
    assert!(
        out.contains("problem: CSP: resourceDomains: \"*\""),
        "{out}"
    );
    assert!(
        out.contains("problem: CSP: resourceDomains: \"'unsafe-eval'\""),
        "{out}"
    );
    assert!(
        out.contains("script-src 'self' 'unsafe-inline' https://cdn.example.com;"),
        "{out}"
    );
    assert!(
        out.contains("problem: resources/read failed: Resource not found (-32002)"),
        "{out}"
    );

    let r = mcpg(&["apps", "check", "--stdio", &server, "--json"]);
    assert_eq!(r.code, 1, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["views"].as_array().unwrap().len(), 4);

    // The marks (`tools list` declares the extension too).
    let r = mcpg(&["tools", "list", "--stdio", &server]);
    assert!(
        r.stdout
            .contains("refresh  [view ui://fixture/good]  [app only: hidden from the model]"),
        "{}",
        r.stdout
    );
}

#[test]
fn reading_a_view_tells_its_size_type_and_policy() {
    let Some(server) = bad_apps() else {
        return;
    };
    let r = mcpg(&["resources", "read", "--stdio", &server, "ui://fixture/wide"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "[view <ui://fixture/wide> text/html;profile=mcp-app, 37 bytes of HTML (--json prints it)]\n\
         CSP declared: resourceDomains https://cdn.example.com\n\
         CSP source left out: resourceDomains: \"*\" has no scheme (write https://host)\n\
         CSP source left out: resourceDomains: \"'unsafe-eval'\" is not a single source\n\
         policy applied: default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example.com; style-src 'self' 'unsafe-inline' https://cdn.example.com; img-src 'self' data: https://cdn.example.com; font-src 'self' https://cdn.example.com; media-src 'self' data: https://cdn.example.com; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'none'\n"
    );
    let r = mcpg(&[
        "resources",
        "read",
        "--stdio",
        &server,
        "ui://fixture/wide",
        "--json",
    ]);
    assert!(r.stdout.contains("<!doctype html>"), "{}", r.stdout);
    // Not a view (text/html without the profile): printed as any resource.
    let r = mcpg(&[
        "resources",
        "read",
        "--stdio",
        &server,
        "ui://fixture/plain",
    ]);
    assert_eq!(r.stdout, "<!doctype html><title>ok</title><p>ok\n");
}

#[test]
fn the_demos_weather_card_passes_in_both_generations() {
    let me = env!("CARGO_BIN_EXE_mcpg");
    let server = format!("'{me}' demo");
    // Both list the task tool (count_task) after the other 25: 2025-11-25 to every
    // client, 2026-07-28 to one that declares the Tasks extension, as mcpg does.
    for (rev, tools) in [("2025-11-25", 26), ("2026-07-28", 26)] {
        let r = mcpg(&[
            "apps",
            "check",
            "--stdio",
            &server,
            "--protocol-version",
            rev,
        ]);
        assert_eq!(r.code, 0, "{rev}: {r:?}");
        assert!(
            r.stdout
                .starts_with(&format!("2 of {tools} tools link a view; 1 app-only")),
            "{}",
            r.stdout
        );
        assert!(
            r.stdout
                .contains("✓ ui://demo/weather-card (linked by get_weather, get_weather_details)"),
            "{}",
            r.stdout
        );
        assert!(r.stdout.contains("connect-src 'none'"), "{}", r.stdout);
    }
    // A view is not in resources/list (the spec lets a server leave it out).
    let r = mcpg(&["resources", "list", "--stdio", &server]);
    assert!(!r.stdout.contains("ui://"), "{}", r.stdout);
}

/// An npm example serving Streamable HTTP on a free port; killed when dropped.
struct HttpExample(std::process::Child);

impl Drop for HttpExample {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_check_runs_over_streamable_http_too() {
    use std::io::{BufRead as _, BufReader};

    let Some(line) = example("server-basic-vanillajs") else {
        return;
    };
    let js = line
        .trim_start_matches("node '")
        .trim_end_matches("' --stdio")
        .to_owned();
    let port = peers::free_port();
    let mut child = std::process::Command::new("node")
        .arg(&js)
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let server = HttpExample(child);
    // It prints "MCP server listening on http://localhost:PORT/mcp" once the port is open.
    let mut ready = String::new();
    for l in BufReader::new(out).lines() {
        let l = l.unwrap();
        if l.contains("listening") {
            ready = l;
            break;
        }
    }
    assert!(ready.contains(&port.to_string()), "{ready:?}");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let r = mcpg(&["apps", "check", "--url", &url]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .contains("✓ ui://get-time/mcp-app.html (linked by get-time)"),
        "{}",
        r.stdout
    );
    drop(server);
}

use mcpg_apps::{Csp, MIME, ResourceError, UiResource, source};
use serde_json::json;

#[test]
fn a_view_with_no_csp_gets_the_restrictive_default() {
    let r = UiResource::from_read(
        "ui://a/b",
        &json!({"contents": [{"uri": "ui://a/b", "mimeType": MIME, "text": "<!doctype html><p>hi"}]}),
    )
    .unwrap();
    assert_eq!(r.html, "<!doctype html><p>hi");
    let p = r.csp.policy();
    for d in [
        "default-src 'none'",
        "connect-src 'none'",
        "frame-src 'none'",
        "object-src 'none'",
        "base-uri 'self'",
    ] {
        assert!(p.contains(d), "{p}");
    }
}

#[test]
fn declared_origins_widen_only_their_directives() {
    let csp = Csp::from_meta(Some(&json!({
        "connectDomains": ["https://api.example.com", "wss://rt.example.com"],
        "resourceDomains": ["https://*.cdn.example"],
    })));
    let p = csp.policy();
    assert!(
        p.contains("connect-src https://api.example.com wss://rt.example.com"),
        "{p}"
    );
    assert!(
        p.contains("script-src 'self' 'unsafe-inline' https://*.cdn.example"),
        "{p}"
    );
    assert!(p.contains("frame-src 'none'"), "{p}");
    assert!(csp.refused.is_empty());
}

#[test]
fn a_source_that_would_widen_more_than_an_origin_is_left_out() {
    for bad in [
        "*",
        "https://*",
        "'unsafe-eval'",
        "https://a.example; script-src *",
        "https://a.example *",
        "javascript:alert(1)",
        "http://a.example",
        "https://a.example/path",
        "data:",
        "https://user@a.example",
        "a.example",
        // CSP cannot name an IPv6 literal: Chrome drops the whole source.
        "http://[::1]:3001",
    ] {
        assert!(source(bad).is_err(), "{bad} was accepted");
    }
    assert_eq!(
        source("HTTPS://API.Example.com:8443").unwrap(),
        "https://api.example.com:8443"
    );
    assert_eq!(
        source("http://localhost:3001").unwrap(),
        "http://localhost:3001"
    );
    let csp = Csp::from_meta(Some(
        &json!({"connectDomains": ["*", "https://ok.example"]}),
    ));
    assert_eq!(csp.connect, ["https://ok.example"]);
    assert_eq!(csp.refused.len(), 1);
    assert!(!csp.policy().contains(" * "));
}

#[test]
fn a_resource_that_is_not_a_view_says_why() {
    let read = |mime: &str| json!({"contents": [{"uri": "ui://a", "mimeType": mime, "text": "x"}]});
    assert_eq!(
        UiResource::from_read("ui://a", &read("text/html")),
        Err(ResourceError::Mime("text/html".into()))
    );
    assert!(UiResource::from_read("ui://a", &read("text/html; profile=mcp-app")).is_ok());
    assert_eq!(
        UiResource::from_read("https://a", &read(MIME)),
        Err(ResourceError::NotUi("https://a".into()))
    );
    assert_eq!(
        UiResource::from_read("ui://a", &json!({"contents": []})),
        Err(ResourceError::Empty)
    );
    let blob = json!({"contents": [{"uri": "ui://a", "mimeType": MIME, "blob": "PGI+aGk8L2I+"}]});
    assert_eq!(
        UiResource::from_read("ui://a", &blob).unwrap().html,
        "<b>hi</b>"
    );
}

//! The issue-15 peers work: the real authorization server (oidc-provider) and the
//! protected MCP server (Python SDK), driven by hand the way an MCP client must
//! (RFC 9728 discovery, RFC 8414 metadata, RFC 7591 registration, PKCE S256, RFC
//! 8707 `resource`, refresh, step-up), with a test playing the browser.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::auth_support;

use std::time::{Duration, Instant};

use auth_support::http::{call_tool, form, get_json, initialize, mcp, post};
use auth_support::{AuthPeerOptions, AuthPeers, Browsed, browse};
use base64::Engine as _;
use serde_json::{Value, json};
use sha2::Digest as _;

const REDIRECT: &str = "http://127.0.0.1:9/callback";
/// The authorization leg: the URL with PKCE S256, `state` and `resource`, the
/// browser, and the checks on the redirect (`state` echoed, RFC 9207 `iss`).
async fn authorize(
    peers: &AuthPeers,
    client_id: &str,
    scope: &str,
    verifier: &str,
    resource: &str,
) -> String {
    let digest = sha2::Sha256::digest(verifier.as_bytes());
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest);
    let query = form(&[
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", REDIRECT),
        ("scope", scope),
        ("state", "s-123"),
        ("code_challenge", &challenge),
        ("code_challenge_method", "S256"),
        ("resource", resource),
    ]);
    let browsed: Browsed = browse(&format!("{}/auth?{query}", peers.as_url), "alice").await;
    assert_eq!(browsed.prompts, ["login", "consent"]);
    let back = browsed.redirect;
    assert!(back.starts_with(&format!("{REDIRECT}?")), "{back}");
    let iss = format!("iss={}", auth_support::form_value(&peers.as_url));
    assert!(
        back.contains("state=s-123") && back.contains(&iss),
        "{back}"
    );
    let code = back.split(['?', '&']).find_map(|p| p.strip_prefix("code="));
    code.unwrap().to_owned()
}

async fn exchange(peers: &AuthPeers, pairs: &[(&str, &str)], basic: Option<&str>) -> Value {
    let url = format!("{}/token", peers.as_url);
    let (status, tokens) = post(
        &url,
        "application/x-www-form-urlencoded",
        form(pairs),
        basic,
    )
    .await;
    assert_eq!(status, 200, "token endpoint: {tokens}");
    tokens
}

#[tokio::test(flavor = "multi_thread")]
async fn a_public_client_logs_in_refreshes_and_steps_up() {
    let options = AuthPeerOptions {
        access_ttl_secs: 4,
        ..AuthPeerOptions::default()
    };
    let Some(peers) = AuthPeers::start(&options) else {
        return;
    };
    // 1. No token: 401 naming the protected resource metadata (RFC 9728 §5.1).
    let refused = mcp(&peers.mcp_url, None, None, initialize()).await;
    assert_eq!(refused.status, 401);
    let challenge = refused.www_authenticate.unwrap();
    assert!(challenge.contains(&format!("resource_metadata=\"{}\"", peers.metadata_url())));
    let prm = get_json(&peers.metadata_url()).await;
    assert_eq!(prm["resource"], peers.mcp_url.as_str());
    assert_eq!(prm["authorization_servers"], json!([peers.as_url]));
    assert_eq!(prm["scopes_supported"], json!(["mcp:tools"]));
    // 2. AS metadata (RFC 8414): PKCE S256 and open registration.
    let meta = get_json(&format!(
        "{}/.well-known/oauth-authorization-server",
        peers.as_url
    ))
    .await;
    assert_eq!(meta["issuer"], peers.as_url.as_str());
    assert_eq!(meta["code_challenge_methods_supported"], json!(["S256"]));
    // 3. Dynamic registration (RFC 7591) of a public client.
    let registration =
        json!({"redirect_uris":[REDIRECT],"token_endpoint_auth_method":"none","client_name":"t"});
    let reg_url = meta["registration_endpoint"].as_str().unwrap();
    let (status, client) = post(reg_url, "application/json", registration.to_string(), None).await;
    assert_eq!(status, 201, "{client}");
    let client_id = client["client_id"].as_str().unwrap();
    // 4-5. Authorization code with PKCE, then the exchange bound to the resource.
    let verifier = "v".repeat(43) + "-test-verifier";
    let code = authorize(&peers, client_id, "mcp:tools", &verifier, &peers.mcp_url).await;
    let pairs = [
        ("grant_type", "authorization_code"),
        ("code", &code),
        ("redirect_uri", REDIRECT),
        ("client_id", client_id),
        ("code_verifier", &verifier),
        ("resource", &peers.mcp_url),
    ];
    let tokens = exchange(&peers, &pairs, None).await;
    assert_eq!(tokens["scope"], "mcp:tools");
    let first = tokens["access_token"].as_str().unwrap();
    let who = call_tool(&peers.mcp_url, first, "whoami").await;
    let text = who.message["result"]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        text.contains("\"alice\"") && text.contains("mcp:tools"),
        "{text}"
    );
    // 6a. Step-up: admin_report needs mcp:admin.
    let denied = call_tool(&peers.mcp_url, first, "admin_report").await;
    assert_eq!(denied.status, 403);
    let www = denied.www_authenticate.unwrap();
    assert!(
        www.contains("error=\"insufficient_scope\"")
            && www.contains("scope=\"mcp:tools mcp:admin\""),
        "{www}"
    );
    let scopes = "mcp:tools mcp:admin";
    let code = authorize(&peers, client_id, scopes, &verifier, &peers.mcp_url).await;
    let mut pairs = pairs;
    pairs[1].1 = &code;
    let admin = exchange(&peers, &pairs, None).await;
    let admin_token = admin["access_token"].as_str().unwrap();
    let report = call_tool(&peers.mcp_url, admin_token, "admin_report").await;
    assert_eq!(report.status, 200);
    assert!(
        report
            .message
            .to_string()
            .contains("admin report for alice")
    );
    // 6b. Expiry, then refresh.
    let deadline = Instant::now() + Duration::from_secs(20);
    while mcp(&peers.mcp_url, Some(first), None, initialize())
        .await
        .status
        != 401
    {
        assert!(Instant::now() < deadline, "the 4 s token never expired");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let refresh = tokens["refresh_token"].as_str().unwrap();
    let refreshed = exchange(
        &peers,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh),
            ("client_id", client_id),
        ],
        None,
    )
    .await;
    let renewed = refreshed["access_token"].as_str().unwrap();
    assert_ne!(renewed, first);
    assert_eq!(
        call_tool(&peers.mcp_url, renewed, "whoami").await.status,
        200
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_confidential_client_authenticates_and_a_wrong_audience_is_refused() {
    let options = AuthPeerOptions {
        as_without_cors: true,
        ..AuthPeerOptions::default()
    };
    let Some(peers) = AuthPeers::start(&options) else {
        return;
    };
    let registration =
        json!({"redirect_uris":[REDIRECT],"token_endpoint_auth_method":"client_secret_basic"});
    let (status, client) = post(
        &format!("{}/reg", peers.as_url),
        "application/json",
        registration.to_string(),
        None,
    )
    .await;
    assert_eq!(status, 201, "{client}");
    let (id, secret) = (
        client["client_id"].as_str().unwrap(),
        client["client_secret"].as_str().unwrap(),
    );
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{id}:{secret}"))
    );
    let verifier = "w".repeat(50);
    let code = authorize(&peers, id, "mcp:tools", &verifier, &peers.mcp_url).await;
    let mut pairs = vec![
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", REDIRECT),
        ("code_verifier", verifier.as_str()),
        ("resource", peers.mcp_url.as_str()),
    ];
    // Without its secret the client is refused.
    let url = format!("{}/token", peers.as_url);
    let (status, error) = post(
        &url,
        "application/x-www-form-urlencoded",
        form(&pairs),
        None,
    )
    .await;
    assert_eq!(status, 400, "{error}");
    let why = error["error_description"].as_str().unwrap_or_default();
    assert!(why.contains("client authentication"), "{error}");
    let tokens = exchange(&peers, &pairs, Some(&basic)).await;
    let token = tokens["access_token"].as_str().unwrap();
    assert_eq!(call_tool(&peers.mcp_url, token, "whoami").await.status, 200);
    // A code is good once (and oidc-provider then revokes the grant's refresh token).
    let form_body = form(&pairs);
    let (again, error) = post(
        &url,
        "application/x-www-form-urlencoded",
        form_body,
        Some(&basic),
    )
    .await;
    assert_eq!((again, &error["error"]), (400, &json!("invalid_grant")));
    // A token for another resource (audience) is refused by the MCP server.
    let other = "http://127.0.0.1:9/other-mcp";
    let code = authorize(&peers, id, "mcp:tools", &verifier, other).await;
    pairs[1].1 = code.as_str();
    pairs[4].1 = other;
    let elsewhere = exchange(&peers, &pairs, Some(&basic)).await;
    let wrong = elsewhere["access_token"].as_str().unwrap();
    assert_eq!(
        mcp(&peers.mcp_url, Some(wrong), None, initialize())
            .await
            .status,
        401
    );
    // `--no-cors`: not one CORS header, even for a preflight.
    let preflight = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, &url)
        .header("origin", "http://127.0.0.1:8080")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(
        preflight
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_as_pinned_to_one_resource_refuses_another() {
    let options = AuthPeerOptions {
        as_resource: Some("http://127.0.0.1:9/pinned".into()),
        ..AuthPeerOptions::default()
    };
    let Some(peers) = AuthPeers::start(&options) else {
        return;
    };
    let query = form(&[
        ("response_type", "code"),
        ("client_id", "mcpg-public"),
        ("redirect_uri", "http://127.0.0.1:5000/callback"),
        ("scope", "mcp:tools"),
        ("state", "s-9"),
        ("code_challenge", &"c".repeat(43)),
        ("code_challenge_method", "S256"),
        ("resource", &peers.mcp_url),
    ]);
    // The pre-registered native client's loopback redirect matches on any port.
    let browsed = browse(&format!("{}/auth?{query}", peers.as_url), "alice").await;
    assert!(browsed.prompts.is_empty(), "{browsed:?}");
    let back = browsed.redirect;
    assert!(
        back.starts_with("http://127.0.0.1:5000/callback?error=invalid_target"),
        "{back}"
    );
    assert!(back.contains("state=s-9"), "{back}");
}

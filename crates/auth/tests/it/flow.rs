//! The flow driven end to end with scripted answers: no sockets, no sleeps.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use mcpg_auth::url::{parse_query, query_param};
use mcpg_auth::{
    AuthConfig, AuthError, AuthEvent, AuthFlow, AuthRequest, AuthResponse, ClientIdentity, Step,
    Tokens,
};
use mcpg_core::Timestamp;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const MCP: &str = "https://rs.test/mcp";
const AS: &str = "https://as.test";
const T0: Timestamp = Timestamp(5_000);

/// A scripted network: answers by `METHOD url` (query ignored), 404 otherwise.
#[derive(Default)]
struct Net {
    routes: HashMap<String, (u16, String)>,
    seen: Vec<AuthRequest>,
}

impl Net {
    fn on(&mut self, method: &str, url: &str, status: u16, body: Value) -> &mut Self {
        self.routes
            .insert(format!("{method} {url}"), (status, body.to_string()));
        self
    }

    fn answer(&mut self, r: &AuthRequest) -> AuthResponse {
        self.seen.push(r.clone());
        let key = format!("{} {}", r.method, r.url.split('?').next().unwrap());
        let (status, body) = self
            .routes
            .get(&key)
            .cloned()
            .unwrap_or((404, "{\"error\":\"not found\"}".into()));
        AuthResponse::Answered {
            id: r.id,
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body,
        }
    }

    fn urls(&self) -> Vec<String> {
        self.seen.iter().map(|r| r.url.clone()).collect()
    }
}

fn prm(resource: &str, scopes: Option<&[&str]>) -> Value {
    let mut v = json!({"resource": resource, "authorization_servers": [AS]});
    if let Some(s) = scopes {
        v["scopes_supported"] = json!(s);
    }
    v
}

fn as_meta() -> Value {
    json!({
        "issuer": AS,
        "authorization_endpoint": format!("{AS}/authorize"),
        "token_endpoint": format!("{AS}/token"),
        "registration_endpoint": format!("{AS}/register"),
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "authorization_response_iss_parameter_supported": true,
    })
}

fn standard() -> Net {
    let mut n = Net::default();
    n.on(
        "GET",
        "https://rs.test/.well-known/oauth-protected-resource/mcp",
        200,
        prm(MCP, None),
    )
    .on(
        "GET",
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        as_meta(),
    )
    .on(
        "POST",
        &format!("{AS}/register"),
        201,
        json!({"client_id": "cid-1"}),
    )
    .on(
        "POST",
        &format!("{AS}/token"),
        200,
        json!({"access_token": "access-token-0123456789", "token_type": "Bearer",
                   "expires_in": 60, "refresh_token": "refresh-token-0123456789"}),
    );
    n
}

/// The standard network with the AS metadata edited.
fn with_meta(edit: impl FnOnce(&mut Value)) -> Net {
    let mut net = standard();
    let mut meta = as_meta();
    edit(&mut meta);
    net.on(
        "GET",
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        meta,
    );
    net
}

fn config() -> AuthConfig {
    AuthConfig::new(
        MCP,
        "http://localhost:3000/callback",
        ClientIdentity::Auto {
            metadata_url: None,
            client_name: "mcpg test".into(),
        },
    )
}

/// What one run of the flow did.
struct Run {
    events: Vec<AuthEvent>,
    authorize_urls: Vec<String>,
}

impl Run {
    fn tokens(&self) -> Option<&Tokens> {
        self.events.iter().find_map(|e| match e {
            AuthEvent::Authorized(t) => Some(t),
            _ => None,
        })
    }
    fn error(&self) -> Option<&AuthError> {
        self.events.iter().find_map(|e| match e {
            AuthEvent::Failed(e) => Some(e),
            _ => None,
        })
    }
    fn findings(&self) -> Vec<&'static str> {
        self.events
            .iter()
            .filter_map(|e| match e {
                AuthEvent::Exchange(x) => Some(x.findings.iter().map(|f| f.rule)),
                _ => None,
            })
            .flatten()
            .collect()
    }
}

/// Drives `flow` until it stops; `redirect` turns an authorization URL into the
/// redirect the browser would come back with.
fn drive(flow: &mut AuthFlow, net: &mut Net, redirect: &dyn Fn(&str) -> String) -> Run {
    let mut run = Run {
        events: Vec::new(),
        authorize_urls: Vec::new(),
    };
    for _ in 0..100 {
        let mut progressed = false;
        while let Some(r) = flow.poll_request() {
            let a = net.answer(&r);
            flow.handle_response(T0, a);
            progressed = true;
        }
        while let Some(e) = flow.poll_event() {
            progressed = true;
            if let AuthEvent::Authorize { url } = &e {
                run.authorize_urls.push(url.clone());
                flow.handle_redirect(T0, &redirect(url));
            }
            let done = matches!(e, AuthEvent::Authorized(_) | AuthEvent::Failed(_));
            run.events.push(e);
            if done {
                return run;
            }
        }
        if !progressed {
            break;
        }
    }
    run
}

fn param(url: &str, name: &str) -> Option<String> {
    query_param(url, name)
}

/// The AS's redirect: code, the request's state, and `iss` as given.
fn back(iss: Option<&'static str>) -> impl Fn(&str) -> String {
    move |url: &str| {
        let state = param(url, "state").unwrap();
        let mut r =
            format!("http://localhost:3000/callback?code=the-code-0123456789&state={state}");
        if let Some(i) = iss {
            r.push_str(&format!("&iss={}", mcpg_auth::url::encode(i)));
        }
        r
    }
}

fn www(extra: &str) -> String {
    format!(
        r#"Bearer resource_metadata="https://rs.test/.well-known/oauth-protected-resource/mcp"{extra}"#
    )
}

#[test]
fn full_flow_with_dynamic_registration_and_pkce() {
    let mut net = standard();
    let mut flow = AuthFlow::new(config(), [7; 64]);
    flow.handle_challenge(T0, 401, Some(&www(r#", scope="files:read""#)));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    let t = run.tokens().unwrap_or_else(|| panic!("{:?}", run.error()));
    assert_eq!(t.access_token, "access-token-0123456789");
    assert_eq!(t.expires_at, Some(T0.as_millis() + 60_000));
    assert_eq!(t.client_id, "cid-1");
    assert_eq!(t.resource, MCP);
    assert_eq!(
        net.urls(),
        [
            "https://rs.test/.well-known/oauth-protected-resource/mcp",
            "https://as.test/.well-known/oauth-authorization-server",
            "https://as.test/register",
            "https://as.test/token"
        ]
    );
    let reg: Value = serde_json::from_str(net.seen[2].body.as_deref().unwrap()).unwrap();
    assert_eq!(reg["application_type"], "native");
    assert_eq!(
        reg["grant_types"],
        json!(["authorization_code", "refresh_token"])
    );

    let auth = &run.authorize_urls[0];
    assert_eq!(
        param(auth, "code_challenge_method").as_deref(),
        Some("S256")
    );
    assert_eq!(param(auth, "resource").as_deref(), Some(MCP));
    assert_eq!(param(auth, "scope").as_deref(), Some("files:read"));
    assert_eq!(param(auth, "client_id").as_deref(), Some("cid-1"));
    let challenge = param(auth, "code_challenge").unwrap();
    let form = parse_query(net.seen[3].body.as_deref().unwrap());
    let get = |k: &str| form.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let verifier = get("code_verifier").unwrap();
    assert_eq!(
        URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())),
        challenge
    );
    assert_eq!(get("resource").as_deref(), Some(MCP));
    assert_eq!(get("code").as_deref(), Some("the-code-0123456789"));
    assert_eq!(get("client_id").as_deref(), Some("cid-1"));

    // No card shows a token, a code or the verifier.
    for e in &run.events {
        if let AuthEvent::Exchange(x) = e {
            let text = format!("{} {:?}", x.request, x.response);
            for secret in [
                "access-token-0123",
                "refresh-token-0123",
                "the-code-0123",
                &verifier[..20],
            ] {
                assert!(!text.contains(secret), "{secret} in {text}");
            }
        }
    }
}

#[test]
fn discovery_tries_the_well_known_urls_in_order_then_falls_back_to_2025_03_26() {
    let mut net = Net::default();
    net.on(
        "POST",
        "https://rs.test/register",
        201,
        json!({"client_id": "c", "client_secret": "s-0123456789abcdef"}),
    )
    .on(
        "POST",
        "https://rs.test/token",
        200,
        json!({"access_token": "t-0123456789abcdef"}),
    );
    let mut flow = AuthFlow::new(config(), [1; 64]);
    flow.handle_challenge(T0, 401, None);
    let run = drive(&mut flow, &mut net, &back(None));
    assert!(run.tokens().is_some(), "{:?}", run.error());
    assert_eq!(
        net.urls(),
        [
            "https://rs.test/.well-known/oauth-protected-resource/mcp",
            "https://rs.test/.well-known/oauth-protected-resource",
            "https://rs.test/.well-known/oauth-authorization-server",
            "https://rs.test/.well-known/openid-configuration",
            "https://rs.test/register",
            "https://rs.test/token"
        ]
    );
    assert!(run.authorize_urls[0].starts_with("https://rs.test/authorize?"));
    // A secret without a method: client_secret_basic (RFC 7591 default).
    let token = net.seen.last().unwrap();
    assert!(
        token
            .headers
            .iter()
            .any(|(k, v)| k == "Authorization" && v.starts_with("Basic "))
    );
    let f = run.findings();
    assert!(
        f.contains(&"auth-prm-missing") && f.contains(&"auth-as-metadata-missing"),
        "{f:?}"
    );
}

#[test]
fn issuer_with_a_path_never_asks_the_root() {
    let issuer = "https://as.test/tenant1";
    let mut net = standard();
    let mut meta = as_meta();
    meta["issuer"] = json!(issuer);
    net.on(
        "GET",
        MCP.replace("/mcp", "/.well-known/oauth-protected-resource")
            .as_str(),
        200,
        json!({"resource": "https://rs.test", "authorization_servers": [issuer]}),
    )
    .on(
        "GET",
        "https://as.test/tenant1/.well-known/openid-configuration",
        200,
        meta,
    );
    net.routes
        .remove("GET https://rs.test/.well-known/oauth-protected-resource/mcp");
    let mut flow = AuthFlow::new(config(), [2; 64]);
    flow.handle_challenge(T0, 401, Some("Bearer"));
    let run = drive(&mut flow, &mut net, &back(Some(issuer)));
    assert!(run.tokens().is_some(), "{:?}", run.error());
    assert_eq!(
        &net.urls()[2..5],
        [
            "https://as.test/.well-known/oauth-authorization-server/tenant1",
            "https://as.test/.well-known/openid-configuration/tenant1",
            "https://as.test/tenant1/.well-known/openid-configuration"
        ]
    );
    // The resource goes back exactly as published.
    assert_eq!(
        param(&run.authorize_urls[0], "resource").as_deref(),
        Some("https://rs.test")
    );
}

#[test]
fn refuses_a_foreign_resource_a_foreign_issuer_and_no_s256() {
    let mut net = standard();
    net.on(
        "GET",
        "https://rs.test/.well-known/oauth-protected-resource/mcp",
        200,
        prm("https://evil.example.com/mcp", None),
    );
    let mut flow = AuthFlow::new(config(), [3; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert!(matches!(
        run.error(),
        Some(AuthError::ResourceMismatch { .. })
    ));
    assert_eq!(net.seen.len(), 1, "nothing after the PRM");

    let mut net = with_meta(|meta| {
        meta["issuer"] = json!("https://attacker.example.com");
    });
    let mut flow = AuthFlow::new(config(), [3; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert!(matches!(
        run.error(),
        Some(AuthError::IssuerMismatch { .. })
    ));
    assert!(run.findings().contains(&"auth-issuer-mismatch"));
    assert_eq!(
        net.seen.len(),
        2,
        "no endpoint of the poisoned metadata used"
    );

    let mut net = standard();
    let mut meta = as_meta();
    meta.as_object_mut()
        .unwrap()
        .remove("code_challenge_methods_supported");
    net.on(
        "GET",
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        meta,
    );
    let mut flow = AuthFlow::new(config(), [3; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert_eq!(run.error(), Some(&AuthError::NoPkceS256));
}

/// How the browser comes back from an authorization URL.
type Redirect = dyn Fn(&str) -> String;

#[test]
fn redirect_checks_state_and_iss() {
    let cases: [(&Redirect, bool, bool); 5] = [
        (&back(Some(AS)), true, true),
        (&back(Some("https://evil.example.com")), true, false),
        (&back(Some("https://as.test/")), true, false),
        (&back(None), true, false),
        (&back(None), false, true),
    ];
    for (i, (redirect, advertised, ok)) in cases.into_iter().enumerate() {
        let mut net = with_meta(|meta| {
            meta["authorization_response_iss_parameter_supported"] = json!(advertised);
        });
        let mut flow = AuthFlow::new(config(), [4; 64]);
        flow.handle_challenge(T0, 401, Some(&www("")));
        let run = drive(&mut flow, &mut net, redirect);
        assert_eq!(run.tokens().is_some(), ok, "case {i}: {:?}", run.error());
        if !ok {
            assert!(
                matches!(run.error(), Some(AuthError::IssMismatch { .. })),
                "case {i}"
            );
            assert!(
                !net.urls().iter().any(|u| u.ends_with("/token")),
                "case {i}: code sent"
            );
        }
    }
    let mut net = standard();
    let mut flow = AuthFlow::new(config(), [4; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let forged = |_: &str| format!("http://localhost:3000/callback?code=x&state=forged&iss={AS}");
    let run = drive(&mut flow, &mut net, &forged);
    assert_eq!(run.error(), Some(&AuthError::StateMismatch));
}

#[test]
fn step_up_asks_for_the_union_and_stops_at_the_limit() {
    let mut net = standard();
    let mut flow = AuthFlow::new(config(), [5; 64]);
    flow.handle_challenge(T0, 401, Some(&www(r#", scope="mcp:basic""#)));
    let first = drive(&mut flow, &mut net, &back(Some(AS)));
    assert!(first.tokens().is_some());
    let before = net.seen.len();
    flow.handle_challenge(
        T0,
        403,
        Some(&www(r#", error="insufficient_scope", scope="mcp:write""#)),
    );
    let second = drive(&mut flow, &mut net, &back(Some(AS)));
    assert!(second.tokens().is_some(), "{:?}", second.error());
    assert_eq!(
        param(&second.authorize_urls[0], "scope").as_deref(),
        Some("mcp:basic mcp:write")
    );
    assert_eq!(
        net.urls()[before..],
        ["https://as.test/token"],
        "no rediscovery, no new registration"
    );
    assert_ne!(
        param(&first.authorize_urls[0], "code_challenge"),
        param(&second.authorize_urls[0], "code_challenge"),
        "a fresh verifier per authorization"
    );
    flow.handle_challenge(
        T0,
        403,
        Some(&www(r#", error="insufficient_scope", scope="mcp:admin""#)),
    );
    assert!(
        drive(&mut flow, &mut net, &back(Some(AS)))
            .tokens()
            .is_some()
    );
    flow.handle_challenge(
        T0,
        403,
        Some(&www(r#", error="insufficient_scope", scope="mcp:admin""#)),
    );
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert_eq!(run.error(), Some(&AuthError::StepUpLimit(2)));
    assert!(run.authorize_urls.is_empty());
}

#[test]
fn refresh_then_full_flow_when_refused() {
    let mut net = standard();
    let mut flow = AuthFlow::new(config(), [6; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let tokens = drive(&mut flow, &mut net, &back(Some(AS)))
        .tokens()
        .cloned()
        .unwrap();

    let mut fresh = AuthFlow::new(config(), [8; 64]);
    fresh.refresh(T0, tokens.clone());
    let run = drive(&mut fresh, &mut net, &back(Some(AS)));
    assert!(run.authorize_urls.is_empty(), "a refresh needs no browser");
    let form = parse_query(net.seen.last().unwrap().body.as_deref().unwrap());
    assert!(form.contains(&("grant_type".into(), "refresh_token".into())));
    assert!(form.contains(&("refresh_token".into(), "refresh-token-0123456789".into())));
    assert!(form.contains(&("resource".into(), MCP.into())));
    assert!(matches!(run.events.first(), Some(AuthEvent::Exchange(x)) if x.step == Step::Refresh));

    net.on(
        "POST",
        &format!("{AS}/token"),
        400,
        json!({"error": "invalid_grant"}),
    );
    let mut fresh = AuthFlow::new(config(), [9; 64]);
    fresh.refresh(T0, tokens);
    let run = drive(&mut fresh, &mut net, &back(Some(AS)));
    // The refresh was refused: discovery from the top, then a browser leg.
    assert_eq!(run.authorize_urls.len(), 1);
    assert!(matches!(
        run.error(),
        Some(AuthError::TokenRefused { status: 400, .. })
    ));
}

#[test]
fn client_identity_order_pre_registered_cimd_then_none() {
    // Pre-registered, AS takes client_secret_basic only.
    let mut net = standard();
    let mut meta = as_meta();
    meta["token_endpoint_auth_methods_supported"] = json!(["client_secret_basic"]);
    meta.as_object_mut()
        .unwrap()
        .remove("registration_endpoint");
    net.on(
        "GET",
        &format!("{AS}/.well-known/oauth-authorization-server"),
        200,
        meta.clone(),
    );
    let mut cfg = config();
    cfg.identity = ClientIdentity::PreRegistered {
        client_id: "pre".into(),
        client_secret: Some("pre-secret".into()),
    };
    let mut flow = AuthFlow::new(cfg, [1; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert!(run.tokens().is_some());
    let token = net.seen.last().unwrap();
    let basic = base64::engine::general_purpose::STANDARD.encode("pre:pre-secret");
    assert!(
        token
            .headers
            .contains(&("Authorization".into(), format!("Basic {basic}")))
    );
    assert!(!token.body.as_deref().unwrap().contains("client_secret"));

    // Auto without registration or CIMD: the user must bring a client ID.
    let mut flow = AuthFlow::new(config(), [1; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert_eq!(run.error(), Some(&AuthError::NeedsClientId));

    // CIMD when advertised and a metadata URL is set: no registration request.
    let mut net = with_meta(|meta| {
        meta["client_id_metadata_document_supported"] = json!(true);
    });
    let mut cfg = config();
    cfg.identity = ClientIdentity::Auto {
        metadata_url: Some("https://client.example/meta.json".into()),
        client_name: "x".into(),
    };
    let mut flow = AuthFlow::new(cfg, [1; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert!(run.tokens().is_some());
    assert_eq!(
        param(&run.authorize_urls[0], "client_id").as_deref(),
        Some("https://client.example/meta.json")
    );
    assert!(!net.urls().iter().any(|u| u.ends_with("/register")));
}

#[test]
fn a_new_authorization_server_gets_a_new_registration() {
    let mut net = standard();
    let mut flow = AuthFlow::new(config(), [1; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    assert!(
        drive(&mut flow, &mut net, &back(Some(AS)))
            .tokens()
            .is_some()
    );
    let as2 = "https://as2.test";
    let mut meta = as_meta();
    for (k, v) in [
        ("issuer", as2.to_owned()),
        ("authorization_endpoint", format!("{as2}/authorize")),
        ("token_endpoint", format!("{as2}/token")),
        ("registration_endpoint", format!("{as2}/register")),
    ] {
        meta[k] = json!(v);
    }
    net.on(
        "GET",
        "https://rs.test/.well-known/oauth-protected-resource/mcp",
        200,
        json!({"resource": MCP, "authorization_servers": [as2]}),
    )
    .on(
        "GET",
        &format!("{as2}/.well-known/oauth-authorization-server"),
        200,
        meta,
    )
    .on(
        "POST",
        &format!("{as2}/register"),
        201,
        json!({"client_id": "cid-2"}),
    )
    .on(
        "POST",
        &format!("{as2}/token"),
        200,
        json!({"access_token": "as2-token-0123456789"}),
    );
    // The first token had a refresh token: one refresh at AS 1 first, refused.
    net.on(
        "POST",
        &format!("{AS}/token"),
        400,
        json!({"error": "invalid_grant"}),
    );
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(as2)));
    let t = run.tokens().unwrap_or_else(|| panic!("{:?}", run.error()));
    assert_eq!(t.client_id, "cid-2");
    assert_eq!(
        param(&run.authorize_urls[0], "client_id").as_deref(),
        Some("cid-2")
    );
}

#[test]
fn assertion_grants_need_no_browser() {
    let jwt_bearer = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    let mut net = standard();
    let mut cfg = config();
    cfg.identity = ClientIdentity::WorkloadJwt {
        client_id: "workload".into(),
        assertion: "eyJ.workload-assertion.sig".into(),
    };
    let mut flow = AuthFlow::new(cfg, [1; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert!(run.tokens().is_some(), "{:?}", run.error());
    assert!(run.authorize_urls.is_empty());
    let form = parse_query(net.seen.last().unwrap().body.as_deref().unwrap());
    assert!(form.contains(&("grant_type".into(), jwt_bearer.into())));
    assert!(form.contains(&("assertion".into(), "eyJ.workload-assertion.sig".into())));
    assert!(form.contains(&("client_id".into(), "workload".into())));

    let mut net = standard();
    net.on("POST", "https://idp.test/token", 200, json!({"access_token": "the-id-jag-0123456789", "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag"}));
    let mut cfg = config();
    cfg.identity = ClientIdentity::Enterprise {
        client_id: "xaa".into(),
        client_secret: Some("xaa-secret".into()),
        idp_token_endpoint: "https://idp.test/token".into(),
        idp_client_id: "idp-client".into(),
        id_token: "the-id-token-0123456789".into(),
    };
    let mut flow = AuthFlow::new(cfg, [1; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert!(run.tokens().is_some(), "{:?}", run.error());
    let n = net.seen.len();
    let exchange = parse_query(net.seen[n - 2].body.as_deref().unwrap());
    for (k, v) in [
        ("subject_token", "the-id-token-0123456789"),
        ("audience", AS),
        ("resource", MCP),
        (
            "requested_token_type",
            "urn:ietf:params:oauth:token-type:id-jag",
        ),
    ] {
        assert!(
            exchange.contains(&(k.into(), v.into())),
            "{k}: {exchange:?}"
        );
    }
    let grant = parse_query(net.seen[n - 1].body.as_deref().unwrap());
    assert!(grant.contains(&("assertion".into(), "the-id-jag-0123456789".into())));
    // The ID token and the ID-JAG never show on a card.
    for e in &run.events {
        if let AuthEvent::Exchange(x) = e {
            let text = format!("{} {:?}", x.request, x.response);
            assert!(
                !text.contains("the-id-token-0123") && !text.contains("the-id-jag-0123"),
                "{text}"
            );
        }
    }
}

#[test]
fn a_2025_03_26_origin_may_name_its_own_issuer() {
    let mut net = Net::default();
    let mut meta = as_meta();
    meta["issuer"] = json!("https://rs.test/oauth");
    meta["registration_endpoint"] = json!("https://rs.test/oauth/register");
    meta["token_endpoint"] = json!("https://rs.test/oauth/token");
    net.on(
        "GET",
        "https://rs.test/.well-known/oauth-authorization-server",
        200,
        meta,
    )
    .on(
        "POST",
        "https://rs.test/oauth/register",
        201,
        json!({"client_id": "c"}),
    )
    .on(
        "POST",
        "https://rs.test/oauth/token",
        200,
        json!({"access_token": "t-0123456789abcdef"}),
    );
    let mut flow = AuthFlow::new(config(), [1; 64]);
    flow.handle_challenge(T0, 401, Some("Bearer"));
    let run = drive(&mut flow, &mut net, &back(Some("https://rs.test/oauth")));
    assert!(run.tokens().is_some(), "{:?}", run.error());
    assert!(run.findings().contains(&"auth-legacy-issuer-differs"));
}

/// A throwaway P-256 test key (PKCS#8 PEM), used for nothing but this test.
#[cfg(feature = "jwt")]
const TEST_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg2bIgLY/739k9HqDk
0KvQoFlrUdAouH2WiLUF7bkwgY+hRANCAAQx3Y3yNxSo+OJHEyK1WsDJJjyc/YkO
Z09DlVB13LJLuYd/z1FjtoQvtqNsFUFp9wwZoOLZe0JtG1b+sk7XpKAX
-----END PRIVATE KEY-----";

#[test]
fn private_key_jwt_client_credentials() {
    let mut net = with_meta(|meta| {
        meta["grant_types_supported"] = json!(["client_credentials"]);
    });
    let mut cfg = config();
    #[cfg(feature = "jwt")]
    let pem = TEST_KEY.to_owned();
    #[cfg(not(feature = "jwt"))]
    let pem = "unused".to_owned();
    cfg.identity = ClientIdentity::PrivateKeyJwt {
        client_id: "svc".into(),
        private_key_pem: pem,
    };
    let mut flow = AuthFlow::new(cfg, [1; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    if cfg!(not(feature = "jwt")) {
        assert!(matches!(run.error(), Some(AuthError::Unsupported(_))));
        return;
    }
    assert!(run.tokens().is_some(), "{:?}", run.error());
    let form = parse_query(net.seen.last().unwrap().body.as_deref().unwrap());
    let get = |k: &str| form.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    assert_eq!(get("grant_type").as_deref(), Some("client_credentials"));
    let jwt = get("client_assertion").unwrap();
    let claims: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(jwt.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(claims["iss"], "svc");
    assert_eq!(claims["sub"], "svc");
    assert_eq!(claims["aud"], AS);
    assert_eq!(
        claims["iat"],
        T0.as_millis() / 1000,
        "iat from the caller's clock"
    );
    assert_eq!(claims["exp"], T0.as_millis() / 1000 + 300);
}

#[cfg(feature = "jwt")]
#[test]
fn no_dpop_when_only_the_authorization_server_offers_it() {
    // oidc-provider in front of the Python SDK's server: the AS offers DPoP, the
    // resource server challenges with Bearer and publishes no DPoP metadata. A
    // DPoP-bound token would be refused there, so the flow asks for a Bearer one.
    let mut net = with_meta(|meta| meta["dpop_signing_alg_values_supported"] = json!(["ES256"]));
    let mut flow = AuthFlow::new(config(), [3; 64]);
    flow.handle_challenge(T0, 401, Some(&www("")));
    let run = drive(&mut flow, &mut net, &back(Some(AS)));
    assert!(run.tokens().is_some(), "{:?}", run.error());
    assert!(flow.dpop_key().is_none());
    let token_requests: Vec<&AuthRequest> = net
        .seen
        .iter()
        .filter(|r| r.url.ends_with("/token"))
        .collect();
    assert!(!token_requests.is_empty());
    assert!(
        token_requests
            .iter()
            .all(|r| r.headers.iter().all(|(k, _)| k != "DPoP")),
        "no DPoP proof: {token_requests:?}"
    );
}

// DPoP proofs are ES256 JWTs: the `jwt` feature (on for the CLI, off for the page).
#[cfg(feature = "jwt")]
#[test]
fn dpop_proofs_on_token_requests_and_the_nonce_retry() {
    let mut net = with_meta(|meta| meta["dpop_signing_alg_values_supported"] = json!(["ES256"]));
    // The token endpoint wants a nonce first (RFC 9449 §8). The resource server
    // challenges with the DPoP scheme: it takes DPoP-bound tokens.
    let mut flow = AuthFlow::new(config(), [3; 64]);
    flow.handle_challenge(T0, 401, Some(&www("").replacen("Bearer", "DPoP", 1)));
    let mut asked = false;
    let mut run_events = Vec::new();
    for _ in 0..50 {
        if let Some(r) = flow.poll_request() {
            let a = if r.url.ends_with("/token") && !asked {
                asked = true;
                net.seen.push(r.clone());
                AuthResponse::Answered {
                    id: r.id,
                    status: 400,
                    headers: vec![("DPoP-Nonce".into(), "n-1".into())],
                    body: json!({"error": "use_dpop_nonce"}).to_string(),
                }
            } else {
                net.answer(&r)
            };
            flow.handle_response(T0, a);
            continue;
        }
        match flow.poll_event() {
            Some(AuthEvent::Authorize { url }) => flow.handle_redirect(T0, &back(Some(AS))(&url)),
            Some(e) => run_events.push(e),
            None => break,
        }
    }
    assert!(
        run_events
            .iter()
            .any(|e| matches!(e, AuthEvent::Authorized(_))),
        "{run_events:?}"
    );
    let tokens: Vec<&AuthRequest> = net
        .seen
        .iter()
        .filter(|r| r.url.ends_with("/token"))
        .collect();
    assert_eq!(
        tokens.len(),
        2,
        "the token request went again with the nonce"
    );
    let claims = |r: &AuthRequest| -> (Value, Value) {
        let proof = &r.headers.iter().find(|(k, _)| k == "DPoP").unwrap().1;
        let part = |i: usize| -> Value {
            serde_json::from_slice(
                &URL_SAFE_NO_PAD
                    .decode(proof.split('.').nth(i).unwrap())
                    .unwrap(),
            )
            .unwrap()
        };
        (part(0), part(1))
    };
    let (h0, c0) = claims(tokens[0]);
    let (_, c1) = claims(tokens[1]);
    assert_eq!(h0["typ"], "dpop+jwt");
    assert_eq!(h0["jwk"]["kty"], "EC");
    assert!(h0["jwk"].get("d").is_none(), "no private key in the proof");
    assert_eq!(c0["htm"], "POST");
    assert_eq!(c0["htu"], format!("{AS}/token"));
    assert_eq!(c0.get("nonce"), None);
    assert_eq!(c1["nonce"], "n-1");
    assert_ne!(c0["jti"], c1["jti"], "a fresh proof each time");
    let key = flow.dpop_key().unwrap();
    let p = key.proof("POST", "https://rs.test/mcp?x=1", 5, "j", Some("tok"), None);
    let c: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(p.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(c["htu"], "https://rs.test/mcp", "no query in htu");
    assert_eq!(c["ath"], URL_SAFE_NO_PAD.encode(Sha256::digest(b"tok")));
}

#[test]
fn a_token_for_another_audience_is_reported() {
    let jwt = |aud: &str| {
        let payload = URL_SAFE_NO_PAD.encode(json!({"aud": aud, "sub": "u"}).to_string());
        format!("eyJhbGciOiJub25lIn0.{payload}.sig")
    };
    for (aud, reported) in [("https://other.example/mcp", true), (MCP, false)] {
        let mut net = standard();
        net.on(
            "POST",
            &format!("{AS}/token"),
            200,
            json!({"access_token": jwt(aud)}),
        );
        let mut flow = AuthFlow::new(config(), [1; 64]);
        flow.handle_challenge(T0, 401, Some(&www("")));
        let run = drive(&mut flow, &mut net, &back(Some(AS)));
        assert!(
            run.tokens().is_some(),
            "still usable: the resource server decides"
        );
        assert_eq!(
            run.findings().contains(&"auth-wrong-audience"),
            reported,
            "{aud}"
        );
    }
}

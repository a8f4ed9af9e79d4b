//! The targets. Each reads arbitrary bytes as the input its parser takes from a
//! peer and checks what must hold for every input, not just "no panic" where a
//! stronger property is cheap.

use mcpg_auth::{
    AuthConfig, AuthError, AuthEvent, AuthFlow, AuthResponse, ClientIdentity, Exchange, Tokens,
    parse_www_authenticate,
};
use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Message, decode_frame};
use mcpg_core::server::template::matches;
use mcpg_core::validate::{check_uri_template, expand_uri_template, template_variables};
use mcpg_http::sse::{SseError, SseEvent, SseParser};
use mcpg_recording::{
    Recording, decode_file, decode_json, decode_link, encode_file, encode_link, link_from_deflated,
};

/// JSON-RPC frames as a stdio server writes them: one frame per line (a trailing
/// `\r` dropped, non-UTF-8 lines skipped, as the stdio reader does). Every decoded
/// message keeps its exact wire text, and that text decodes to the same body again.
pub fn frame(data: &[u8]) {
    for line in data.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Ok(text) = std::str::from_utf8(line) else {
            continue;
        };
        let frame = decode_frame(text);
        assert_eq!(&*frame.raw, text, "the frame keeps its text");
        assert!(!frame.items.is_empty(), "a frame yields at least one item");
        if !frame.batch {
            assert_eq!(frame.items.len(), 1, "a lone message is one item");
        }
        for message in frame.items.iter().flatten() {
            if !frame.batch {
                assert_eq!(message.raw(), text, "a lone message's raw is the line");
            }
            let again = Message::decode(message.raw())
                .unwrap_or_else(|e| panic!("its own text decodes: {e:?}"));
            assert_eq!(
                again.body(),
                message.body(),
                "the text decodes to the same body"
            );
            let rebuilt = Message::from_value(message.to_value())
                .unwrap_or_else(|e| panic!("its value decodes: {e:?}"));
            assert_eq!(
                rebuilt.body(),
                message.body(),
                "the value gives the same body"
            );
        }
    }
}

/// The largest SSE event the target allows: small, so the bound is reached often.
const SSE_MAX_EVENT: usize = 300;

/// A `text/event-stream` body. The first byte picks a chunk size (1 to 16 bytes):
/// feeding the rest in such chunks must give the same events, the same last event
/// id and retry delay, and an error exactly when feeding it whole does.
pub fn sse(data: &[u8]) {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(first % 16) + 1;
    let mut whole = SseParser::new(SSE_MAX_EVENT);
    let whole_events = whole.feed(body);
    let mut split = SseParser::new(SSE_MAX_EVENT);
    let split_events = feed_chunks(&mut split, body, chunk);
    match (whole_events, split_events) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "the same events however the bytes arrive");
            assert_eq!(whole.last_event_id(), split.last_event_id());
            assert_eq!(whole.retry(), split.retry());
            for e in &a {
                assert!(
                    e.data.len() <= SSE_MAX_EVENT,
                    "an event stays within the bound"
                );
            }
        }
        (Err(SseError::TooLarge { head, .. }), Err(_)) => {
            assert!(
                head.len() <= mcpg_http::sse::HEAD_KEPT,
                "the head kept is bounded"
            );
        }
        (a, b) => panic!(
            "whole and chunked feeding disagree: {:?} vs {:?}",
            a.map(|e| e.len()),
            b.map(|e| e.len())
        ),
    }
    // A reconnection forgets the half-read event but keeps the id and retry delay.
    let (id, retry) = (split.last_event_id().map(str::to_owned), split.retry());
    split.reconnected();
    assert_eq!(split.last_event_id().map(str::to_owned), id);
    assert_eq!(split.retry(), retry);
}

fn feed_chunks(
    parser: &mut SseParser,
    body: &[u8],
    chunk: usize,
) -> Result<Vec<SseEvent>, SseError> {
    let mut events = Vec::new();
    for part in body.chunks(chunk) {
        events.extend(parser.feed(part)?);
    }
    Ok(events)
}

/// A session file or pasted link (`decode_file` takes both), and the same bytes as
/// the JSON a link unpacks to. Whatever decodes survives the round trip: encoded
/// as a link or a file (secrets stripped) and decoded, it is the same session.
pub fn session(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(s) = decode_file(text)
    {
        round_trip(s);
    }
    // Through the link path too, so the fuzzer need not find valid deflate data.
    let packed = miniz_oxide::deflate::compress_to_vec(data, 1);
    let fragment = link_from_deflated(&packed);
    let by_link = decode_link(&fragment);
    let by_json = decode_json(data);
    assert_eq!(
        by_link.is_ok(),
        by_json.is_ok(),
        "a link reads what its JSON says"
    );
    if let Ok(s) = by_link {
        round_trip(s);
    }
}

fn round_trip(mut s: Recording) {
    s.redact();
    let link = encode_link(&s);
    let back = decode_link(&link).unwrap_or_else(|e| panic!("an encoded link decodes: {e:?}"));
    assert!(same_json(&back.to_json(), &s.to_json()), "link round trip");
    let file = encode_file(&s);
    let back = decode_file(&file).unwrap_or_else(|e| panic!("an encoded file decodes: {e:?}"));
    assert!(same_json(&back.to_json(), &s.to_json()), "file round trip");
}

/// Equal JSON, but for the last bits of a float: serde_json without its
/// `float_roundtrip` feature (which would grow the page) may read a number written
/// as `22222222222222995774622` a unit in the last place away from how it reads the
/// shortest form it writes back (found by this target). Integers must be exact.
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if x.is_f64() || y.is_f64() {
                let (x, y) = (
                    x.as_f64().unwrap_or(f64::NAN),
                    y.as_f64().unwrap_or(f64::NAN),
                );
                x == y || (x - y).abs() <= x.abs().max(y.abs()) * 1e-15
            } else {
                x == y
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same_json(vx, vy))
        }
        _ => a == b,
    }
}

/// An RFC 6570 template, then (after the first NUL byte) a URI. The three readers
/// agree on validity; a valid template expanded with plain values matches its own
/// expansion; matching any URI terminates without panicking.
pub fn uri_template(data: &[u8]) {
    let (template, uri) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let (Ok(template), Ok(uri)) = (std::str::from_utf8(template), std::str::from_utf8(uri)) else {
        return;
    };
    let checked = check_uri_template(template);
    let names = template_variables(template);
    let expanded = expand_uri_template(template, |_| Some("v1"));
    assert_eq!(checked.is_ok(), names.is_ok(), "check and variables agree");
    assert_eq!(checked.is_ok(), expanded.is_ok(), "check and expand agree");
    if let Ok(expanded) = &expanded {
        assert!(
            matches(template, expanded).is_some(),
            "{template:?} does not match its own expansion {expanded:?}"
        );
    }
    let _ = matches(template, uri);
}

/// A `WWW-Authenticate` header value: parsing never panics, and a parameter that
/// was found is never longer than the header it came from.
pub fn www_authenticate(data: &[u8]) {
    let Ok(value) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(c) = parse_www_authenticate(value) {
        for field in [
            &c.resource_metadata,
            &c.scope,
            &c.error,
            &c.error_description,
        ]
        .into_iter()
        .flatten()
        {
            assert!(
                field.len() <= value.len(),
                "a parameter is part of the header"
            );
        }
    }
}

/// The resource server and authorization server this target plays.
const RESOURCE: &str = "https://rs.example/mcp";
const REDIRECT: &str = "http://localhost:3000/callback";

/// The OAuth flow driven by a hostile server: the input is NUL-separated parts, the
/// first the 401's `WWW-Authenticate` value, each next one the answer to the flow's
/// next request (`NNN ` status prefix optional, else 200; the rest is the body),
/// or, when the flow sends the user to sign in, what the redirect adds after
/// `code=…&state=…`. Covers the protected resource and authorization server
/// metadata readers, registration and the token answer. The flow must stop, and no
/// secret it obtained may show in a card.
pub fn auth_flow(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let run = run_auth_flow(text);
    // Issue 26: whatever the servers say, the flow fetches and opens only URLs that
    // pass the one URL rule.
    for url in run.request_urls.iter().chain(&run.authorize_urls) {
        assert!(
            mcpg_safe_url::check(url).is_ok(),
            "the flow handed out {url:?}, which breaks the URL rule"
        );
    }
    for t in &run.tokens {
        // `mask` keeps the last 4 characters of a secret of 12 or more; a shorter
        // token, or one with characters JSON escapes, proves nothing here.
        if t.access_token.chars().count() < 16 || t.access_token.contains(['"', '\\']) {
            continue;
        }
        for card in &run.cards {
            assert!(
                !card.request.contains(&t.access_token),
                "the access token shows in a request card"
            );
        }
    }
}

/// What [`run_auth_flow`] saw.
#[derive(Debug, Default)]
pub struct AuthRun {
    /// Every exchange card, in order.
    pub cards: Vec<Exchange>,
    /// Every token set the flow handed out.
    pub tokens: Vec<Tokens>,
    /// Every failure.
    pub failures: Vec<AuthError>,
    /// Every URL the flow sent the user to.
    pub authorize_urls: Vec<String>,
    /// Every URL the flow asked its driver to fetch.
    pub request_urls: Vec<String>,
}

/// Drives the flow through the parts of `text` (see [`auth_flow`]).
pub fn run_auth_flow(text: &str) -> AuthRun {
    let mut parts = text.split('\0');
    let challenge = parts.next().unwrap_or_default();
    let cfg = AuthConfig::new(
        RESOURCE,
        REDIRECT,
        ClientIdentity::Auto {
            metadata_url: None,
            client_name: "fuzz".into(),
        },
    );
    let mut flow = AuthFlow::new(cfg, [7; 64]);
    let now = Timestamp(1_000);
    flow.handle_challenge(now, 401, Some(challenge));
    let mut run = AuthRun::default();
    // Each round consumes a part or ends: the flow cannot spin forever.
    for _ in 0..64 {
        let mut progressed = false;
        while let Some(req) = flow.poll_request() {
            progressed = true;
            run.request_urls.push(req.url.clone());
            let response = match parts.next() {
                Some(part) => {
                    let (status, body) = status_and_body(part);
                    AuthResponse::Answered {
                        id: req.id,
                        status,
                        headers: vec![("content-type".into(), "application/json".into())],
                        body: body.to_owned(),
                    }
                }
                None => AuthResponse::Failed {
                    id: req.id,
                    reason: "no more parts".into(),
                    cors_suspected: false,
                },
            };
            flow.handle_response(now, response);
        }
        while let Some(event) = flow.poll_event() {
            progressed = true;
            match event {
                AuthEvent::Authorize { url } => {
                    let state = mcpg_auth::url::query_param(&url, "state").unwrap_or_default();
                    let extra = parts.next().unwrap_or_default();
                    let back = format!(
                        "{REDIRECT}?code=fuzz-code-0123456789&state={}{extra}",
                        mcpg_auth::url::encode(&state)
                    );
                    run.authorize_urls.push(url);
                    flow.handle_redirect(now, &back);
                }
                AuthEvent::Exchange(card) => run.cards.push(card),
                AuthEvent::Authorized(t) => run.tokens.push(t),
                AuthEvent::Failed(e) => run.failures.push(e),
            }
        }
        if !progressed {
            break;
        }
    }
    run
}

/// `"404 {…}"` → (404, `{…}`); no three-digit prefix → (200, the whole part).
fn status_and_body(part: &str) -> (u16, &str) {
    let digits = part
        .get(..3)
        .filter(|d| d.bytes().all(|b| b.is_ascii_digit()));
    match digits.and_then(|d| d.parse::<u16>().ok()) {
        Some(status) => (status, part[3..].strip_prefix(' ').unwrap_or(&part[3..])),
        None => (200, part),
    }
}

/// A URL from outside: what `check` accepts is https, or http to a loopback host,
/// with no user info, whitespace or control characters, and checking its own
/// serialization again accepts the same URL.
pub fn safe_url(data: &[u8]) {
    let Ok(raw) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(checked) = mcpg_safe_url::check(raw) else {
        return;
    };
    let url = checked.url();
    match url.scheme() {
        "https" => {}
        "http" => assert!(
            checked.is_loopback(),
            "plain http only to loopback: {raw:?}"
        ),
        other => panic!("scheme {other:?} accepted: {raw:?}"),
    }
    assert!(
        url.username().is_empty() && url.password().is_none(),
        "userinfo: {raw:?}"
    );
    assert!(url.host().is_some(), "no host: {raw:?}");
    let text = checked.as_str();
    assert!(
        !text.chars().any(|c| c.is_control() || c.is_whitespace()),
        "whitespace in {text:?}"
    );
    let again =
        mcpg_safe_url::check(text).unwrap_or_else(|e| panic!("a checked URL passes again: {e:?}"));
    assert_eq!(again, checked, "checking is idempotent: {raw:?}");
    let _ = checked.host_unicode();
    if let Ok(a) = checked.host_ascii().parse::<std::net::Ipv4Addr>()
        && checked.is_loopback()
    {
        assert_eq!(
            mcpg_safe_url::ip::private_class(a.into()),
            Some("loopback"),
            "a loopback URL's address is loopback"
        );
    }
}

//! The URL's checks below MCP: name, TCP, TLS, the POSTs, CORS, sign-in
//! discovery; then the session checks over Streamable HTTP.

use std::net::SocketAddr;
use std::time::Duration;

use mcpg_doctor::http::{self, ACCEPT, CorsSeen, PREFLIGHT_HEADERS, PostSeen};
use mcpg_doctor::network::{self, TcpFailure, TlsSeen};
use mcpg_doctor::{Check, Report, Verdict};
use mcpg_transport::{Driver, DriverConfig, HttpConfig, HttpTransport};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use super::tls;
use crate::exit::Failure;

/// Runs the URL's checks.
pub async fn check(
    url: &str,
    origin: &str,
    headers: Vec<(String, String)>,
    timeout: Duration,
) -> Result<Report, Failure> {
    let parsed = reqwest::Url::parse(url)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .ok_or_else(|| Failure::usage(format!("{url:?} is not an http(s) URL")))?;
    let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
        return Err(Failure::usage(format!("{url:?} names no host")));
    };
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let mut report = Report::new();
    let after_net = &Check::URL[1..];

    // Name resolution.
    let addrs: Result<Vec<SocketAddr>, String> =
        match tokio::time::timeout(timeout, tokio::net::lookup_host((host.as_str(), port))).await {
            Ok(Ok(a)) => Ok(a.collect()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {} s", timeout.as_secs_f64())),
        };
    let shown: Result<Vec<String>, String> = addrs.as_ref().map_err(Clone::clone).map(|a| {
        let mut ips: Vec<String> = a.iter().map(|s| s.ip().to_string()).collect();
        ips.dedup();
        ips
    });
    report.push(network::resolve(
        &host,
        shown.as_deref().map_err(String::as_str),
    ));
    let Some(addrs) = addrs.ok().filter(|a| !a.is_empty()) else {
        report.skip_rest(after_net, "the host name did not resolve");
        return Ok(report);
    };

    // TCP, to each address until one answers.
    let mut tcp = Err(TcpFailure::Other("no address".into()));
    for a in &addrs {
        tcp = connect(*a, timeout).await;
        if tcp.is_ok() {
            break;
        }
    }
    report.push(network::tcp(
        &format!("{host}:{port}"),
        tcp.as_ref().map(|_| ()),
    ));
    if tcp.is_err() {
        report.skip_rest(&Check::URL[2..], "no TCP connection");
        return Ok(report);
    }

    // TLS and the POST: one request shows both.
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .build()
        .map_err(|e| Failure::transport(format!("could not set up the HTTP client: {e}")))?;
    let extra = header_map(&headers)?;
    let https = parsed.scheme() == "https";
    let post = send_post(&client, url, &extra, ACCEPT).await;
    match &post {
        Ok(_) if https => report.push(network::tls(&host, &TlsSeen::Valid)),
        Ok(_) => report.push(network::tls(&host, &TlsSeen::NotUsed)),
        Err(e) => match tls::problem(e) {
            Some(p) => {
                report.push(network::tls(&host, &TlsSeen::Failed(p)));
                report.skip_rest(&Check::URL[3..], "the TLS handshake failed");
                return Ok(report);
            }
            None if https => report.push(mcpg_doctor::Finding::skip(
                Check::Tls,
                "the request failed before TLS could be judged",
            )),
            None => report.push(network::tls(&host, &TlsSeen::NotUsed)),
        },
    }
    let post = match post {
        Ok(p) => p,
        Err(e) => {
            report.push(mcpg_doctor::Finding::fail(
                Check::Post,
                format!("the POST failed: {}", root_cause(&e)),
                "Check that the server speaks HTTP on this port and path.",
            ));
            report.skip_rest(&Check::URL[4..], "the POST got no HTTP answer");
            return Ok(report);
        }
    };
    report.push(http::post(&post));
    match send_post(&client, url, &extra, "application/json").await {
        Ok(narrow) => report.push(http::accept(&post, &narrow)),
        Err(e) => report.push(mcpg_doctor::Finding::skip(
            Check::Accept,
            format!("the second POST failed: {}", root_cause(&e)),
        )),
    }
    report.push(match preflight(&client, url, origin).await {
        Ok(seen) => http::cors(url, origin, &seen),
        Err(e) => mcpg_doctor::Finding::warn(
            Check::Cors,
            format!("the preflight from {origin} failed: {}", root_cause(&e)),
            http::relay_fix(url),
        ),
    });
    let refused = (post.status == 401 || (post.status == 403 && post.www_authenticate.is_some()))
        .then_some(&post);
    let cached = cached_login(url, &headers)?;
    let signin = match refused {
        Some(p) => {
            let mut seen = super::signin::discover(url, p, timeout).await;
            seen.cached_login = cached.is_some();
            Some(seen)
        }
        None => None,
    };
    report.push(mcpg_doctor::auth::discovery(url, signin.as_ref()));
    if report.get(Check::Post).map(|f| f.verdict) == Some(Verdict::Fail) {
        report.skip_rest(&Check::SESSION, "the POST of an MCP request failed");
        return Ok(report);
    }
    let open = |cfg: DriverConfig| {
        let mut http = HttpConfig::new(url);
        http.transport = HttpTransport::Auto;
        http.headers = headers.clone();
        http.auth = cached.clone();
        Driver::http(http, cfg).map_err(Failure::from)
    };
    super::session::check(&mut report, &open, timeout).await;
    Ok(report)
}

/// The OAuth set-up a command would use for `url` with `mcpg auth login`'s
/// cached tokens (refreshed when expired, never a new login), unless the headers
/// carry an `Authorization` of their own or no login is cached.
fn cached_login(
    url: &str,
    headers: &[(String, String)],
) -> Result<Option<mcpg_transport::AuthOptions>, Failure> {
    use clap::{Args, FromArgMatches};
    let own = headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("authorization"));
    // The connection flags of `--url URL` and nothing else, as clap fills them.
    let conn = crate::args::Connection::augment_args(clap::Command::new("doctor"))
        .try_get_matches_from(["doctor", "--url", url])
        .and_then(|m| crate::args::Connection::from_arg_matches(&m))
        .map_err(|e| Failure::usage(e.to_string()))?;
    Ok(crate::auth::prepare(&conn, url, own, false)?.map(|p| p.options))
}

async fn connect(addr: SocketAddr, timeout: Duration) -> Result<(), TcpFailure> {
    use std::io::ErrorKind;
    match tokio::time::timeout(timeout, tokio::net::TcpStream::connect(addr)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(match e.kind() {
            ErrorKind::ConnectionRefused => TcpFailure::Refused,
            ErrorKind::TimedOut => TcpFailure::TimedOut,
            ErrorKind::HostUnreachable | ErrorKind::NetworkUnreachable => TcpFailure::Unreachable,
            _ => TcpFailure::Other(e.to_string()),
        }),
        Err(_) => Err(TcpFailure::TimedOut),
    }
}

/// The `--header` / `--bearer-env` headers, for the POSTs (never the preflight:
/// a browser's carries none).
fn header_map(headers: &[(String, String)]) -> Result<HeaderMap, Failure> {
    let mut map = HeaderMap::new();
    for (k, v) in headers {
        let name = HeaderName::from_bytes(k.as_bytes())
            .map_err(|_| Failure::usage(format!("--header: {k:?} is not a header name")))?;
        let value = HeaderValue::from_str(v).map_err(|_| {
            Failure::usage(format!("--header {k}: the value is not a header value"))
        })?;
        map.insert(name, value);
    }
    Ok(map)
}

/// POSTs an `initialize` request with `accept`; the body is not read (an SSE
/// answer may stay open), and a session it opened is ended.
async fn send_post(
    client: &reqwest::Client,
    url: &str,
    extra: &HeaderMap,
    accept: &str,
) -> Result<PostSeen, reqwest::Error> {
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": mcpg_core::ProtocolVersion::LATEST_WITH_INITIALIZE.as_str(),
            "capabilities": {},
            "clientInfo": {"name": "mcpg-doctor", "version": env!("CARGO_PKG_VERSION")}
        }
    });
    let resp = client
        .post(url)
        .headers(extra.clone())
        .header("accept", accept)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await?;
    let h = resp.headers();
    let text = |name: &str| h.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let seen = PostSeen {
        status: resp.status().as_u16(),
        content_type: text("content-type"),
        location: text("location"),
        www_authenticate: text("www-authenticate"),
    };
    let session = text("mcp-session-id");
    drop(resp);
    if let Some(id) = session {
        // Ending the session is courtesy; a server that refuses it keeps one idle session.
        let _ = client
            .delete(url)
            .headers(extra.clone())
            .header("mcp-session-id", id)
            .send()
            .await;
    }
    Ok(seen)
}

/// The CORS preflight a page at `origin` sends before its first POST.
async fn preflight(
    client: &reqwest::Client,
    url: &str,
    origin: &str,
) -> Result<CorsSeen, reqwest::Error> {
    let resp = client
        .request(reqwest::Method::OPTIONS, url)
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", PREFLIGHT_HEADERS)
        .send()
        .await?;
    let h = resp.headers();
    let text = |name: &str| h.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    Ok(CorsSeen {
        status: resp.status().as_u16(),
        allow_origin: text("access-control-allow-origin"),
        allow_methods: text("access-control-allow-methods"),
        allow_headers: text("access-control-allow-headers"),
    })
}

/// The innermost cause of a failed request, in its own words.
fn root_cause(e: &reqwest::Error) -> String {
    let mut root: &dyn std::error::Error = e;
    while let Some(next) = root.source() {
        root = next;
    }
    if e.is_timeout() {
        "timed out".to_owned()
    } else {
        root.to_string()
    }
}

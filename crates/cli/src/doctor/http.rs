//! The URL's checks below MCP: name, TCP, TLS, the POSTs, CORS, sign-in
//! discovery; then the session checks over Streamable HTTP.

use std::time::Duration;

use mcpg_doctor::Report;
use mcpg_transport::{Driver, DriverConfig, HttpConfig, HttpTransport};

use crate::exit::Failure;

/// Runs the URL's checks.
pub async fn check(
    url: &str,
    _origin: &str,
    headers: Vec<(String, String)>,
    timeout: Duration,
) -> Result<Report, Failure> {
    let mut report = Report::new();
    let open = |cfg: DriverConfig| {
        let mut http = HttpConfig::new(url);
        http.transport = HttpTransport::Auto;
        http.headers = headers.clone();
        Driver::http(http, cfg).map_err(Failure::from)
    };
    super::session::check(&mut report, &open, timeout).await;
    Ok(report)
}

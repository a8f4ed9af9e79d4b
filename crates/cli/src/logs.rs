//! `--log-level`: ask the server for log messages and print each one to stderr
//! on one line (`log LEVEL LOGGER: DATA`), escaped for the terminal.

use mcpg_core::model::{LogMessage, LoggingLevel};
use mcpg_transport::{Driver, Update};
use serde_json::Value;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::task::JoinHandle;

use crate::escape;
use crate::exit::Failure;

/// Starts printing the server's log messages, connects and sets the level. A
/// server that refuses the level (no `logging` capability) gets one warning
/// line and the command goes on without log messages.
pub async fn start(d: &Driver, level: LoggingLevel) -> Result<JoinHandle<()>, Failure> {
    // Watch before connecting: a server may log during the handshake.
    let updates = d.updates()?;
    let printer = tokio::spawn(print(updates));
    d.connect().await?;
    if let Err(e) = d.set_log_level(level).await {
        let why = escape::line(&e.to_string());
        eprintln!("mcpg: warning: no log messages: {why}");
    }
    Ok(printer)
}

async fn print(mut updates: UnboundedReceiver<Update>) {
    while let Some(u) = updates.recv().await {
        if let Update::Log(m) = u {
            eprintln!("{}", line(&m));
        }
    }
}

/// `log warning db: connection lost` (no logger: `log warning: …`); data that is
/// not a string is printed as compact JSON.
pub fn line(m: &LogMessage) -> String {
    let data = match &m.data {
        Value::String(s) => escape::line(s),
        other => other.to_string(),
    };
    match &m.logger {
        Some(l) => format!("log {} {}: {data}", m.level.as_str(), escape::line(l)),
        None => format!("log {}: {data}", m.level.as_str()),
    }
}

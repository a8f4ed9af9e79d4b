//! `mcpg demo`: the demo server over stdio. Nothing but MCP goes to stdout.

use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_demo::DemoServer;
use tokio::io::{AsyncWriteExt, BufReader, Stdout};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};

use crate::child::read_line;

/// Longest line read from stdin; longer ones are skipped (they cannot be answered).
const MAX_LINE: usize = 32 << 20;

/// Runs the demo server on stdin/stdout until stdin closes.
pub async fn run_demo_stdio() -> std::io::Result<()> {
    let start = Instant::now();
    let now = move || Timestamp::from_millis(millis(start.elapsed()));
    // Lines come through a task: reading a line is not cancel-safe, and the loop
    // below must also wake for the slow tool's timer.
    let (tx, mut rx) = mpsc::channel::<String>(16);
    let reader = tokio::spawn(async move {
        let mut r = BufReader::new(tokio::io::stdin());
        while let Ok(Some(line)) = read_line(&mut r, MAX_LINE).await {
            if line.cut_from.is_some() {
                continue;
            }
            let text = String::from_utf8_lossy(&line.bytes).into_owned();
            if tx.send(text).await.is_err() {
                break;
            }
        }
    });
    let mut server = DemoServer::new();
    let mut out = tokio::io::stdout();
    let result = loop {
        if let Err(e) = transmit(&mut server, &mut out).await {
            break Err(e);
        }
        let wake = server
            .poll_timeout()
            .map(|t| start + Duration::from_millis(t.as_millis()));
        tokio::select! {
            line = rx.recv() => match line {
                Some(text) if !text.trim().is_empty() => server.handle_text(now(), &text),
                Some(_) => {}
                None => break Ok(()),
            },
            () = async { if let Some(at) = wake { sleep_until(at).await } }, if wake.is_some() => {
                server.handle_timeout(now());
            }
        }
    };
    reader.abort();
    result
}

/// Writes every pending message, one per line, then flushes.
async fn transmit(server: &mut DemoServer, out: &mut Stdout) -> std::io::Result<()> {
    let mut wrote = false;
    while let Some(msg) = server.poll_transmit() {
        let mut line = msg.raw().replace(['\n', '\r'], " ");
        line.push('\n');
        out.write_all(line.as_bytes()).await?;
        wrote = true;
    }
    if wrote {
        out.flush().await?;
    }
    Ok(())
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

//! The relay loop of one WebSocket: frames to stdin lines, stdout lines to frames,
//! until either side ends, the connection idles out, or the bridge shuts down.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::{Instant, sleep_until, timeout};

use super::close::{
    GOING_AWAY, NORMAL, POLICY, SERVER_ERROR, TOO_BIG, UNSUPPORTED, fit_reason, frame,
};
use crate::child::{self, InputError, Out, Running};
use crate::config::ServerSpec;
use crate::events::{Channel, SideEvent};
use crate::state::AppState;

/// How long to wait for the page's answer to our close frame.
const CLOSE_HANDSHAKE: Duration = Duration::from_secs(2);

/// Why the relay stops.
enum End {
    /// The page closed or vanished: nothing more to tell it.
    PeerGone,
    /// We close, with this code and reason; `report` also goes to the side channel.
    Close {
        code: u16,
        reason: String,
        report: bool,
    },
}

fn close(code: u16, reason: impl Into<String>, report: bool) -> End {
    End::Close {
        code,
        reason: reason.into(),
        report,
    }
}

/// Starts the server and relays until the end; the server is stopped and reaped
/// (by its supervisor) when `running` is dropped at the end of this function.
pub(crate) async fn run(
    mut socket: WebSocket,
    st: AppState,
    spec: ServerSpec,
    channel: Option<Arc<Channel>>,
    slot: OwnedSemaphorePermit,
) {
    let limits = st.config().limits.clone();
    let emit = |ev: SideEvent| {
        if let Some(c) = &channel {
            c.push(ev);
        }
    };
    let mut running = match child::spawn(&spec, &limits, st.hidden_env(), channel.clone(), slot) {
        Ok(r) => r,
        Err(e) => {
            let message = format!("could not start server {:?}: {e}", spec.name);
            emit(SideEvent::Error {
                message: message.clone(),
            });
            finish(&mut socket, SERVER_ERROR, &message).await;
            return;
        }
    };
    emit(SideEvent::Spawned {
        server: spec.name.clone(),
        pid: running.pid,
    });
    let end = relay(
        &mut socket,
        &st,
        &mut running,
        limits.max_message_bytes,
        limits.idle_seconds,
    )
    .await;
    if let End::Close {
        code,
        reason,
        report,
    } = end
    {
        if report {
            emit(SideEvent::Error {
                message: reason.clone(),
            });
        }
        finish(&mut socket, code, &reason).await;
    }
}

async fn relay(
    socket: &mut WebSocket,
    st: &AppState,
    running: &mut Running,
    max: usize,
    idle_seconds: u64,
) -> End {
    let idle = Duration::from_secs(idle_seconds);
    let mut deadline = Instant::now() + idle;
    let shutdown = st.shutdown_signal();
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => {
                return close(GOING_AWAY, "the bridge is shutting down", true);
            }
            _ = sleep_until(deadline) => {
                return close(
                    NORMAL,
                    format!("closed after {idle_seconds} s without traffic (the bridge's idle limit)"),
                    true,
                );
            }
            msg = socket.recv() => {
                deadline = Instant::now() + idle;
                match msg {
                    Some(Ok(Message::Text(text))) => {
                        if text.len() > max {
                            return close(
                                TOO_BIG,
                                format!("message of {} bytes refused: the bridge's limit is {max} bytes", text.len()),
                                true,
                            );
                        }
                        match running.send_line(text.as_str().to_owned()) {
                            Ok(()) => {}
                            Err(InputError::Full) => {
                                return close(POLICY, "the server is not reading its input; closing", true);
                            }
                            // The server is going away; its exit arrives on `output`.
                            Err(InputError::Closed) => {}
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        return close(UNSUPPORTED, "binary frames are not MCP: send JSON-RPC as text frames", true);
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    Some(Ok(Message::Close(_))) | None => return End::PeerGone,
                    Some(Err(e)) => {
                        // Only the backstop cap gets here with an oversized message;
                        // anything else is a broken connection.
                        if over_capacity(e) {
                            return close(TOO_BIG, format!("message refused: the bridge's limit is {max} bytes"), true);
                        }
                        return End::PeerGone;
                    }
                }
            }
            out = running.output.recv() => match out {
                Some(Out::Line(line)) => {
                    deadline = Instant::now() + idle;
                    // The line's budget share is returned once it is sent (dropped here).
                    if socket.send(Message::Text(line.text.into())).await.is_err() {
                        return End::PeerGone;
                    }
                }
                Some(Out::Exit(info)) => {
                    let code = if info.code == Some(0) { NORMAL } else { SERVER_ERROR };
                    // The exit itself is already on the side channel as an `exit` event.
                    return close(code, info.text, false);
                }
                None => return close(SERVER_ERROR, "the server's relay stopped", true),
            }
        }
    }
}

/// Sends a close frame and waits (briefly) for the page's answer, so the reason is
/// delivered rather than lost in a reset connection.
async fn finish(socket: &mut WebSocket, code: u16, reason: &str) {
    if socket.send(frame(code, &fit_reason(reason))).await.is_err() {
        return;
    }
    let _ = timeout(CLOSE_HANDSHAKE, async {
        while let Some(Ok(msg)) = socket.recv().await {
            if matches!(msg, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Whether a read failed on tungstenite's size cap (its `Capacity` error: a message or
/// frame over the backstop), told by the error's type, not its words.
fn over_capacity(e: axum::Error) -> bool {
    e.into_inner()
        .downcast::<tungstenite::Error>()
        .is_ok_and(|e| matches!(*e, tungstenite::Error::Capacity(_)))
}

//! Filling in server messages that a link left out (see [`crate::Recording::elide_received`]),
//! by running the same deterministic server again and checking each fingerprint.

use crate::doc::{Direction, Recording, fingerprint};
use crate::validate::LinkError;

/// Re-runs a deterministic server to restore elided received messages.
///
/// `server(at_ms, sent)` is called for every record in order: with `Some(text)` for a
/// sent message (deliver it, return what the server sends in reply), and with `None`
/// before a received record (advance the server's clock to `at_ms`, return anything it
/// sends on its own, e.g. progress). Each elided record takes the next produced message,
/// whose fingerprint must match; stored records must match too, so the regenerated
/// run is known to be the recorded one.
pub fn rehydrate_with(
    session: &mut Recording,
    mut server: impl FnMut(u64, Option<&str>) -> Vec<String>,
) -> Result<(), LinkError> {
    let mut queue: std::collections::VecDeque<String> = Default::default();
    for (i, w) in session.wire.iter_mut().enumerate() {
        match w.direction {
            Direction::Sent => {
                let text = w
                    .text
                    .as_deref()
                    .ok_or_else(|| LinkError::Invalid(format!("sent message {i} has no text")))?;
                queue.extend(server(w.at_ms, Some(text)));
            }
            Direction::Received => {
                queue.extend(server(w.at_ms, None));
                let produced = queue
                    .pop_front()
                    .ok_or_else(|| mismatch(i, "the server said nothing"))?;
                match (&w.text, &w.hash) {
                    (Some(t), _) if *t != produced => {
                        return Err(mismatch(i, "it said something else"));
                    }
                    (Some(_), _) => {}
                    (None, Some(h)) if *h == fingerprint(&produced) => {
                        w.text = Some(produced);
                        w.hash = None;
                    }
                    _ => {
                        return Err(mismatch(
                            i,
                            "its message does not match the recorded fingerprint",
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

fn mismatch(i: usize, what: &str) -> LinkError {
    LinkError::Invalid(format!(
        "message {i} cannot be regenerated: {what}; the session was probably recorded with another version of the demo server"
    ))
}

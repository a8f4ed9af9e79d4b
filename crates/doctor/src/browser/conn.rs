//! One connection of the session checks: the core's client over the sans-IO HTTP
//! machine, as the page's own connection is, with the frames it carried.

use std::collections::HashMap;

use mcpg_core::Timestamp;
use mcpg_core::client::{Client, ClientConfig, GenerationMode};
use mcpg_http::{HttpConfig, HttpEvent, HttpMachine};
use mcpg_net::ReqId;

/// One connection: the client, its HTTP machine, the frames it carried, and the
/// run's request ids for the machine's.
#[derive(Debug)]
pub(super) struct Conn {
    /// The core's client.
    pub(super) client: Client,
    /// Its Streamable HTTP machine.
    pub(super) machine: HttpMachine,
    /// The frames it carried: `(sent by the client, text)`.
    pub(super) wire: Vec<(bool, String)>,
    /// The run's request ids, for the machine's.
    pub(super) ids: HashMap<ReqId, ReqId>,
}

impl Conn {
    /// A connection to `url` whose handshake is `mode`'s, already asked for.
    pub(super) fn new(url: &str, now: Timestamp, mode: GenerationMode) -> Conn {
        let mut http = HttpConfig::new(url);
        // No standing GET stream: the doctor asks and reads the answers only.
        http.listen = false;
        let mut client = Client::new(ClientConfig {
            mode,
            ..ClientConfig::default()
        });
        client.connect(now);
        Conn {
            client,
            machine: HttpMachine::new(http),
            wire: Vec::new(),
            ids: HashMap::new(),
        }
    }

    /// Moves frames between the client and the machine until both are idle.
    pub(super) fn pump(&mut self, now: Timestamp) {
        loop {
            if let Some(out) = self.client.poll_transmit() {
                self.machine.send(now, out);
            } else if let Some(ev) = self.machine.poll_event() {
                match ev {
                    HttpEvent::Frame(text) => self.client.handle_text(now, &text),
                    HttpEvent::NotUtf8(bytes) => self.client.handle_bytes(now, &bytes),
                    HttpEvent::Oversized {
                        request,
                        size,
                        limit,
                        head,
                    } => self
                        .client
                        .handle_oversized_answer(now, &request, size, limit, &head),
                    HttpEvent::SendFailed { id, failure } => {
                        self.client.handle_send_failed(now, &id, failure);
                    }
                    HttpEvent::Closed(why) => self.client.handle_closed(now, &why),
                    // Not held (`hold_unauthorized` is off): the request fails with
                    // its status, which the handshake's judging reads.
                    HttpEvent::Notice(_) | HttpEvent::Unauthorized { .. } => {}
                }
            } else {
                return;
            }
        }
    }
}

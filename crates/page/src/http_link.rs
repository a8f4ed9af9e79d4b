//! Streamable HTTP links: one `mcpg_http::HttpMachine` per connection owns every
//! protocol decision (headers, status mapping, SSE parsing, resuming, the GET stream,
//! cancellation, the closing DELETE). The driver turns its requests and aborts into
//! outputs, hands it what the shell's fetches did, and maps its events to the core.
//! A replaced connection's machine lives on until its DELETE is answered, so that
//! answer is not mistaken for a stray input of the new connection.

use mcpg_net::{HttpEvent, NetEvent, NetFailure};

use crate::input::ConnId;
use crate::links::{HttpLink, Link};
use crate::output::Output;
use crate::page::Page;
use crate::view::{Notice, ViewChange};

impl Page {
    /// What the network did for a request of connection `conn` (current or closing).
    pub(crate) fn http_step(&mut self, conn: ConnId, event: NetEvent) {
        let now = self.now;
        if conn != self.conn {
            let Some(m) = self.closing.get_mut(&conn) else {
                self.note(format!(
                    "ignored: an HTTP answer arrived for connection #{conn}, which was replaced by #{}",
                    self.conn
                ));
                return;
            };
            m.handle_net(now, event);
            self.drain_closing(conn);
            return;
        }
        let Link::Http(link) = &mut self.link else {
            self.note(format!(
                "ignored: an HTTP answer arrived for connection #{conn}, which is not an HTTP link"
            ));
            return;
        };
        // The browser cannot tell "unreachable" from "blocked by CORS"; on a direct
        // cross-origin URL the CORS block is the likely one, so the page says so.
        let cors = match (&event, &link.cors_url) {
            (NetEvent::Failed(_, NetFailure::Unreachable(_)), Some(url)) => Some(url.clone()),
            _ => None,
        };
        link.machine.handle_net(now, event);
        if let Some(url) = cors {
            self.cors_notice(url);
        }
    }

    /// Moves the current HTTP link's requests, aborts and events along.
    pub(crate) fn drain_http(&mut self) -> bool {
        let conn = self.conn;
        let mut moved = false;
        loop {
            let Link::Http(link) = &mut self.link else {
                return moved;
            };
            let m = &mut link.machine;
            if let Some(request) = m.poll_request() {
                self.output(Output::Http { conn, request });
            } else if let Some(req) = m.poll_abort() {
                self.output(Output::AbortHttp { conn, req });
            } else if let Some(ev) = m.poll_event() {
                self.http_event(ev);
            } else {
                return moved;
            }
            moved = true;
        }
    }

    fn http_event(&mut self, ev: HttpEvent) {
        let now = self.now;
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
            HttpEvent::Notice(text) => self.note(text),
            HttpEvent::Closed(why) => self.client.handle_closed(now, &why),
            HttpEvent::Unauthorized {
                status,
                www_authenticate,
            } => self.unauthorized(status, www_authenticate),
        }
    }

    /// Closes the current HTTP link: its fetches are aborted and the session is
    /// DELETEd; the machine is kept until that is answered.
    pub(crate) fn close_http(&mut self, mut link: HttpLink) {
        let conn = self.conn;
        link.machine.close(self.now);
        self.closing.insert(conn, link.machine);
        self.drain_closing(conn);
    }

    /// Executes a closing machine's requests and aborts; once it closed, the shell
    /// drops the connection. Its other events belong to a session nobody shows.
    fn drain_closing(&mut self, conn: ConnId) {
        let mut closed = false;
        let mut outs = Vec::new();
        if let Some(m) = self.closing.get_mut(&conn) {
            while let Some(request) = m.poll_request() {
                outs.push(Output::Http { conn, request });
            }
            while let Some(req) = m.poll_abort() {
                outs.push(Output::AbortHttp { conn, req });
            }
            while let Some(ev) = m.poll_event() {
                closed |= matches!(ev, HttpEvent::Closed(_));
            }
        }
        for out in outs {
            self.output(out);
        }
        if closed {
            self.closing.remove(&conn);
            self.output(Output::CloseLink { conn });
        }
    }

    /// Time passed for the current HTTP link and the closing ones.
    pub(crate) fn http_timeout(&mut self) {
        let now = self.now;
        if let Link::Http(link) = &mut self.link
            && link.machine.poll_timeout().is_some_and(|t| t <= now)
        {
            link.machine.handle_timeout(now);
        }
        let due: Vec<ConnId> = self
            .closing
            .iter()
            .filter(|(_, m)| m.poll_timeout().is_some_and(|t| t <= now))
            .map(|(c, _)| *c)
            .collect();
        for conn in due {
            if let Some(m) = self.closing.get_mut(&conn) {
                m.handle_timeout(now);
            }
            self.drain_closing(conn);
        }
    }

    /// The earliest deadline of the HTTP machines.
    pub(crate) fn http_deadline(&self) -> Option<mcpg_core::Timestamp> {
        let current = match &self.link {
            Link::Http(link) => link.machine.poll_timeout(),
            _ => None,
        };
        self.closing
            .values()
            .filter_map(|m| m.poll_timeout())
            .chain(current)
            .min()
    }

    fn cors_notice(&mut self, url: String) {
        // The advice depends on the bridge's remotes, which the shell knows: the notice
        // keeps the URL and the shell works the advice out when it is shown.
        self.emit(ViewChange::Notice(Some(Notice {
            text: format!(
                "The browser blocked the request to {url}. This is most likely CORS: the server does not send Access-Control-Allow-Origin, so a web page may not call it directly (or the server is not reachable)."
            ),
            relay: None,
            blocked_url: Some(url),
        })));
    }
}

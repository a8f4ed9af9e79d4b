//! Holding messages the server refused for want of authorization, so the driver
//! can run the OAuth flow (`mcpg-auth`) and re-send them with a token instead of
//! failing them. Only with [`crate::HttpConfig::hold_unauthorized`].

use mcpg_core::Timestamp;
use mcpg_core::client::SendFailure;
use mcpg_core::jsonrpc::{Body, RequestId};

use crate::machine::{AuthHold, Kind};
use crate::{HttpEvent, HttpMachine, ReqId};

impl HttpMachine {
    /// From now on every request carries `Authorization: Bearer <token>` (or none).
    /// The token never appears in a notice or event.
    pub fn set_bearer(&mut self, token: Option<String>) {
        self.bearer = token;
    }

    /// Whether messages are held for authorization.
    pub fn is_holding(&self) -> bool {
        self.auth_hold.is_some()
    }

    /// Starts holding every later message without a refusal (the driver refreshes
    /// an expired token first); ends with [`HttpMachine::resume`] or
    /// [`HttpMachine::give_up`]. No event is emitted.
    pub fn hold(&mut self) {
        if self.auth_hold.is_none() {
            self.auth_hold = Some(AuthHold {
                status: 401,
                held: Vec::new(),
            });
        }
    }

    /// Re-sends every held message, in order, as new HTTP requests (after
    /// [`HttpMachine::set_bearer`]).
    pub fn resume(&mut self, now: Timestamp) {
        let Some(hold) = self.auth_hold.take() else {
            return;
        };
        for out in hold.held {
            self.send(now, out);
        }
    }

    /// Fails every held request as `SendFailure::Rejected { status, body: reason }`
    /// (held notifications and responses are dropped with a notice).
    pub fn give_up(&mut self, now: Timestamp, reason: String) {
        let Some(hold) = self.auth_hold.take() else {
            return;
        };
        let _ = now;
        for out in hold.held {
            match out.message.body() {
                Body::Request { id, .. } => {
                    let id = id.clone();
                    self.initializing.remove(&id);
                    self.fail(
                        id,
                        SendFailure::Rejected {
                            status: hold.status,
                            body: reason.clone(),
                        },
                    );
                }
                _ => self.notice(format!(
                    "dropped a message held for authorization: {reason}"
                )),
            }
        }
    }

    /// A request refused with 401 (or 403 `insufficient_scope`) is taken out of
    /// flight and held; the first one of a hold emits [`HttpEvent::Unauthorized`].
    /// Returns whether it did.
    pub(crate) fn hold_if_unauthorized(
        &mut self,
        now: Timestamp,
        req: ReqId,
        status: u16,
        headers: &[(String, String)],
    ) -> bool {
        if !self.cfg.hold_unauthorized || !(status == 401 || status == 403) {
            return false;
        }
        let www = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("www-authenticate"))
            .map(|(_, v)| v.clone());
        if status == 403
            && !www
                .as_deref()
                .is_some_and(|w| w.to_ascii_lowercase().contains("insufficient_scope"))
        {
            return false;
        }
        let Some(ex) = self.exchanges.get_mut(&req) else {
            return false;
        };
        if !matches!(ex.kind, Kind::Request(_) | Kind::OneWay(_)) {
            return false;
        }
        let Some(out) = ex.sent.take() else {
            return false;
        };
        let kind = ex.kind.clone();
        self.drop_exchange(req);
        if let Kind::Request(id) = &kind {
            self.by_rpc.remove(id);
        }
        match self.auth_hold.as_mut() {
            // Sent before the hold began: it goes ahead of what came later.
            Some(hold) => hold.held.insert(0, out),
            None => {
                self.auth_hold = Some(AuthHold {
                    status,
                    held: vec![out],
                });
                self.events.push_back(HttpEvent::Unauthorized {
                    status,
                    www_authenticate: www,
                });
            }
        }
        // Messages that waited behind this one now wait for authorization instead.
        self.ungate(now, req);
        true
    }

    /// Forgets a held request the client cancelled.
    pub(crate) fn unhold(&mut self, id: &RequestId) {
        if let Some(hold) = self.auth_hold.as_mut() {
            hold.held
                .retain(|o| !matches!(o.message.body(), Body::Request { id: i, .. } if i == id));
        }
    }
}

//! Sign-in discovery alone, for a doctor, sans-IO: the flow is fed a refusal, and
//! its discovery requests (protected resource metadata, then the authorization
//! server's) are handed out one at a time, up to the point where it would register
//! a client or send the user to sign in, which a doctor never does. `mcpg doctor`
//! performs the requests with its HTTP client, the page's Doctor as its sign-in
//! does; both judge what was seen with `mcpg_doctor::auth::discovery`.

use mcpg_core::Timestamp;

use crate::{AuthConfig, AuthEvent, AuthFlow, AuthRequest, AuthResponse, ClientIdentity, Step};

/// What discovery saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Probed {
    /// Whether the refusal carried `WWW-Authenticate: Bearer …`.
    pub challenge: bool,
    /// The protected resource metadata URL that answered, when one did.
    pub resource_metadata: Option<String>,
    /// The authorization server metadata URL that answered, when one did.
    pub server_metadata: Option<String>,
    /// Why discovery stopped short, when it did (the flow's error).
    pub failure: Option<String>,
    /// What the server or authorization server got wrong on the way (rule,
    /// expected, got), in words.
    pub findings: Vec<String>,
}

/// The most requests discovery may take (the spec's candidates are a handful).
pub const PROBE_MAX_REQUESTS: usize = 16;

/// One discovery, from a refusal to what it found.
#[derive(Debug)]
pub struct Probe {
    flow: AuthFlow,
    seen: Probed,
    /// The request in flight: its step and URL.
    asked: Option<(Step, String)>,
    made: usize,
    over: bool,
}

impl Probe {
    /// Starts discovery for `url`, refused with `status` and `www_authenticate`.
    pub fn new(url: &str, status: u16, www_authenticate: Option<&str>) -> Probe {
        let seen = Probed {
            challenge: www_authenticate
                .is_some_and(|c| c.trim_start().to_ascii_lowercase().starts_with("bearer")),
            ..Probed::default()
        };
        let cfg = AuthConfig::new(
            url,
            // Never used: discovery stops before a client is registered or a browser sent.
            "http://127.0.0.1/callback",
            ClientIdentity::Auto {
                metadata_url: None,
                client_name: "mcpg doctor".into(),
            },
        );
        // No PKCE verifier or state is ever sent, so no entropy is needed.
        let mut flow = AuthFlow::new(cfg, [0; 64]);
        flow.handle_challenge(Timestamp::ZERO, status, www_authenticate);
        Probe {
            flow,
            seen,
            asked: None,
            made: 0,
            over: false,
        }
    }

    /// The next request to make; `None` once discovery is over (then [`Probe::seen`]).
    pub fn poll_request(&mut self) -> Option<AuthRequest> {
        if self.over || self.asked.is_some() {
            return None;
        }
        self.read_events();
        if self.over {
            return None;
        }
        let Some(req) = self.flow.poll_request() else {
            self.over = true;
            return None;
        };
        if !matches!(
            req.step,
            Step::ProtectedResourceMetadata | Step::AuthorizationServerMetadata
        ) {
            // Discovery is done: what comes next registers a client or signs in.
            self.over = true;
            return None;
        }
        if self.made == PROBE_MAX_REQUESTS {
            self.seen.failure = Some(format!(
                "discovery took more than {PROBE_MAX_REQUESTS} requests"
            ));
            self.over = true;
            return None;
        }
        self.made += 1;
        self.asked = Some((req.step, req.url.clone()));
        Some(req)
    }

    /// What became of the request [`Probe::poll_request`] gave.
    pub fn handle_response(&mut self, answer: AuthResponse) {
        let Some((step, url)) = self.asked.take() else {
            return;
        };
        if let AuthResponse::Answered { status: 200, .. } = &answer {
            match step {
                Step::ProtectedResourceMetadata => self.seen.resource_metadata = Some(url),
                _ => self.seen.server_metadata = Some(url),
            }
        }
        self.flow.handle_response(Timestamp::ZERO, answer);
    }

    /// Whether discovery is over.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// What discovery saw (complete once it is over).
    pub fn seen(&self) -> &Probed {
        &self.seen
    }

    fn read_events(&mut self) {
        while let Some(ev) = self.flow.poll_event() {
            match ev {
                AuthEvent::Exchange(card) => {
                    for f in card.findings {
                        self.seen.findings.push(format!(
                            "{}: expected {}, got {}",
                            f.rule, f.expected, f.got
                        ));
                    }
                }
                AuthEvent::Failed(e) => {
                    self.seen.failure = Some(e.to_string());
                    self.over = true;
                    return;
                }
                AuthEvent::Authorize { .. } | AuthEvent::Authorized(_) => {
                    self.over = true;
                    return;
                }
            }
        }
    }
}

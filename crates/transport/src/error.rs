//! Errors from setting a transport up (running ones report through events).

/// A transport could not be started.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The server program could not be started.
    #[error("could not start `{program}`: {source}")]
    Spawn {
        /// The program as given.
        program: String,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// The URL is not an absolute http(s) URL.
    #[error("invalid server URL {url:?}: {why}")]
    InvalidUrl {
        /// The URL as given.
        url: String,
        /// Why it was refused.
        why: String,
    },
    /// The HTTP client could not be built (TLS setup).
    #[error("could not set up the HTTP client: {0}")]
    HttpClient(String),
}

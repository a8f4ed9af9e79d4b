//! A model's reply the host cannot use.

/// A reply the host cannot use. Shown in step 3; never a crash.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HostError {
    /// The reply is not the provider's response shape.
    #[error("the reply is not a {provider} response: {detail}")]
    Shape {
        /// Provider label.
        provider: &'static str,
        /// What is missing or wrong.
        detail: String,
    },
    /// The provider returned an error object instead of a reply.
    #[error("the provider returned an error: {0}")]
    ProviderError(String),
    /// A call's arguments are not valid JSON (OpenAI sends them as a string).
    #[error("the arguments of call {call_id} to {tool} are not valid JSON ({detail}): {raw}")]
    BadArguments {
        /// Call id.
        call_id: String,
        /// Tool name as the model wrote it.
        tool: String,
        /// Parser message.
        detail: String,
        /// The raw string.
        raw: String,
    },
    /// The model called a tool that is not in the list it was given.
    #[error("the model called {0:?}, which is not one of the tools it was given")]
    UnknownTool(String),
}

impl HostError {
    /// The `{"error": {"message": …}}` body that OpenAI and Gemini send instead of a
    /// reply (a bad key, a rate limit), if `reply` is one.
    pub fn from_error_body(reply: &serde_json::Value) -> Option<HostError> {
        let e = reply.get("error").filter(|e| !e.is_null())?;
        let message = e
            .get("message")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("unknown error");
        Some(HostError::ProviderError(message.to_owned()))
    }
}

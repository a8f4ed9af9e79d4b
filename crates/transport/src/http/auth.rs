//! OAuth for the Streamable HTTP transport: what the caller configures
//! ([`AuthOptions`], an [`Authorizer`]) and the glue that runs the sans-IO
//! [`mcpg_auth::AuthFlow`] when the machine holds a refused request.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A boxed future, so [`Authorizer`] stays object safe without `async_trait`.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// Visits an authorization URL and returns the redirect URL the browser came back
/// with (`…?code=…&state=…`), or why it could not.
pub trait Authorizer: Send + Sync {
    /// Sends the user (or a test stand-in) to `url`.
    fn authorize(&self, url: String) -> BoxFuture<Result<String, String>>;
}

/// Called with every new token set (the CLI writes its cache here).
pub type OnTokens = Arc<dyn Fn(&mcpg_auth::Tokens) + Send + Sync>;

/// OAuth for one HTTP connection.
#[derive(Clone)]
pub struct AuthOptions {
    /// The flow's configuration.
    pub config: mcpg_auth::AuthConfig,
    /// Tokens from the cache: used at once (refreshed first if expired).
    pub tokens: Option<mcpg_auth::Tokens>,
    /// Visits the authorization URL and returns the redirect URL.
    pub authorizer: Arc<dyn Authorizer>,
    /// Called with every new token set (the CLI writes its cache here).
    pub on_tokens: Option<OnTokens>,
}

impl std::fmt::Debug for AuthOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthOptions")
            .field("config", &self.config)
            .field("tokens", &self.tokens)
            .finish_non_exhaustive()
    }
}

/// For the conformance suite: GETs the authorization URL without following
/// redirects; the answer's `Location` is the redirect URL.
#[derive(Clone, Debug, Default)]
pub struct FollowRedirect;

impl Authorizer for FollowRedirect {
    fn authorize(&self, url: String) -> BoxFuture<Result<String, String>> {
        Box::pin(async move {
            let http = reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(std::time::Duration::from_secs(30))
                .build()
                .map_err(|e| super::exec::describe(&e))?;
            let resp = http
                .get(&url)
                .send()
                .await
                .map_err(|e| super::exec::describe(&e))?;
            let status = resp.status().as_u16();
            resp.headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
                .ok_or_else(|| {
                    format!("the authorization endpoint answered HTTP {status} without a redirect")
                })
        })
    }
}

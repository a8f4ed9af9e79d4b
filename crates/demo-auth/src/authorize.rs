//! The authorization endpoint: the request the browser would carry there, the
//! consent screen it would show, and the redirect back.

use crate::issuer::{Grant, Issuer};
use crate::{ISSUER, RESOURCE_URL, SCOPE};

/// Why the authorization server refuses an authorization request outright (it
/// shows this instead of redirecting: the redirect URI cannot be trusted then).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConsentError {
    /// Not this server's authorization endpoint.
    NotHere,
    /// No registered client has this `client_id`.
    UnknownClient,
    /// `redirect_uri` is not one the client registered.
    RedirectMismatch,
    /// `response_type` is not `code`.
    NotCode,
    /// No `code_challenge`, or a method other than S256 (PKCE is required).
    NoPkce,
    /// `resource` names another server.
    OtherResource,
}

impl std::fmt::Display for ConsentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ConsentError::NotHere => "this is not the demo authorization server's endpoint",
            ConsentError::UnknownClient => "no client is registered with this client_id",
            ConsentError::RedirectMismatch => "redirect_uri is not one the client registered",
            ConsentError::NotCode => "response_type must be code",
            ConsentError::NoPkce => {
                "PKCE is required: code_challenge with code_challenge_method S256"
            }
            ConsentError::OtherResource => {
                "resource names a server this one does not issue tokens for"
            }
        })
    }
}

impl std::error::Error for ConsentError {}

/// What the consent screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Screen {
    /// The name the client registered with.
    pub client_name: String,
    /// The scopes asked for (the server's own when none is asked).
    pub scope: String,
    /// The resource the token will be for.
    pub resource: String,
    /// Where the browser goes back to.
    pub redirect_uri: String,
}

/// An authorization request, checked.
struct Asked {
    client_id: String,
    client_name: String,
    redirect_uri: String,
    challenge: String,
    scope: String,
    state: Option<String>,
}

impl Issuer {
    fn read(&self, raw: &str) -> Result<Asked, ConsentError> {
        let url = url::Url::parse(raw).map_err(|_| ConsentError::NotHere)?;
        if url.origin().ascii_serialization() != ISSUER || url.path() != "/authorize" {
            return Err(ConsentError::NotHere);
        }
        let q = url.query().unwrap_or_default();
        let get = |name: &str| crate::form::field(q, name);
        let client_id = get("client_id").unwrap_or_default();
        let client = self
            .clients
            .iter()
            .find(|c| c.id == client_id)
            .ok_or(ConsentError::UnknownClient)?;
        let redirect_uri = get("redirect_uri").unwrap_or_default();
        if !client.redirect_uris.contains(&redirect_uri) {
            return Err(ConsentError::RedirectMismatch);
        }
        if get("response_type").as_deref() != Some("code") {
            return Err(ConsentError::NotCode);
        }
        let challenge = get("code_challenge").unwrap_or_default();
        if challenge.is_empty() || get("code_challenge_method").as_deref() != Some("S256") {
            return Err(ConsentError::NoPkce);
        }
        if get("resource").is_some_and(|r| r != RESOURCE_URL) {
            return Err(ConsentError::OtherResource);
        }
        Ok(Asked {
            client_id,
            client_name: client.name.clone(),
            redirect_uri,
            challenge,
            scope: get("scope")
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| SCOPE.to_owned()),
            state: get("state"),
        })
    }

    /// What the consent screen shows for the authorization URL `raw`.
    pub fn screen(&self, raw: &str) -> Result<Screen, ConsentError> {
        let a = self.read(raw)?;
        Ok(Screen {
            client_name: a.client_name,
            scope: a.scope,
            resource: RESOURCE_URL.to_owned(),
            redirect_uri: a.redirect_uri,
        })
    }

    /// The redirect after the learner approved (a code) or denied.
    pub fn consent(&mut self, raw: &str, approve: bool) -> Result<String, ConsentError> {
        let a = self.read(raw)?;
        let mut back =
            url::Url::parse(&a.redirect_uri).map_err(|_| ConsentError::RedirectMismatch)?;
        {
            let mut q = back.query_pairs_mut();
            if approve {
                let code = format!("demo-code-{}", self.next());
                q.append_pair("code", &code);
                self.grants.push(Grant {
                    code,
                    client_id: a.client_id,
                    redirect_uri: a.redirect_uri.clone(),
                    challenge: a.challenge,
                    scope: a.scope,
                });
            } else {
                q.append_pair("error", "access_denied");
                q.append_pair("error_description", "the user denied the request");
            }
            if let Some(s) = &a.state {
                q.append_pair("state", s);
            }
            q.append_pair("iss", ISSUER);
        }
        Ok(back.into())
    }
}

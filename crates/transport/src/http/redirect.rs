//! Redirects that keep secrets where they were sent.
//!
//! `--header` values and `--bearer-env` tokens are meant for the server the learner
//! named. reqwest strips `Authorization` and cookies on a cross-host redirect, but not
//! other headers (`X-Api-Key: …`), and a server should not be able to send the
//! client anywhere else anyway. So a redirect is followed only within the origin
//! (scheme, host, port) of the request's first URL; a redirect elsewhere fails the
//! request with [`CrossOrigin`], naming both origins (never a path or query, which
//! may carry secrets of their own).

/// The most redirects followed within one origin.
const MAX_REDIRECTS: usize = 10;

/// A redirect to another origin, not followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the server at {from} redirected to {to}, another origin; not followed, so the \
     headers sent to {from} stay there"
)]
pub struct CrossOrigin {
    /// The origin the request was for.
    pub from: String,
    /// The origin the redirect named.
    pub to: String,
}

/// Too many redirects within the origin.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("more than {MAX_REDIRECTS} redirects")]
pub struct TooManyRedirects;

/// The redirect policy for every client that carries the learner's headers.
pub fn same_origin() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let Some(first) = attempt.previous().first() else {
            return attempt.stop();
        };
        let (from, to) = (first.origin(), attempt.url().origin());
        if from != to {
            let error = CrossOrigin {
                from: from.ascii_serialization(),
                to: to.ascii_serialization(),
            };
            return attempt.error(error);
        }
        if attempt.previous().len() > MAX_REDIRECTS {
            return attempt.error(TooManyRedirects);
        }
        attempt.follow()
    })
}

//! Form bodies and queries (`application/x-www-form-urlencoded`), read through the
//! `url` crate.

/// The first value of `name` in `text` (a query or a form body).
pub fn field(text: &str, name: &str) -> Option<String> {
    url::form_urlencoded::parse(text.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

//! A test playing the user's browser at the AS: it follows redirects within the
//! AS, keeps its cookies, fills the development login form (any name, any
//! password) and the consent form, and stops at the first redirect that leaves
//! the AS (the client's `redirect_uri?code=…&state=…&iss=…`), which it returns
//! without visiting.

use std::collections::BTreeMap;

use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};

/// What the browser saw on its way back to the client.
#[derive(Debug)]
pub struct Browsed {
    /// The redirect URL the AS sent the browser to (on the client's redirect URI).
    pub redirect: String,
    /// The pages it filled in, in order (`"login"`, `"consent"`).
    pub prompts: Vec<String>,
}

/// The hops a real browser would tolerate before giving up.
const MAX_HOPS: usize = 20;

/// Visits `authorize_url` as user `login` and returns where the AS sends the browser.
pub async fn browse(authorize_url: &str, login: &str) -> Browsed {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let origin = origin_of(authorize_url);
    let mut jar: BTreeMap<String, String> = BTreeMap::new();
    let mut prompts = Vec::new();
    let mut next: (String, Option<String>) = (authorize_url.to_owned(), None);
    for _ in 0..MAX_HOPS {
        let (url, form) = next;
        let request = match &form {
            None => client.get(&url),
            Some(body) => client
                .post(&url)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body.clone()),
        };
        let cookies: Vec<String> = jar.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let response = request
            .header(COOKIE, cookies.join("; "))
            .send()
            .await
            .unwrap_or_else(|e| panic!("browser: {url}: {e}"));
        remember_cookies(&mut jar, &response);
        let status = response.status();
        if status.is_redirection() {
            let location = response.headers()[LOCATION].to_str().unwrap().to_owned();
            let target = resolve(&origin, location);
            if !target.starts_with(&format!("{origin}/")) {
                return Browsed {
                    redirect: target,
                    prompts,
                };
            }
            next = (target, None);
            continue;
        }
        let page = response.text().await.unwrap();
        assert!(
            status.is_success(),
            "browser: {url} answered {status}:\n{page}"
        );
        let prompt = attribute_after(&page, "name=\"prompt\" value=\"")
            .unwrap_or_else(|| panic!("browser: no login or consent form at {url}:\n{page}"));
        let action = attribute_after(&page, "action=\"").unwrap();
        let body = match prompt.as_str() {
            "login" => format!("prompt=login&login={}&password=any", form_value(login)),
            other => format!("prompt={other}"),
        };
        prompts.push(prompt);
        next = (resolve(&origin, action), Some(body));
    }
    panic!("browser: more than {MAX_HOPS} hops from {authorize_url}");
}

/// `scheme://host:port` of `url`.
fn origin_of(url: &str) -> String {
    let after_scheme = url.find("://").unwrap() + 3;
    let end = url[after_scheme..]
        .find('/')
        .map_or(url.len(), |i| after_scheme + i);
    url[..end].to_owned()
}

/// `target` (a Location or a form action) as an absolute URL.
fn resolve(origin: &str, target: String) -> String {
    if target.starts_with('/') {
        format!("{origin}{target}")
    } else {
        target
    }
}

/// The quoted value following `prefix` in `html`.
fn attribute_after(html: &str, prefix: &str) -> Option<String> {
    let start = html.find(prefix)? + prefix.len();
    let len = html[start..].find('"')?;
    Some(html[start..start + len].to_owned())
}

/// Keeps every cookie the AS sets; an empty value (the AS clearing it) removes it.
fn remember_cookies(jar: &mut BTreeMap<String, String>, response: &reqwest::Response) {
    for header in response.headers().get_all(SET_COOKIE) {
        let text = header.to_str().unwrap();
        let pair = text.split(';').next().unwrap();
        if let Some((name, value)) = pair.split_once('=') {
            if value.is_empty() {
                jar.remove(name.trim());
            } else {
                jar.insert(name.trim().to_owned(), value.to_owned());
            }
        }
    }
}

/// `application/x-www-form-urlencoded` for a value.
pub fn form_value(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

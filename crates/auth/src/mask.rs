//! Secrets out of every text a person sees: tokens, codes, verifiers, client
//! secrets, `Authorization` headers. What stays is `•••` and at most the last 4
//! characters (enough to tell two tokens apart, not enough to use one).

/// The parameter and field names whose values are secrets (form, query, JSON).
const SECRET_NAMES: &[&str] = &[
    "access_token",
    "refresh_token",
    "id_token",
    "code",
    "code_verifier",
    "client_secret",
    "registration_access_token",
    "password",
    "assertion",
    "subject_token",
    "client_assertion",
];

/// One secret value, masked: `•••` plus its last 4 characters when it is long
/// enough that they reveal nothing useful (12 characters or more).
pub(crate) fn mask_value(v: &str) -> String {
    let n = v.chars().count();
    if n >= 12 {
        let tail: String = v.chars().skip(n - 4).collect();
        format!("•••{tail}")
    } else {
        "•••".to_owned()
    }
}

/// Replaces secrets in a header value / form body / JSON text / URL with `•••` +
/// last 4 chars at most: `Authorization:` and `Bearer`/`Basic` credentials,
/// `name=value` pairs and `"name": "value"` members whose name is a secret.
pub fn mask(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&mask_line(line));
    }
    out
}

fn mask_line(line: &str) -> String {
    // `Authorization: Bearer x` (and bare `Bearer x` / `Basic x` values).
    let lower = line.to_ascii_lowercase();
    for scheme in ["bearer ", "basic ", "dpop "] {
        if let Some(at) = lower.find(scheme) {
            let start = at + scheme.len();
            let end = line[start..]
                .find([' ', ',', '"', '\r'])
                .map_or(line.len(), |e| start + e);
            if end > start {
                let rest = mask_line(&line[end..]);
                return format!("{}{}{rest}", &line[..start], mask_value(&line[start..end]));
            }
        }
    }
    let mut s = line.to_owned();
    for name in SECRET_NAMES {
        s = mask_pairs(&s, name);
        s = mask_json(&s, name);
    }
    s
}

/// `name=value` in a query or form body (the name must start the text or follow
/// `?`, `&` or a space).
fn mask_pairs(s: &str, name: &str) -> String {
    let pat = format!("{name}=");
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find(&pat) {
        let before_ok = at == 0 || matches!(rest.as_bytes()[at - 1], b'?' | b'&' | b' ' | b'#');
        let vstart = at + pat.len();
        out.push_str(&rest[..vstart]);
        rest = &rest[vstart..];
        if before_ok {
            let end = rest.find(['&', ' ', '#', '"']).unwrap_or(rest.len());
            if end > 0 {
                out.push_str(&mask_value(&rest[..end]));
            }
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

/// `"name": "value"` in JSON text.
fn mask_json(s: &str, name: &str) -> String {
    let pat = format!("\"{name}\"");
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find(&pat) {
        let after = at + pat.len();
        out.push_str(&rest[..after]);
        rest = &rest[after..];
        let ws = rest.len() - rest.trim_start().len();
        let r2 = &rest[ws..];
        let Some(r3) = r2.strip_prefix(':') else {
            continue;
        };
        let ws2 = r3.len() - r3.trim_start().len();
        let r4 = &r3[ws2..];
        let Some(body) = r4.strip_prefix('"') else {
            continue;
        };
        // The string's end: the first unescaped quote.
        let mut end = None;
        let mut esc = false;
        for (i, c) in body.char_indices() {
            match c {
                '\\' if !esc => esc = true,
                '"' if !esc => {
                    end = Some(i);
                    break;
                }
                _ => esc = false,
            }
        }
        let Some(end) = end else { continue };
        out.push_str(&rest[..ws + 1 + ws2 + 1]);
        out.push_str(&mask_value(&body[..end]));
        out.push('"');
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_authorization_headers() {
        let m = mask("Authorization: Bearer abcdefghijklmnop1234\nAccept: x");
        assert_eq!(m, "Authorization: Bearer •••1234\nAccept: x");
        assert_eq!(
            mask("authorization: Basic Y2xpZW50OnNlY3JldA=="),
            "authorization: Basic •••dA=="
        );
        assert!(!mask("Bearer short").contains("short"));
        assert_eq!(
            mask("Authorization: DPoP eyJhbGciOi.abc.defghijk"),
            "Authorization: DPoP •••hijk"
        );
    }

    #[test]
    fn masks_form_query_and_json() {
        let m = mask(
            "grant_type=authorization_code&code=SECRETCODE123456&code_verifier=vvvvvvvvvvvvvvvvvvvvv&redirect_uri=x",
        );
        assert!(!m.contains("SECRETCODE"), "{m}");
        assert!(!m.contains("vvvvvvvv"), "{m}");
        assert!(m.contains("redirect_uri=x") && m.contains("grant_type=authorization_code"));
        let j = mask(
            r#"{"access_token": "tok-0123456789abcdef", "token_type":"Bearer","refresh_token":"r\"x"}"#,
        );
        assert!(!j.contains("0123456789"), "{j}");
        assert!(j.contains("\"token_type\":\"Bearer\""), "{j}");
        assert!(!j.contains("r\\\"x"), "{j}");
        // `code` inside another name is not a secret.
        assert_eq!(mask("code_challenge=abc"), "code_challenge=abc");
        assert_eq!(
            mask("https://cb?code=abc&state=s"),
            "https://cb?code=•••&state=s"
        );
    }
}

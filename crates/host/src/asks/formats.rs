//! The four string formats an elicitation schema may name (`StringSchema.format`),
//! checked as a form would: enough to catch a slip, not a full RFC parser.

/// Why `s` is not a `format` string, or `None` when it is (or the format is not
/// one of the four).
pub(super) fn check(format: &str, s: &str) -> Option<String> {
    let ok = match format {
        "email" => email(s),
        "uri" => uri(s),
        "date" => date(s),
        "date-time" => date_time(s),
        _ => return None,
    };
    (!ok).then(|| match format {
        "email" => format!("{s:?} is not an email address"),
        "uri" => format!("{s:?} is not a URI (scheme:…)"),
        "date" => format!("{s:?} is not a date (YYYY-MM-DD)"),
        _ => format!("{s:?} is not a date and time (YYYY-MM-DDThh:mm:ssZ)"),
    })
}

fn email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.is_empty()
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !rest.is_empty()
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// `n` ASCII digits read as a number.
fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

fn date(s: &str) -> bool {
    let mut parts = s.split('-');
    let (Some(y), Some(m), Some(d), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

fn date_time(s: &str) -> bool {
    let Some((d, t)) = s.split_once(['T', 't']) else {
        return false;
    };
    if !date(d) {
        return false;
    }
    // The zone: `Z`, or `±hh:mm`.
    let (time, zone) = if let Some(t) = t.strip_suffix(['Z', 'z']) {
        (t, None)
    } else if let Some(i) = t.rfind(['+', '-']) {
        (&t[..i], Some(&t[i + 1..]))
    } else {
        return false;
    };
    if let Some(z) = zone
        && !hh_mm(z)
    {
        return false;
    }
    let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
    if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let mut p = hms.split(':');
    match (p.next(), p.next(), p.next(), p.next()) {
        (Some(h), Some(m), Some(sec), None) => {
            digits(h, 2).is_some_and(|h| h < 24)
                && digits(m, 2).is_some_and(|m| m < 60)
                // 60 is a leap second.
                && digits(sec, 2).is_some_and(|s| s <= 60)
        }
        _ => false,
    }
}

fn hh_mm(z: &str) -> bool {
    match z.split_once(':') {
        Some((h, m)) => {
            digits(h, 2).is_some_and(|h| h < 24) && digits(m, 2).is_some_and(|m| m < 60)
        }
        None => false,
    }
}

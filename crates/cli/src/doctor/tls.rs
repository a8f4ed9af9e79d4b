//! The TLS problem behind a failed request, read from the typed error chain
//! (rustls's own error, which reqwest wraps), never from its words.

use mcpg_doctor::network::TlsProblem;
use rustls::CertificateError;

/// The TLS problem that made `e` fail, when TLS is why.
pub fn problem(e: &reqwest::Error) -> Option<TlsProblem> {
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = next {
        if let Some(t) = err.downcast_ref::<rustls::Error>() {
            return Some(classify(t));
        }
        // An io::Error's `source` skips the error it wraps (tokio-rustls wraps the
        // TLS error in one, and the connector wraps that in another): step inside.
        next = match err
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
        {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => err.source(),
        };
    }
    None
}

fn classify(e: &rustls::Error) -> TlsProblem {
    match e {
        rustls::Error::InvalidCertificate(c) => match c {
            CertificateError::UnknownIssuer => TlsProblem::UnknownIssuer,
            CertificateError::Expired
            | CertificateError::ExpiredContext { .. }
            | CertificateError::NotValidYet
            | CertificateError::NotValidYetContext { .. } => TlsProblem::Expired,
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                TlsProblem::WrongName
            }
            CertificateError::Revoked => TlsProblem::Revoked,
            other => TlsProblem::Other(format!("invalid certificate: {other:?}")),
        },
        other => TlsProblem::Other(other.to_string()),
    }
}

//! Below HTTP: the host name, the TCP connection, TLS.

use crate::check::{Check, Finding};

/// Judges name resolution of `host`: the addresses found, or the resolver's
/// words.
pub fn resolve(host: &str, seen: Result<&[String], &str>) -> Finding {
    match seen {
        Ok(addrs) if !addrs.is_empty() => {
            Finding::pass(Check::Resolve, format!("{host} is {}", addrs.join(", ")))
        }
        Ok(_) => Finding::fail(
            Check::Resolve,
            format!("{host} resolves to no address"),
            "Check the host name's spelling and its DNS records, or use the server's IP address.",
        ),
        Err(why) => Finding::fail(
            Check::Resolve,
            format!("{host} does not resolve: {why}"),
            "Check the host name's spelling and that this machine's DNS can see it (a VPN, \
             /etc/hosts, a typo in the domain); or use the server's IP address.",
        ),
    }
}

/// Why a TCP connection did not open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TcpFailure {
    /// Nothing listens there (connection refused).
    Refused,
    /// No answer in time (a firewall dropping packets, a wrong address).
    TimedOut,
    /// No route to the host or its network.
    Unreachable,
    /// Anything else, in the OS's words.
    Other(String),
}

/// Judges the TCP connection to `addr` (`host:port`).
pub fn tcp(addr: &str, seen: Result<(), &TcpFailure>) -> Finding {
    match seen {
        Ok(()) => Finding::pass(Check::Tcp, format!("connected to {addr}")),
        Err(TcpFailure::Refused) => Finding::fail(
            Check::Tcp,
            format!("{addr} refused the connection: nothing listens there"),
            "Start the server, or check the port in the URL (and that the server listens on \
             this interface, not only on another one).",
        ),
        Err(TcpFailure::TimedOut) => Finding::fail(
            Check::Tcp,
            format!("no answer from {addr}"),
            "A firewall may drop the packets, or the address is wrong: check both.",
        ),
        Err(TcpFailure::Unreachable) => Finding::fail(
            Check::Tcp,
            format!("{addr} is unreachable from here"),
            "Check the network route (VPN, proxy) to the server.",
        ),
        Err(TcpFailure::Other(why)) => Finding::fail(
            Check::Tcp,
            format!("could not connect to {addr}: {why}"),
            "Check the address and the network between here and the server.",
        ),
    }
}

/// What the TLS handshake showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TlsSeen {
    /// A plain `http://` URL: no TLS.
    NotUsed,
    /// The handshake worked: the certificate is valid and issued for the host.
    Valid,
    /// The handshake failed.
    Failed(TlsProblem),
}

/// Why a TLS handshake failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TlsProblem {
    /// The certificate chains to no trusted root (self-signed, private CA).
    UnknownIssuer,
    /// The certificate has expired (or is not valid yet).
    Expired,
    /// The certificate is for other names than the host.
    WrongName,
    /// The certificate was revoked.
    Revoked,
    /// Anything else, in the TLS library's words.
    Other(String),
}

/// Judges TLS towards `host`.
pub fn tls(host: &str, seen: &TlsSeen) -> Finding {
    let fail = |evidence: String, fix: &str| Finding::fail(Check::Tls, evidence, fix);
    match seen {
        TlsSeen::NotUsed => Finding::skip(Check::Tls, "plain http: no TLS"),
        TlsSeen::Valid => Finding::pass(
            Check::Tls,
            format!("the certificate is valid and issued for {host}"),
        ),
        TlsSeen::Failed(TlsProblem::UnknownIssuer) => fail(
            format!(
                "{host}'s certificate is not signed by a trusted authority (self-signed or a private CA)"
            ),
            "Give the server a certificate from a public CA (e.g. Let's Encrypt); a private CA \
             must be trusted by this machine and by the learners' browsers.",
        ),
        TlsSeen::Failed(TlsProblem::Expired) => fail(
            format!("{host}'s certificate has expired or is not valid yet"),
            "Renew the server's certificate (and check this machine's clock).",
        ),
        TlsSeen::Failed(TlsProblem::WrongName) => fail(
            format!("{host}'s certificate is issued for other names"),
            "Use the host name the certificate names, or reissue it to include this one.",
        ),
        TlsSeen::Failed(TlsProblem::Revoked) => fail(
            format!("{host}'s certificate was revoked"),
            "Give the server a new certificate.",
        ),
        TlsSeen::Failed(TlsProblem::Other(why)) => fail(
            format!("the TLS handshake with {host} failed: {why}"),
            "Check the server's TLS set-up (protocol versions, chain) with a TLS checker.",
        ),
    }
}

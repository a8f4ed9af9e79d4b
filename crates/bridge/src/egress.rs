//! Where the bridge's outgoing HTTP may go: never to a private address on a remote
//! party's say-so (SSRF), and never somewhere other than the address it checked.
//!
//! The threat: a remote MCP server the learner tries names an "authorization
//! server" at `http://127.0.0.1:6379/` or `http://169.254.169.254/`, and the page asks
//! the go-between (`/api/oauth-fetch`) to fetch it, handing the answer back to the
//! page, whose state that server's metadata steers. So, unless the learner started the
//! bridge with `--allow-private-auth` (or `allow_private_auth = true` in its config):
//!
//! - an IP-literal host is classified before anything is sent ([`check_host`]):
//!   reqwest never asks a resolver about an IP literal. Decimal, octal and hex forms
//!   (`http://2130706433/`) arrive here already normalised to dotted form by the
//!   WHATWG parser, and IPv4-mapped IPv6 (`[::ffff:127.0.0.1]`) is classified by the
//!   IPv4 address it reaches;
//! - `localhost` and `*.localhost` are refused by name, whatever they resolve to;
//! - any other name goes through [`GuardedResolver`], which drops every private
//!   address it resolves to and fails when none is left. reqwest connects only to
//!   the addresses the resolver returned, so a name cannot resolve to a public address
//!   for the check and a private one for the connection (DNS rebinding).
//!
//! Classes ([`mcpg_safe_url::ip::private_class`]): loopback, private, link-local,
//! unique-local, unspecified, carrier-grade NAT, multicast, reserved, documentation,
//! and IPv6 forms embedding one of those (mapped, compatible, NAT64, 6to4).
//!
//! The relay (`/relay/NAME`) only contacts URLs from the bridge's config, which is
//! trusted: a literal address there (`http://127.0.0.1:3001/mcp`) or a `localhost`
//! name is the learner's explicit choice and is reached as written. A configured DNS
//! name, though, must resolve to public addresses unless `--allow-private-auth` is
//! set: a name in the config is a promise about a place on the internet, and a
//! rebinding DNS answer must not turn it into a door to the learner's network.
//!
//! Both clients ignore proxy settings from the environment: through a proxy the
//! bridge would resolve only the proxy's name, and the check above would mean nothing.
//! Neither follows redirects (the answer goes back as it is), so a header never goes
//! to an origin it was not configured or asked for.

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use mcpg_safe_url::ip::private_class;
use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// What the refusal tells the learner to do.
pub(crate) const FLAG: &str = "--allow-private-auth";
/// The config key with the same effect.
pub(crate) const CONFIG_KEY: &str = "allow_private_auth = true";

/// A destination refused because it is not a public address.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{host} is a {class} address, which the bridge reaches only when started with \
     `mcpg serve {FLAG}` (or `{CONFIG_KEY}` in its config), e.g. for a local \
     authorization server"
)]
pub(crate) struct Blocked {
    /// The host as asked for (a name, or an address).
    pub host: String,
    /// The address class, e.g. "loopback" or "private".
    pub class: &'static str,
}

/// Refuses a URL whose host is an IP literal of a private class, or a `localhost`
/// name, before anything is sent. Other names are left to [`GuardedResolver`].
pub(crate) fn check_host(url: &Url) -> Result<(), Blocked> {
    let blocked = |class| Blocked {
        host: url.host_str().unwrap_or_default().to_owned(),
        class,
    };
    match url.host() {
        Some(mcpg_safe_url::Host::Ipv4(a)) => {
            private_class(IpAddr::V4(a)).map_or(Ok(()), |c| Err(blocked(c)))
        }
        Some(mcpg_safe_url::Host::Ipv6(a)) => {
            private_class(IpAddr::V6(a)).map_or(Ok(()), |c| Err(blocked(c)))
        }
        Some(mcpg_safe_url::Host::Domain(d)) if is_localhost(d) => Err(blocked("loopback")),
        _ => Ok(()),
    }
}

/// `localhost`, `*.localhost` (RFC 6761: always loopback), with or without the root dot.
fn is_localhost(name: &str) -> bool {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

/// The hosts among `urls` that are `localhost` names: in the bridge's config, the
/// learner's explicit choice of this machine, which the relay reaches as written.
pub(crate) fn localhost_names<'a>(urls: impl IntoIterator<Item = &'a str>) -> HashSet<String> {
    urls.into_iter()
        .filter_map(|u| Url::parse(u).ok())
        .filter_map(|u| match u.host() {
            Some(mcpg_safe_url::Host::Domain(d)) if is_localhost(d) => Some(d.to_owned()),
            _ => None,
        })
        .collect()
}

/// A resolver that keeps only public addresses, except for the names in `trusted`.
#[derive(Debug, Default)]
pub(crate) struct GuardedResolver {
    /// Names resolved without the check (the config's own `localhost` remotes).
    trusted: HashSet<String>,
}

impl GuardedResolver {
    /// A resolver that lets `trusted` names resolve to anything.
    pub(crate) fn trusting(trusted: HashSet<String>) -> GuardedResolver {
        GuardedResolver { trusted }
    }
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_ascii_lowercase();
        let trusted = self.trusted.contains(&host);
        Box::pin(async move {
            if !trusted && is_localhost(&host) {
                return Err(Box::new(Blocked {
                    host,
                    class: "loopback",
                }) as _);
            }
            // Port 0: reqwest puts the URL's port in.
            let all: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if trusted {
                return Ok(Box::new(all.into_iter()) as Addrs);
            }
            let first_class = all.iter().find_map(|a| private_class(a.ip()));
            let public: Vec<SocketAddr> = all
                .into_iter()
                .filter(|a| private_class(a.ip()).is_none())
                .collect();
            match first_class {
                Some(class) if public.is_empty() => Err(Box::new(Blocked { host, class }) as _),
                _ => Ok(Box::new(public.into_iter()) as Addrs),
            }
        })
    }
}

/// A client for the bridge's outgoing HTTP: `resolver` (when given) decides where
/// names go, no proxy, no redirects followed.
pub(crate) fn client(resolver: Option<GuardedResolver>) -> reqwest::Result<reqwest::Client> {
    let mut b = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none());
    if let Some(r) = resolver {
        b = b.dns_resolver(Arc::new(r));
    }
    b.build()
}

/// The refusal inside a failed request, if that is why it failed (found by type
/// in the error's causes, never by its text).
pub(crate) fn blocked_in(e: &reqwest::Error) -> Option<Blocked> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        if let Some(b) = c.downcast_ref::<Blocked>() {
            return Some(b.clone());
        }
        cause = c.source();
    }
    None
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    fn host_class(url: &str) -> Option<&'static str> {
        check_host(&Url::parse(url).unwrap()).err().map(|b| b.class)
    }

    #[test]
    fn literal_and_localhost_hosts_are_refused_by_class_before_sending() {
        for (url, class) in [
            ("http://127.0.0.1:9/", "loopback"),
            ("http://2130706433:9/", "loopback"),
            ("http://0x7f.1/", "loopback"),
            ("http://[::ffff:127.0.0.1]:9/", "loopback"),
            ("http://[::1]/", "loopback"),
            ("http://localhost:9/", "loopback"),
            ("http://LOCALHOST./", "loopback"),
            ("http://a.b.localhost/", "loopback"),
            ("https://10.0.0.8/", "private"),
            ("https://169.254.169.254/latest/meta-data", "link-local"),
            ("https://[fd00::1]/", "unique-local"),
            ("https://0.0.0.0/", "unspecified (\"this network\")"),
        ] {
            assert_eq!(host_class(url), Some(class), "{url}");
        }
        for url in [
            "https://example.org/",
            "https://8.8.8.8/",
            "https://[2606:4700::1111]/",
        ] {
            assert_eq!(host_class(url), None, "{url}");
        }
    }

    #[tokio::test]
    async fn a_name_resolving_only_to_private_addresses_is_refused_and_a_trusted_one_is_not() {
        let name = |s: &str| s.parse::<Name>().unwrap();
        let refused = GuardedResolver::default().resolve(name("localhost")).await;
        let Err(e) = refused else {
            panic!("localhost resolved")
        };
        assert_eq!(e.downcast_ref::<Blocked>().unwrap().class, "loopback");
        // An address-shaped name goes through the system resolver and is still classified.
        let Err(e) = GuardedResolver::default().resolve(name("127.0.0.2")).await else {
            panic!("127.0.0.2 resolved")
        };
        assert_eq!(e.downcast_ref::<Blocked>().unwrap().host, "127.0.0.2");
        let trusted = GuardedResolver::trusting(HashSet::from(["localhost".to_owned()]));
        let addrs: Vec<SocketAddr> = trusted.resolve(name("localhost")).await.unwrap().collect();
        assert!(addrs.iter().all(|a| a.ip().is_loopback()) && !addrs.is_empty());
    }
}

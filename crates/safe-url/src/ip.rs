//! Address classes the bridge will not connect to on a remote party's say-so: an
//! authorization server named by a remote MCP server could otherwise make the
//! bridge read the learner's own machine or network (SSRF).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an address is not public, or `None` for a public one.
pub fn private_class(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(a) => v4_class(a),
        IpAddr::V6(a) => v6_class(a),
    }
}

/// Whether the address is anything but a public unicast address.
pub fn is_private(ip: IpAddr) -> bool {
    private_class(ip).is_some()
}

fn v4_class(a: Ipv4Addr) -> Option<&'static str> {
    let [b0, b1, ..] = a.octets();
    if a.is_loopback() {
        Some("loopback")
    } else if a.is_unspecified() || b0 == 0 {
        Some("unspecified (\"this network\")")
    } else if a.is_private() {
        Some("private")
    } else if a.is_link_local() {
        Some("link-local")
    } else if b0 == 100 && (64..128).contains(&b1) {
        Some("shared address space (carrier-grade NAT)")
    } else if a.is_multicast() || a.is_broadcast() || b0 >= 240 {
        Some("multicast, broadcast or reserved")
    } else if a.is_documentation() || (b0 == 198 && (b1 == 18 || b1 == 19)) {
        Some("documentation or benchmarking")
    } else {
        None
    }
}

fn v6_class(a: Ipv6Addr) -> Option<&'static str> {
    let seg = a.segments();
    if a.is_loopback() {
        Some("loopback")
    } else if a.is_unspecified() {
        Some("unspecified")
    } else if let Some(v4) = a.to_ipv4_mapped() {
        // ::ffff:127.0.0.1 reaches 127.0.0.1.
        v4_class(v4)
    } else if seg[0..6] == [0, 0, 0, 0, 0, 0] {
        // IPv4-compatible (deprecated) ::a.b.c.d.
        v4_class(Ipv4Addr::new(
            (seg[6] >> 8) as u8,
            seg[6] as u8,
            (seg[7] >> 8) as u8,
            seg[7] as u8,
        ))
        .or(Some("IPv4-compatible"))
    } else if seg[0] & 0xfe00 == 0xfc00 {
        Some("unique-local")
    } else if seg[0] & 0xffc0 == 0xfe80 {
        Some("link-local")
    } else if seg[0] & 0xff00 == 0xff00 {
        Some("multicast")
    } else if seg[0] == 0x64 && seg[1] == 0xff9b {
        // NAT64 (64:ff9b::/96 and the local-use /48) can reach an IPv4 behind it.
        v4_class(Ipv4Addr::new(
            (seg[6] >> 8) as u8,
            seg[6] as u8,
            (seg[7] >> 8) as u8,
            seg[7] as u8,
        ))
        .or(if seg[2] == 1 {
            Some("NAT64 local-use")
        } else {
            None
        })
    } else if seg[0] == 0x2002 {
        // 6to4 embeds an IPv4 address in bits 16..48.
        v4_class(Ipv4Addr::new(
            (seg[1] >> 8) as u8,
            seg[1] as u8,
            (seg[2] >> 8) as u8,
            seg[2] as u8,
        ))
    } else if seg[0] == 0x2001 && seg[1] == 0x0db8 {
        Some("documentation")
    } else {
        None
    }
}

#[cfg(test)]
// A test fails by panicking.
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn every_private_class_is_refused() {
        for s in [
            "127.0.0.1",
            "127.255.0.9",
            "0.0.0.0",
            "0.1.2.3",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "64:ff9b::7f00:1",
            "2002:7f00:1::",
        ] {
            assert!(is_private(ip(s)), "{s} should be refused");
        }
    }

    #[test]
    fn public_addresses_pass() {
        for s in [
            "1.1.1.1",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
        ] {
            assert!(!is_private(ip(s)), "{s} should pass");
        }
    }
}

//! The hosted page's link fragment, as the bridge writes it and the page reads it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_bridge_api::{BridgeLink, BridgeLinkError as E};
use proptest::prelude::*;

const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

#[test]
fn the_bridge_fragment_reads_back_as_written() {
    let link = BridgeLink::new("http://127.0.0.1:4000", TOKEN).unwrap();
    let fragment = link.to_fragment();
    assert_eq!(
        fragment,
        format!("bridge=http://127.0.0.1:4000&token={TOKEN}")
    );
    for f in [fragment.clone(), format!("#{fragment}")] {
        assert_eq!(BridgeLink::read_fragment(&f), Some(Ok(link.clone())));
    }
    // Escaped on the way (some chat tools do), in either order, with extras.
    let escaped = format!("token={TOKEN}&x=1&bridge=http%3A%2F%2F127.0.0.1%3A4000%2F");
    let read = BridgeLink::read_fragment(&escaped).unwrap().unwrap();
    assert_eq!(
        (read.base(), read.token()),
        ("http://127.0.0.1:4000", TOKEN)
    );
    assert!(
        !format!("{read:?}").contains(TOKEN),
        "Debug hides the token"
    );
}

#[test]
fn session_links_and_anchors_are_not_bridge_fragments() {
    for f in [
        "",
        "#",
        "#loop",
        "#s1.AbC-_x",
        "s=s1.AbC",
        "#lesson=loop",
        "#tokens=1",
    ] {
        assert_eq!(BridgeLink::read_fragment(f), None, "{f:?}");
    }
}

#[test]
fn every_loopback_address_is_accepted_and_normalized() {
    for (given, base) in [
        ("http://127.0.0.1:4000", "http://127.0.0.1:4000"),
        ("http://127.0.0.1:4000/", "http://127.0.0.1:4000"),
        ("HTTP://LOCALHOST:4000", "http://localhost:4000"),
        ("http://[::1]:4000", "http://[::1]:4000"),
        ("https://127.8.9.10", "https://127.8.9.10"),
        ("http://localhost", "http://localhost"),
    ] {
        assert_eq!(BridgeLink::new(given, "t").unwrap().base(), base, "{given}");
    }
}

#[test]
fn a_fragment_meant_for_the_bridge_but_unusable_says_why() {
    let cases = [
        (format!("token={TOKEN}"), E::NoAddress),
        ("bridge=http://127.0.0.1:4000".to_owned(), E::NoToken),
        ("bridge=http://127.0.0.1:4000&token=".to_owned(), E::NoToken),
        (
            "bridge=http://127.0.0.1:4000&token=a%20b".to_owned(),
            E::BadToken,
        ),
        (
            "bridge=http://127.0.0.1:4000&token=a%zz".to_owned(),
            E::BadToken,
        ),
        (
            format!("bridge=https://evil.example&token={TOKEN}"),
            E::NotLoopback("https://evil.example".into()),
        ),
        (
            format!("bridge=http://192.168.1.2:4000&token={TOKEN}"),
            E::NotLoopback("http://192.168.1.2:4000".into()),
        ),
        (
            format!("bridge=http://[2001:db8::1]:4000&token={TOKEN}"),
            E::NotLoopback("http://[2001:db8::1]:4000".into()),
        ),
        (
            format!("bridge=http://127.0.0.256:4000&token={TOKEN}"),
            E::NotLoopback("http://127.0.0.256:4000".into()),
        ),
        (
            format!("bridge=http://127.0.0.1.evil.example:4000&token={TOKEN}"),
            E::NotLoopback("http://127.0.0.1.evil.example:4000".into()),
        ),
        (
            format!("bridge=http://128.0.0.1:4000&token={TOKEN}"),
            E::NotLoopback("http://128.0.0.1:4000".into()),
        ),
        (
            format!("bridge=http://127.01.0.1:4000&token={TOKEN}"),
            E::NotLoopback("http://127.01.0.1:4000".into()),
        ),
    ];
    for (f, want) in cases {
        assert_eq!(BridgeLink::read_fragment(&f), Some(Err(want)), "{f}");
    }
    for bad in [
        "127.0.0.1:4000",
        "ws://127.0.0.1:4000",
        "http://127.0.0.1:4000/api",
        "http://127.0.0.1:4000?x",
        "http://user@127.0.0.1:4000",
        "http://127.0.0.1:port",
        "http://127.0.0.1:",
        "http://[::1",
        "http://",
    ] {
        assert!(
            matches!(BridgeLink::new(bad, "t"), Err(E::BadAddress(_))),
            "{bad}: {:?}",
            BridgeLink::new(bad, "t")
        );
    }
}

proptest! {
    #[test]
    fn any_fragment_reads_without_panicking(f in ".{0,200}") {
        let _ = BridgeLink::read_fragment(&f);
    }

    #[test]
    fn any_loopback_looking_host_reads_without_panicking(host in "127\\.[0-9a-z.%]{0,12}", port in "[0-9a-z]{0,6}") {
        let _ = BridgeLink::read_fragment(&format!("bridge=http://{host}:{port}&token=t"));
    }

    #[test]
    fn a_written_link_always_reads_back(port in 1u16.., token in "[A-Za-z0-9._~-]{1,100}") {
        let link = BridgeLink::new(&format!("http://127.0.0.1:{port}"), &token).unwrap();
        prop_assert_eq!(BridgeLink::read_fragment(&link.to_fragment()), Some(Ok(link)));
    }
}

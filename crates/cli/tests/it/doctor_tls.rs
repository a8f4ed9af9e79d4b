//! `mcpg doctor https://…` against a server with a self-signed certificate: the
//! TLS check fails with the reason read from rustls's typed error, and the
//! checks above it are skipped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::doctor::{check, doctor_json};
use crate::peers;

/// Python's `ssl` serving HTTPS with a fresh self-signed certificate (for
/// 127.0.0.1, not a CA); the process is killed when the guard drops.
struct SelfSigned {
    url: String,
    child: std::process::Child,
    _dir: tempfile::TempDir,
}

impl Drop for SelfSigned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn self_signed() -> Option<SelfSigned> {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let (key, cert) = (dir.path().join("key.pem"), dir.path().join("cert.pem"));
    let made = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
        ])
        .args(["-nodes", "-days", "1", "-subj", "/CN=mcpg doctor test"])
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        peers::missing("openssl, to make a self-signed certificate")?;
    }
    let python = peers::peers_dir().join("python/.venv/bin/python");
    if !python.is_file() {
        peers::missing(&format!("{} (for an HTTPS server)", python.display()))?;
    }
    let port = peers::free_port();
    let script = "import http.server, ssl, sys\n\
        c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); c.load_cert_chain(sys.argv[1], sys.argv[2])\n\
        s = http.server.HTTPServer(('127.0.0.1', int(sys.argv[3])), http.server.BaseHTTPRequestHandler)\n\
        s.socket = c.wrap_socket(s.socket, server_side=True); s.serve_forever()\n";
    let child = Command::new(python)
        .arg("-c")
        .arg(script)
        .arg(&cert)
        .arg(&key)
        .arg(port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let guard = SelfSigned {
        url: format!("https://127.0.0.1:{port}/mcp"),
        child,
        _dir: dir,
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "the HTTPS server did not listen"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Some(guard)
}

#[test]
fn a_self_signed_certificate_fails_tls_with_its_reason() {
    let Some(server) = self_signed() else {
        return;
    };
    let (r, v) = doctor_json(&[&server.url]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(check(&v, "tcp").0, "pass");
    let (verdict, evidence, fix) = check(&v, "tls");
    assert_eq!(verdict, "fail");
    assert_eq!(
        evidence,
        "127.0.0.1's certificate is not signed by a trusted authority (self-signed or a private CA)"
    );
    assert!(fix.contains("public CA"), "{fix}");
    assert_eq!(
        check(&v, "http-post"),
        ("skip", "the TLS handshake failed", "")
    );
}

//! `mcpg-http-cases [PORT]`: serves the cases on 127.0.0.1 (a free port when none is
//! given) and prints the base URL on its first line, for xtask's browser run.

use mcpg_http_cases::CasesServer;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let server = CasesServer::spawn(listener)?;
    println!("{}", server.base);
    // Serve until killed.
    std::future::pending::<()>().await;
    Ok(())
}

//! The fix for a JSON-RPC error a server answered with.
//!
//! This is the seam for the advice table (`mcpg-advice`, issue 31 part 2): every
//! finding that reports a JSON-RPC error takes its fix from [`rpc_fix`], so
//! pointing this one function at the table gives the doctor its rows. Until then
//! it says what the standard codes mean, and no more.

use mcpg_core::jsonrpc::RpcError;

/// The fix for `method` answered with error `code` (`message` is the server's
/// text, for rows that look at it).
pub fn rpc_fix(method: &str, code: i64, message: &str) -> String {
    let _ = message;
    match code {
        -32601 => format!("The server does not implement {method}."),
        -32602 => format!(
            "The server refused {method}'s parameters: run with `--verbose` to see the \
             request, and compare it with the revision the server speaks."
        ),
        -32600 => format!(
            "The server refused {method} as an invalid request: often a revision mismatch; \
             try another with `--protocol-version`."
        ),
        _ => format!(
            "The server refused {method}: run with `--verbose` to see the exchange and read \
             the server's logs."
        ),
    }
}

/// [`rpc_fix`] for an [`RpcError`].
pub fn rpc_error_fix(method: &str, e: &RpcError) -> String {
    rpc_fix(method, e.code, &e.message)
}

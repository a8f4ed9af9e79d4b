//! The fix for a JSON-RPC error a server answered with.
//!
//! This is the seam for the advice table (`mcpg-advice`, issue 31 part 2): every
//! finding that reports a JSON-RPC error takes its fix from [`rpc_fix`], so
//! pointing this one function at the table gives the doctor its rows. Until then
//! it says what the standard codes mean, and no more.

use mcpg_core::jsonrpc::RpcError;

/// Where to see the whole exchange (the doctor itself prints verdicts only).
const SEE: &str = "`mcpg info --verbose` against the same server shows the exchange";

/// The fix for `method` answered with error `code` (`message` is the server's
/// text, for rows that look at it).
pub fn rpc_fix(method: &str, code: i64, message: &str) -> String {
    let _ = message;
    match code {
        -32601 => format!("The server does not implement {method}."),
        -32602 => format!(
            "The server refused {method}'s parameters: compare them with the revision the \
             server speaks ({SEE})."
        ),
        -32600 => format!(
            "The server refused {method} as an invalid request: often a revision mismatch; \
             try another with `--protocol-version` ({SEE})."
        ),
        _ => format!("The server refused {method}: read the server's logs ({SEE})."),
    }
}

/// [`rpc_fix`] for an [`RpcError`].
pub fn rpc_error_fix(method: &str, e: &RpcError) -> String {
    rpc_fix(method, e.code, &e.message)
}

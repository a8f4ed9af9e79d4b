//! The fix for a JSON-RPC error a server answered with: the advice table's row when
//! one matches (`mcpg-advice`, the same words the CLI's `hint:` line and the page's
//! step card give), else what the standard codes mean.

use mcpg_advice::{Situation, advise};
use mcpg_core::client::GenerationMode;
use mcpg_core::jsonrpc::RpcError;

/// Where to see the whole exchange (the doctor itself prints verdicts only).
const SEE: &str = "`mcpg info --verbose` against the same server shows the exchange";

/// The fix for `method` answered with error `code` (`message` is the server's
/// text, which a table row may recognise; it is never repeated in the fix).
pub fn rpc_fix(method: &str, code: i64, message: &str) -> String {
    // The doctor runs each handshake on its own connection, held to its generation.
    let mode = match method {
        "server/discover" => GenerationMode::Stateless,
        "initialize" => GenerationMode::Initialize,
        _ => GenerationMode::Auto,
    };
    let situation = Situation::rpc(method, &RpcError::new(code, message)).allowing(mode);
    if let Some(a) = advise(&situation) {
        return match a.cli {
            Some(cli) => format!("{} (fix: {cli})", a.why),
            None => a.why,
        };
    }
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

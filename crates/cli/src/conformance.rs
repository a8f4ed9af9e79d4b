//! `mcpg conformance-client URL`: placeholder until the scenarios are implemented.

use crate::exit::Failure;

/// Runs the scenario named by `MCP_CONFORMANCE_SCENARIO` against `url`.
pub async fn run(url: &str) -> Result<(), Failure> {
    Err(Failure::usage(format!(
        "conformance-client is not implemented yet ({url})"
    )))
}

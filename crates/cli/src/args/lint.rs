//! The command line of `tools lint`, as clap reads it.

use clap::Args;
use mcpg_host::provider::Provider;

use super::connection::Connection;

/// `mcpg tools lint`: what each provider format would reject, rewrite or drop of
/// the server's tools.
#[derive(Debug, Args)]
pub struct LintArgs {
    /// The server and connection options.
    #[command(flatten)]
    pub conn: Connection,
    /// Only this format: anthropic, openai-chat, openai-responses, gemini or ollama
    /// (all five without it).
    #[arg(long, value_name = "F", value_parser = format)]
    pub format: Option<Provider>,
    /// Lint for OpenAI's strict mode (`strict: true` on each function).
    #[arg(long)]
    pub strict: bool,
    /// Print the findings as JSON instead.
    #[arg(long)]
    pub json: bool,
}

/// `--format`'s value: a provider's id.
fn format(s: &str) -> Result<Provider, String> {
    Provider::from_id(s.trim()).ok_or_else(|| {
        let all: Vec<&str> = Provider::ALL.iter().map(|p| p.id()).collect();
        format!("not a format; one of {}", all.join(", "))
    })
}

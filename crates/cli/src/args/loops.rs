//! `mcpg loop` and `mcpg eval`: the tool loop with a model, from the command line.

use std::path::PathBuf;

use clap::Args;

use super::Connection;

/// `mcpg loop`'s own flags.
#[derive(Debug, Args)]
pub struct LoopArgs {
    /// The user's message.
    pub message: String,
    /// The server and connection options.
    #[command(flatten)]
    pub conn: Connection,
    /// Who answers for the model: mock[:FORMAT], anthropic:MODEL, openai:MODEL,
    /// openai-responses:MODEL, gemini:MODEL, ollama:MODEL or
    /// openai-compatible:BASE_URL:MODEL. Keys come from ANTHROPIC_API_KEY,
    /// OPENAI_API_KEY or GEMINI_API_KEY; *_BASE_URL (OLLAMA_HOST) moves an API.
    #[arg(long, default_value = "mock")]
    pub model: String,
    /// Wait for Enter between steps.
    #[arg(long)]
    pub step: bool,
    /// Print one JSON object per step.
    #[arg(long)]
    pub json: bool,
    /// Print a playground link (`#s1.…`) that replays this run.
    #[arg(long)]
    pub share: bool,
    /// Save the run as a session file the page opens as a replay.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// The stdio server's name in the session (what the bridge config calls it);
    /// the command's program name when left out.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Fold JSON and explanations to this many columns.
    #[arg(long, default_value_t = 100)]
    pub width: usize,
}

/// `mcpg eval`'s own flags.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The cases file (TOML).
    pub cases: PathBuf,
    /// The server and connection options.
    #[command(flatten)]
    pub conn: Connection,
    /// The models, comma-separated (as `mcpg loop --model` takes them).
    #[arg(long, default_value = "mock", value_delimiter = ',')]
    pub models: Vec<String>,
    /// Runs of each case with each model.
    #[arg(long, default_value_t = 1)]
    pub repeat: u32,
    /// Write JUnit XML here.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Where failed runs are saved as session files.
    #[arg(long, value_name = "DIR", default_value = "mcpg-eval-failures")]
    pub failures: PathBuf,
    /// Runs at once per provider.
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    /// Attempts per model request when the API answers 429.
    #[arg(long, default_value_t = 4)]
    pub attempts: u32,
    /// The first wait after a 429 (doubled each time), unless the API says
    /// `retry-after`.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub backoff_ms: u64,
    /// The stdio server's name in saved sessions (see `mcpg loop --name`).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

//! The command line of `resources`, `prompts` and `complete`, as clap reads it.

use clap::{Args, Subcommand};

use super::connection::Connection;

/// `mcpg resources …`.
#[derive(Debug, Subcommand)]
pub enum ResourcesCommand {
    /// List every resource of every page.
    List(Listing),
    /// List every resource template of every page.
    Templates(Listing),
    /// Read a resource and print its contents (text as text, binary as type and size).
    Read {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The resource's URI.
        uri: String,
        /// Print the raw ReadResourceResult JSON instead.
        #[arg(long)]
        json: bool,
    },
    /// Subscribe to a resource and print its updates until interrupted (Ctrl-C),
    /// then unsubscribe and close the connection.
    Subscribe {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The resource's URI.
        uri: String,
        /// Once subscribed, call this tool in the same session: `NAME` or
        /// `NAME {JSON arguments}` (repeatable; for servers whose resources change
        /// when a tool runs).
        #[arg(long, value_name = "TOOL [JSON]")]
        call: Vec<String>,
        /// Stop after this many updates instead of waiting for Ctrl-C.
        #[arg(long, value_name = "N")]
        count: Option<u64>,
        /// Print each update as one line of JSON (`{"uri": …}`).
        #[arg(long)]
        json: bool,
    },
}

/// `mcpg prompts …`.
#[derive(Debug, Subcommand)]
pub enum PromptsCommand {
    /// List every prompt of every page, with its arguments.
    List(Listing),
    /// Get a prompt filled in with arguments and print its messages.
    Get {
        /// The server and connection options.
        #[command(flatten)]
        conn: Connection,
        /// The prompt's name.
        name: String,
        /// The arguments, as a JSON object of strings.
        #[arg(long, value_name = "JSON")]
        args: Option<String>,
        /// Print the raw GetPromptResult JSON instead.
        #[arg(long)]
        json: bool,
    },
}

/// The flags of a listing.
#[derive(Debug, Args)]
pub struct Listing {
    /// The server and connection options.
    #[command(flatten)]
    pub conn: Connection,
    /// Print a JSON array of every item, as the server sent them.
    #[arg(long)]
    pub json: bool,
}

/// `mcpg complete`.
#[derive(Debug, Args)]
pub struct Complete {
    /// The server and connection options.
    #[command(flatten)]
    pub conn: Connection,
    /// What is being completed.
    #[command(flatten)]
    pub reference: Reference,
    /// The argument (prompt) or variable (template) to complete.
    pub argument: String,
    /// What has been typed so far.
    pub value: String,
    /// The values already chosen for other arguments, as a JSON object of strings.
    #[arg(long, value_name = "JSON")]
    pub context: Option<String>,
    /// Print the raw CompleteResult JSON instead.
    #[arg(long)]
    pub json: bool,
}

/// Exactly one of `--prompt` and `--template`.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Reference {
    /// Complete an argument of this prompt.
    #[arg(long, value_name = "NAME")]
    pub prompt: Option<String>,
    /// Complete a variable of this resource template.
    #[arg(long, value_name = "URI_TEMPLATE")]
    pub template: Option<String>,
}

//! `resources list|templates|read|subscribe`, `prompts list|get` and `complete`:
//! the same connection flags, `--json` and exit statuses as `tools`.

mod render;
pub(crate) mod subscribe;

use mcpg_apps::UiResource;
use mcpg_core::client::Answer;
use mcpg_core::jsonrpc::Message;
use mcpg_core::model::{CompletionReference, JsonObject};
use mcpg_transport::{AnswerReport, Driver, DriverError};

use crate::args::Connection;
use crate::args::{Complete, PromptsCommand, ResourcesCommand};
use crate::commands::{parse_args, with_server};
use crate::exit::Failure;
use crate::render::{pretty, raw_items};

/// `mcpg resources …`.
pub async fn resources(cmd: &ResourcesCommand) -> Result<(), Failure> {
    match cmd {
        ResourcesCommand::List(l) => {
            list(&l.conn, l.json, "resources", async |d: &Driver| {
                let r = d.list_resources().await?;
                Ok((render::resources(&r), r.responses))
            })
            .await
        }
        ResourcesCommand::Templates(l) => {
            list(&l.conn, l.json, "resourceTemplates", async |d: &Driver| {
                let r = d.list_resource_templates().await?;
                Ok((render::templates(&r), r.responses))
            })
            .await
        }
        ResourcesCommand::Read { conn, uri, json } => {
            let read = async |d: &Driver| d.read_resource(uri).await;
            // A view (MCP Apps) is told by its size, type and policy: its HTML
            // (often hundreds of KB) only with --json.
            ask(conn, *json, read, |a, raw| match a {
                Answer::Read(r) => Some(
                    raw.filter(|_| uri.starts_with(mcpg_apps::UI_SCHEME))
                        .and_then(|raw| UiResource::from_read(uri, raw).ok())
                        .map_or_else(|| render::read(r), |v| render::view(&v)),
                ),
                _ => None,
            })
            .await
        }
        ResourcesCommand::Subscribe {
            conn,
            uri,
            call,
            count,
            json,
        } => subscribe::run(conn, uri, call, *count, *json).await,
    }
}

/// `mcpg prompts …`.
pub async fn prompts(cmd: &PromptsCommand) -> Result<(), Failure> {
    match cmd {
        PromptsCommand::List(l) => {
            list(&l.conn, l.json, "prompts", async |d: &Driver| {
                let r = d.list_prompts().await?;
                Ok((render::prompts(&r), r.responses))
            })
            .await
        }
        PromptsCommand::Get {
            conn,
            name,
            args,
            json,
        } => {
            let args = strings("--args", args.as_deref())?;
            let get = async |d: &Driver| d.get_prompt(name, args).await;
            ask(conn, *json, get, |a, _| match a {
                Answer::Prompt(r) => Some(render::prompt(r)),
                _ => None,
            })
            .await
        }
    }
}

/// `mcpg complete`.
pub async fn complete(c: &Complete) -> Result<(), Failure> {
    let context = strings("--context", c.context.as_deref())?;
    let reference = match (&c.reference.prompt, &c.reference.template) {
        (Some(name), _) => CompletionReference::Prompt { name: name.clone() },
        (None, Some(uri)) => CompletionReference::Resource { uri: uri.clone() },
        (None, None) => return Err(Failure::usage("one of --prompt and --template is required")),
    };
    let (name, value) = (c.argument.as_str(), c.value.as_str());
    let complete = async |d: &Driver| d.complete(reference, name, value, context).await;
    ask(&c.conn, c.json, complete, |a, _| match a {
        Answer::Completion(r) => Some(render::completion(r)),
        _ => None,
    })
    .await
}

/// Connects, lists every page, and prints the listing or (`--json`) the raw
/// items of `member` from every page.
async fn list(
    conn: &Connection,
    json: bool,
    member: &str,
    fetch: impl AsyncFnOnce(&Driver) -> Result<(String, Vec<Message>), DriverError>,
) -> Result<(), Failure> {
    with_server(conn, async |d: &Driver| {
        d.connect().await?;
        let (text, responses) = fetch(d).await?;
        if json {
            println!("{}", pretty(&raw_items(&responses, member)));
        } else {
            print!("{text}");
        }
        Ok(())
    })
    .await
}

/// Connects, asks, and prints the typed answer as `show` words it or
/// (`--json`) the raw result.
async fn ask(
    conn: &Connection,
    json: bool,
    send: impl AsyncFnOnce(&Driver) -> Result<AnswerReport, DriverError>,
    show: impl FnOnce(&Answer, Option<&serde_json::Value>) -> Option<String>,
) -> Result<(), Failure> {
    with_server(conn, async |d: &Driver| {
        d.connect().await?;
        let report = send(d).await?;
        if let Answer::InputRequired(v) = &report.answer {
            if json {
                println!("{}", pretty(v));
            }
            return Err(Failure::transport(
                "the server asked for input (input_required), which mcpg cannot give",
            ));
        }
        let raw = report.response.as_ref().and_then(|m| m.result());
        match (show(&report.answer, raw), raw) {
            (Some(_), Some(raw)) if json => println!("{}", pretty(raw)),
            (Some(text), _) => print!("{text}"),
            (None, _) => {
                return Err(Failure::transport(format!(
                    "unusable answer: the core reported {:?}",
                    report.answer
                )));
            }
        }
        Ok(())
    })
    .await
}

/// A JSON object whose values are strings (prompt arguments, completion context).
fn strings(flag: &str, text: Option<&str>) -> Result<JsonObject, Failure> {
    let object = parse_args(text)
        .map_err(|f| Failure::usage(f.message.replacen("--args", flag, 1)))?
        .unwrap_or_default();
    match object.iter().find(|(_, v)| !v.is_string()) {
        Some((k, v)) => Err(Failure::usage(format!(
            "{flag}: every value must be a string, and {k:?} is {}",
            mcpg_core::validate::kind_of(v)
        ))),
        None => Ok(object),
    }
}

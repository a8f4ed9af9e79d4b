//! `mcpg loop`: the six steps of the tool loop in the terminal, through the same host
//! code as the page (`mcpg_host::ToolLoop`, its provider formats and mock), each
//! step printed as the page labels it. `--share` and `--save` record the run as a
//! session the page opens as a replay. [`run_once`] is also what `mcpg eval` runs.

pub mod drive;
pub mod model;
mod print;
pub mod share;
mod spec;
mod tap;

use std::time::{Duration, Instant};

use mcpg_host::ToolLoop;
use mcpg_host::provider::{RequestOptions, Turn};
use mcpg_recording::{Recording, SeedTurn};
use mcpg_transport::Driver;

use crate::args::{Connection, LoopArgs};
use crate::connect::open_with;
use crate::exit::Failure;
pub use drive::Hooks;
use drive::{Retry, Stopped, Tally};
use model::{Model, ModelSpec};
use tap::Tap;

/// Where a loop starts: one user message, or a conversation (a server's prompt).
#[derive(Clone, Debug)]
pub enum Start {
    /// A user message.
    Message(String),
    /// A prompt from the server, got with these arguments before the loop.
    Prompt {
        /// The prompt's name.
        name: String,
        /// Its arguments.
        arguments: serde_json::Map<String, serde_json::Value>,
    },
}

/// What one run of the loop left behind.
pub struct Outcome {
    /// The loop, finished or stopped.
    pub run: ToolLoop,
    /// Tokens and retries.
    pub tally: Tally,
    /// Why it stopped early, when it did.
    pub stopped: Option<Stopped>,
    /// How long it took, connection included.
    pub elapsed: Duration,
    /// The run as a recording.
    pub session: Recording,
}

/// Connects, lists tools as the page does on connecting, runs one loop and closes.
/// `Err` is a failure to reach the server at all (or a prompt it would not give).
pub async fn run_once(
    conn: &Connection,
    model: &Model,
    start: &Start,
    retry: Retry,
    session_name: Option<&str>,
    hooks: Hooks<'_>,
) -> Result<Outcome, Failure> {
    let began = Instant::now();
    let tap = Tap::default();
    let stdio = conn.target.stdio.as_deref();
    // The page listens for list changes on a bridge server, not on a URL.
    // The client declares what the page declares, so the run replays in the page;
    // the server's asks (elicitation, sampling, roots) are answered as the flags say,
    // and declined where no flag says.
    let answerer = crate::asks::like_the_page(&conn.asks)?;
    let (d, told) = open_with(
        conn,
        false,
        Some(&answerer),
        Some(tap.observer()),
        stdio.is_some(),
    )?;
    let body = async {
        // The page's system prompt is the server's instructions.
        let server = d.connect().await?;
        let system = server.instructions.clone();
        // The page's Tools panel lists on connect; the loop's own listing follows.
        d.list_tools().await?;
        let (mut run, seed, message) = start_loop(&d, model, start, system).await?;
        let mut tally = Tally::default();
        let stopped = drive::drive(&d, &server, &tap, &mut run, model, retry, &mut tally, hooks)
            .await
            .err();
        Ok::<_, Failure>((run, seed, message, tally, stopped))
    };
    let result = body.await;
    let _ = d.close().await;
    let (run, seed, message, tally, stopped) =
        result.map_err(|f| crate::auth::explain(conn, &told, f))?;
    let connection = share::connection(stdio, conn.target.url.as_deref(), session_name);
    let session = share::session(connection, model.spec(), &message, &run, &tap);
    let mut session = share::hide(session, &crate::connect::header_secrets(conn));
    if let Some(seed) = seed {
        session.seeds = vec![Some(seed)];
    }
    Ok(Outcome {
        run,
        tally,
        stopped,
        elapsed: began.elapsed(),
        session,
    })
}

/// The loop for `start`, with the seed a session keeps and the message it shows.
async fn start_loop(
    d: &Driver,
    model: &Model,
    start: &Start,
    system: Option<String>,
) -> Result<(ToolLoop, Option<Vec<SeedTurn>>, String), Failure> {
    let spec = model.spec();
    let opts = RequestOptions {
        model: spec.model_name(),
        system,
        ..RequestOptions::default()
    };
    match start {
        Start::Message(m) => Ok((ToolLoop::new(m, spec.provider(), opts), None, m.clone())),
        Start::Prompt { name, arguments } => {
            let report = d.get_prompt(name, arguments.clone()).await?;
            let mcpg_core::client::Answer::Prompt(p) = report.answer else {
                return Err(Failure::transport(format!(
                    "prompts/get {name:?} did not return a prompt"
                )));
            };
            let turns = mcpg_host::tool_loop::prompt_turns(&p.messages);
            // A seed holds words only (what `ToolLoop::from_turns` takes).
            let seed = turns
                .iter()
                .map(|t| t.words().map(SeedTurn::from_words))
                .collect();
            let message = turns
                .iter()
                .rev()
                .find_map(|t| match t {
                    Turn::User(text) => Some(text.clone()),
                    _ => None,
                })
                .unwrap_or_default();
            let run = ToolLoop::from_turns(turns, spec.provider(), opts)
                .map_err(|e| Failure::usage(format!("prompt {name:?}: {e}")))?;
            Ok((run, seed, message))
        }
    }
}

/// `mcpg loop`.
pub async fn run(args: &LoopArgs) -> Result<(), Failure> {
    let spec = ModelSpec::parse(&args.model).map_err(|e| Failure::usage(e.to_string()))?;
    let model = Model::new(spec).map_err(|e| Failure::usage(e.to_string()))?;
    let width = args.width.max(40);
    let json = args.json;
    let mut printed = 0usize;
    // The server's words reach the model's request (its instructions are the system
    // prompt): a header value it echoes is masked there too.
    let secrets = crate::connect::header_secrets(&args.conn);
    let hidden = secrets.clone();
    let each = move |r: &ToolLoop| {
        // A step is printed once it has finished (step 5 runs until the answer).
        while let Some(s) = r.steps().get(printed) {
            if s.status == mcpg_host::StepStatus::Running {
                break;
            }
            let shown = if json {
                print::json(s).to_string()
            } else {
                print::text(s, width)
            };
            println!("{}", crate::headers::scrub(&shown, &secrets));
            printed += 1;
        }
    };
    let hooks = Hooks {
        each: Box::new(each),
        pause: args.step,
    };
    let start = Start::Message(args.message.clone());
    let out = run_once(
        &args.conn,
        &model,
        &start,
        Retry::default(),
        args.name.as_deref(),
        hooks,
    )
    .await?;
    if let Some(path) = &args.save {
        std::fs::write(path, mcpg_recording::encode_file(&out.session))
            .map_err(|e| Failure::usage(format!("could not write {}: {e}", path.display())))?;
    }
    if args.share {
        let link = format!("#{}", mcpg_recording::encode_link(&out.session));
        if json {
            println!("{}", serde_json::json!({ "share": link }));
        } else {
            println!("share: {link}");
        }
    }
    match (&out.stopped, out.run.answer()) {
        (Some(why), _) => Err(Failure::transport(why.to_string())),
        (None, Some(answer)) if !json => {
            let answer = crate::headers::scrub(answer, &hidden);
            println!("answer: {}", crate::escape::text(&answer));
            Ok(())
        }
        _ => Ok(()),
    }
}

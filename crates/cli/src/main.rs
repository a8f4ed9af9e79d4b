//! `mcpg`: a command-line MCP client on the MCP Playground core: tools,
//! resources, prompts, completions, skills and log messages.
//!
//! Exit status: 0 success; 1 the tool returned `isError: true`; 2 usage error;
//! 3 JSON-RPC error from the server; 4 no usable answer (the server would not
//! start, died, timed out or sent garbage). Every failure prints one line to stderr,
//! and a `hint:` line under it when the advice table knows the refusal.

mod advice;
mod apps;
mod args;
mod asks;
mod auth;
mod bridge;
mod catalog;
mod commands;
mod conformance;
mod connect;
mod diff;
mod doctor;
mod escape;
mod eval;
mod exit;
mod headers;
mod lint_cmd;
mod logs;
mod loop_cmd;
mod mock;
mod render;
mod replay;
mod session_file;
mod skills;
mod task_lines;
mod tasks;

use std::process::ExitCode;

use clap::Parser;

use args::{AppsCommand, Cli, Command, ToolsCommand};

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    // The commands that report views declare MCP Apps support, so that a server
    // which registers its views only for such a client shows them.
    if let Command::Apps {
        command: AppsCommand::Check { conn, .. },
    }
    | Command::Tools {
        command: ToolsCommand::List { conn, .. },
    } = &mut cli.command
    {
        conn.apps = true;
    }
    // A replay declares what the recorded session declared, so that it sends the
    // recording's frames (a session recorded before the Tasks extension was
    // declared lists the tools the server showed such a client).
    if let Command::Replay { source, conn } = &mut cli.command {
        conn.tasks_extension = session_file::declares_tasks_extension(source);
    }
    if let Command::Diff(d) = &mut cli.command {
        d.conn.tasks_extension = session_file::declares_tasks_extension(&d.a);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcpg: could not start the async runtime: {e}");
            return ExitCode::from(exit::TRANSPORT);
        }
    };
    let outcome = runtime.block_on(async {
        match &cli.command {
            Command::Info { conn } => commands::info(conn).await,
            Command::Tools {
                command: ToolsCommand::List { conn, json },
            } => commands::list(conn, *json).await,
            Command::Tools {
                command: ToolsCommand::Lint(args),
            } => lint_cmd::run(args).await,
            Command::Tools {
                command:
                    ToolsCommand::Call {
                        conn,
                        tool,
                        args,
                        json,
                        task: false,
                        ..
                    },
            } => commands::call(conn, tool, args.as_deref(), *json).await,
            Command::Tools {
                command:
                    ToolsCommand::Call {
                        conn,
                        tool,
                        args,
                        json,
                        ttl,
                        ..
                    },
            } => tasks::call(conn, tool, args.as_deref(), *json, *ttl).await,
            Command::Tasks { command } => tasks::run(command).await,
            Command::Resources { command } => catalog::resources(command).await,
            Command::Prompts { command } => catalog::prompts(command).await,
            Command::Complete(c) => catalog::complete(c).await,
            Command::Skills { command } => skills::run(command).await,
            Command::Apps { command } => apps::run(command).await,
            Command::Auth { command } => auth::run(command).await,
            Command::ConformanceClient { url } => conformance::run(url).await,
            Command::Serve(args) => bridge::serve(args).await,
            Command::Demo(args) => bridge::demo(args).await,
            Command::Replay { source, conn } => replay::run(source, conn).await,
            Command::Mock { source, http } => mock::run(source, *http).await,
            Command::Diff(args) => diff::run(args).await,
            Command::Loop(args) => loop_cmd::run(args).await,
            Command::Eval(args) => eval::run(args).await,
            Command::Doctor(args) => doctor::run(args).await,
        }
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            // Failure lines often quote the server: no control characters through.
            eprintln!("mcpg: {}", escape::line(&f.message));
            if let Some(hint) = advice::hint(&f) {
                eprintln!("hint: {}", escape::line(&hint));
            }
            ExitCode::from(f.code)
        }
    }
}

//! `rmcp-peer`: a small MCP server built on rmcp, the official Rust SDK.
//!
//! The MCP Playground tests talk to it as a third-party peer that speaks
//! protocol 2026-07-28 (and every earlier version rmcp knows). It serves stdio
//! by default; `--http PORT` serves Streamable HTTP on 127.0.0.1 at `/mcp`.
//!
//! Tools: `add`, `echo`, `forecast` (an `x-mcp-header` argument), `fail`,
//! `crash`, `item_00`..`item_24`, which
//! exist only so that `tools/list` has enough entries to be paginated
//! (pages of [`PAGE_SIZE`]), and the task tools `slow_sum` and
//! `slow_sum_confirm` (see [`tasks`]; the server declares the
//! `io.modelcontextprotocol/tasks` extension).

use std::process::ExitCode;
use std::sync::Arc;

use rmcp::handler::server::common::schema_for_output;
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CacheScope, CallToolResult, CancelTaskParams, ContentBlock, GetTaskParams, GetTaskResult,
    Implementation, JsonObject, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ResultType, ServerCapabilities, ServerConfig, Tool, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::TaskManager;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::{
    ErrorData, RoleServer, ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router,
};
use serde::{Deserialize, Serialize};

mod tasks;

/// How many tools one `tools/list` page holds: small, so that the 32 tools
/// span four pages and clients must follow `nextCursor`.
const PAGE_SIZE: usize = 10;

/// How many filler tools (`item_00`..) exist to make pagination observable.
const FILLER_TOOLS: usize = 25;

/// Arguments of `add`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct AddArgs {
    /// The left operand.
    a: i64,
    /// The right operand.
    b: i64,
}

/// Structured result of `add`; the same shape the Python SDK gives a tool
/// annotated `-> int` (`{"result": N}`), so tests can treat both peers alike.
#[derive(Debug, Serialize, schemars::JsonSchema)]
struct AddOutput {
    /// The sum `a + b`.
    result: i64,
}

/// Arguments of `echo`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The text to send back.
    text: String,
}

/// Arguments of `forecast`: `city` travels in the body and, under 2026-07-28, in
/// an `Mcp-Param-City` header too (`x-mcp-header`), which rmcp checks.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ForecastArgs {
    /// The city.
    #[schemars(extend("x-mcp-header" = "City"))]
    city: String,
}

/// Arguments of `fail`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct FailArgs {
    /// The message the error result carries.
    reason: String,
}

/// The server: a tool router and the tasks it runs.
#[derive(Clone)]
struct Peer {
    /// Routes `tools/call` by name; also the source of `tools/list`.
    tool_router: ToolRouter<Self>,
    /// The running and finished tasks, shared by every `Peer` of the process:
    /// a stateless (2026-07-28) HTTP server builds one per request, and a task
    /// created by one request is polled by the next.
    tasks: TaskManager,
}

#[tool_router]
impl Peer {
    /// Builds the router (the macro-declared tools, the filler tools and the
    /// task tools) over the process's `tasks`.
    fn new(tasks: TaskManager) -> Self {
        let mut tool_router = Self::tool_router();
        for index in 0..FILLER_TOOLS {
            tool_router.add_route(filler_route(index));
        }
        tool_router.merge(Self::task_router());
        Self { tool_router, tasks }
    }

    #[tool(
        description = "Add two integers; the sum comes back as text and as structuredContent {\"result\": sum}.",
        output_schema = schema_for_output::<AddOutput>()
    )]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> CallToolResult {
        // Built by hand rather than with `Json<AddOutput>` so the text block is
        // the bare number (as in the Python peer), not the serialized object.
        let sum = a.wrapping_add(b);
        let mut result = CallToolResult::success(vec![ContentBlock::text(sum.to_string())]);
        result.structured_content = Some(serde_json::json!({ "result": sum }));
        result
    }

    #[tool(description = "Return the given text unchanged.")]
    fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }

    #[tool(
        description = "Tomorrow's weather for a city. Under 2026-07-28 the city is also sent as the Mcp-Param-City header."
    )]
    fn forecast(&self, Parameters(ForecastArgs { city }): Parameters<ForecastArgs>) -> String {
        format!("{city}: sunny tomorrow")
    }

    #[tool(
        description = "Always fails: returns a result with isError true and the reason as text."
    )]
    fn fail(&self, Parameters(FailArgs { reason }): Parameters<FailArgs>) -> CallToolResult {
        CallToolResult::error(vec![ContentBlock::text(reason)])
    }

    #[tool(description = "Kill the whole server process (exit code 3) in the middle of the call.")]
    fn crash(&self) -> CallToolResult {
        // The point is a peer that dies mid-call: no answer, no cleanup.
        std::process::exit(3)
    }
}

/// One filler tool `item_NN` taking no arguments and answering its own name.
fn filler_route(index: usize) -> ToolRoute<Peer> {
    let name = format!("item_{index:02}");
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), JsonObject::new().into());
    let tool = Tool::new(
        name.clone(),
        format!("Filler tool number {index}; answers its own name."),
        Arc::new(schema),
    );
    ToolRoute::new_dyn(tool, move |_context| {
        let name = name.clone();
        Box::pin(async move { Ok(CallToolResult::success(vec![ContentBlock::text(name)]).into()) })
    })
}

// `router = self.tool_router`: the default (`Self::tool_router()`) would rebuild
// the macro-only router and miss the filler tools added in `Peer::new`.
#[tool_handler(router = self.tool_router)]
impl ServerHandler for Peer {
    /// Tools and the Tasks extension, as rmcp declares it (`extensions`).
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tasks()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new("rmcp-peer", "0.1.0"))
    }

    /// `tasks/get`, answered by rmcp's task manager.
    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.tasks.get_task(&request.task_id)?))
    }

    /// `tasks/update`: the client's `inputResponses`, delivered by rmcp.
    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks
            .update_task(&request.task_id, request.input_responses)
    }

    /// `tasks/cancel`: rmcp records it and the task stops at its next step.
    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.cancel_task(&request.task_id)
    }

    /// `tools/list` in pages of [`PAGE_SIZE`]; the cursor is the decimal
    /// offset of the page's first tool (opaque to clients, simple to debug).
    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let all = self.tool_router.list_all();
        let start = match request.and_then(|params| params.cursor) {
            None => 0,
            Some(cursor) => match cursor.parse::<usize>() {
                Ok(offset) if offset < all.len() => offset,
                _ => {
                    return Err(ErrorData::invalid_params(
                        format!("invalid cursor: {cursor:?}"),
                        None,
                    ));
                }
            },
        };
        let end = (start + PAGE_SIZE).min(all.len());
        let next_cursor = (end < all.len()).then(|| end.to_string());
        // Same cache hints as rmcp's generated `list_tools`: only 2026-07-28
        // and later know these fields.
        let supports_cache_hints = context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
        let mut result = ListToolsResult::with_all_items(all[start..end].to_vec());
        result.result_type = Some(ResultType::COMPLETE);
        result.next_cursor = next_cursor;
        result.ttl_ms = supports_cache_hints.then_some(0);
        result.cache_scope = supports_cache_hints.then_some(CacheScope::Public);
        Ok(result)
    }
}

/// How the server was asked to run.
enum Mode {
    /// Newline-delimited JSON-RPC on stdin/stdout.
    Stdio,
    /// Streamable HTTP on 127.0.0.1:PORT at `/mcp`.
    Http(u16),
}

/// Parses `[--http PORT]`; anything else is a usage error.
fn parse_args(args: &[String]) -> Result<Mode, String> {
    match args {
        [] => Ok(Mode::Stdio),
        [flag, port] if flag == "--http" => port
            .parse::<u16>()
            .map(Mode::Http)
            .map_err(|e| format!("bad port {port:?}: {e}")),
        _ => Err("usage: rmcp-peer [--http PORT]".to_owned()),
    }
}

/// Serves one session on stdio until the client closes stdin.
async fn serve_stdio() -> Result<(), String> {
    let running = Peer::new(TaskManager::new())
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| format!("stdio session failed to start: {e}"))?;
    running
        .waiting()
        .await
        .map_err(|e| format!("stdio session ended with an error: {e}"))?;
    Ok(())
}

/// Serves Streamable HTTP on loopback until the process is killed.
async fn serve_http(port: u16) -> Result<(), String> {
    let tasks = TaskManager::new();
    let service: StreamableHttpService<Peer, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(Peer::new(tasks.clone())),
        Arc::default(),
        StreamableHttpServerConfig::default(),
    );
    // Permissive CORS (as server-everything sends), so the page can reach it
    // straight from the browser with every MCP header, `Mcp-Param-*` included.
    let cors = tower_http::cors::CorsLayer::very_permissive()
        .expose_headers([axum::http::HeaderName::from_static("mcp-session-id")]);
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(cors);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    // Tests wait for this line to know the port is open.
    eprintln!("rmcp-peer listening on http://127.0.0.1:{port}/mcp");
    axum::serve(listener, router)
        .await
        .map_err(|e| format!("HTTP server failed: {e}"))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match parse_args(&args) {
        Ok(Mode::Stdio) => serve_stdio().await,
        Ok(Mode::Http(port)) => serve_http(port).await,
        Err(usage) => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("rmcp-peer: {message}");
            ExitCode::FAILURE
        }
    }
}

//! The picture of the loop: a sequence diagram computed from the loop's steps.
//!
//! A pure projection, with no state of its own: the page hands in the steps it
//! already shows (the same `Vec<Step>` the step cards render) and which one is
//! current, and gets back every arrow with its lanes, label, kind and coordinates in
//! a fixed `viewBox` ([`WIDTH`] × [`Diagram::height`]). The page's component only
//! draws what comes out, so the geometry is tested natively.
//!
//! ```text
//!   User      Model      Host      MCP server
//!    │──"message"──────────▶│            │
//!    │          │           │─tools/list▶│  step 1 (one pair, "×N" for N pages)
//!    │          │           │◀──tools────│
//!    │          │           │──┐ reshape    step 2 (host action: a self-arrow)
//!    │          │◀─request──│            │  step 3 (request, then the pick)
//!    │          │──picks───▶│            │
//!    │          │         ┌par ×2────────┐ parallel calls of one model turn
//!    │          │         │ │─tools/call▶│  step 4
//!    │          │         │ │◀─result────│  step 5 (isError / JSON-RPC error in red)
//!    │          │         └──────────────┘
//!    │          │◀─feed back│            │  step 6
//!    │          │──answers─▶│            │
//!    │◀─────answer──────────│            │
//! ```
//!
//! A tool that links an MCP Apps view adds the view's lifeline between the model
//! and the host, and the view's arrows right after its call's step 5:
//!
//! ```text
//!   User   Model   View         Host      MCP server
//!    │       │      │◀─tool-result─│            │  the host hands the view its result
//!    │       │      │─tools/call──▶│            │  the view asks the host
//!    │       │      │              │─tools/call▶│  the host sends it as its own
//!    │       │      │              │◀──result───│
//!    │       │      │◀───result────│            │
//! ```

mod geometry;
mod read;
mod rows;

pub use geometry::{HEAD, LANE_TOP, ROW, WIDTH, WIDTH_WITH_VIEW};

use mcpg_loop_data::{Provider, Step};
use mcpg_page::{AppLifeline, AppView};

/// A participant of the loop: one vertical lane of the diagram, left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    /// The learner typing the message.
    User,
    /// The LLM behind the host.
    Model,
    /// An MCP Apps view the host shows for a tool's result (drawn only while one
    /// is hosted).
    View,
    /// The host (this page): the MCP client and the model's caller.
    Host,
    /// The MCP server.
    Server,
}

impl Lane {
    /// Every lane, left to right. The model sits between the user and the host so
    /// that the many host↔model and host↔server arrows are short and only the two
    /// user arrows cross a lane; a view sits next to the host, so host↔view arrows
    /// are short too.
    pub const ALL: [Lane; 5] = [
        Lane::User,
        Lane::Model,
        Lane::View,
        Lane::Host,
        Lane::Server,
    ];

    /// The lanes of a loop without a view.
    pub const LOOP: [Lane; 4] = [Lane::User, Lane::Model, Lane::Host, Lane::Server];

    /// The lane's heading.
    pub fn label(self) -> &'static str {
        match self {
            Lane::User => "User",
            Lane::Model => "Model",
            Lane::View => "View",
            Lane::Host => "Host",
            Lane::Server => "MCP server",
        }
    }

    /// The lane as words in a sentence ("the MCP server").
    pub fn phrase(self) -> &'static str {
        match self {
            Lane::User => "the user",
            Lane::Model => "the model",
            Lane::View => "the tool's view",
            Lane::Host => "the host",
            Lane::Server => "the MCP server",
        }
    }
}

/// What an arrow stands for, which is how it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrowKind {
    /// Crosses the wire between host and server (steps 1, 4, 5): the "over MCP" colour.
    Mcp,
    /// Host work and the host's talk with the model (steps 2, 3, 6): the "inside the
    /// host" colour.
    Host,
    /// The learner's message and the final answer (the chat, not the loop).
    User,
    /// A `CallToolResult` with `isError: true`: the tool failed, the protocol did not.
    ToolError,
    /// A JSON-RPC error response: no result at all.
    ProtocolError,
    /// Nothing usable came back (timeout, cancel, transport, a model's HTTP error),
    /// or a request was never sent.
    Failed,
    /// "The server asks": a request from the server to the host while a call waits
    /// (sampling, elicitation, roots, or a 2026-07-28 `input_required`), server →
    /// host, and the host's answer, host → server.
    ServerRequest,
    /// Between an MCP Apps view and the host (postMessage, not MCP): the result the
    /// view is handed, and the calls it asks the host to make.
    App,
}

impl ArrowKind {
    /// The CSS class suffix and test hook ("mcp", "host", "tool-error", …).
    pub fn as_str(self) -> &'static str {
        match self {
            ArrowKind::Mcp => "mcp",
            ArrowKind::Host => "host",
            ArrowKind::User => "user",
            ArrowKind::ToolError => "tool-error",
            ArrowKind::ProtocolError => "protocol-error",
            ArrowKind::Failed => "failed",
            ArrowKind::ServerRequest => "server-request",
            ArrowKind::App => "app",
        }
    }

    /// Whether the arrow reports a failure (drawn in red with its label).
    pub fn is_error(self) -> bool {
        matches!(
            self,
            ArrowKind::ToolError | ArrowKind::ProtocolError | ArrowKind::Failed
        )
    }

    /// Where it happens, in words, for screen readers.
    fn phrase(self) -> &'static str {
        match self {
            ArrowKind::Mcp | ArrowKind::ServerRequest => "over MCP",
            ArrowKind::Host => "inside the host",
            ArrowKind::User => "in the chat",
            ArrowKind::ToolError => "over MCP, a tool error (isError)",
            ArrowKind::ProtocolError => "over MCP, a JSON-RPC error",
            ArrowKind::Failed => "failed",
            ArrowKind::App => "between the view and the host",
        }
    }
}

/// Where clicking an arrow leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The step at this index of the steps handed in (its card and JSON).
    Step(usize),
    /// The model's final answer.
    Answer,
    /// An MCP Apps view's card: its id, and the index in the steps handed in of
    /// the step 5 whose result it shows.
    View {
        /// The view ([`AppView::id`]).
        id: u64,
        /// Its step 5.
        step: usize,
    },
}

impl Target {
    /// The index of the step it belongs to, if any (the answer belongs to none).
    pub fn step(self) -> Option<usize> {
        match self {
            Target::Step(i) | Target::View { step: i, .. } => Some(i),
            Target::Answer => None,
        }
    }
}

/// Which way an arrow's label is anchored (SVG `text-anchor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Centred on the arrow.
    Middle,
    /// Starting at the point (beside a self-arrow).
    Start,
}

impl Anchor {
    /// The SVG value.
    pub fn as_str(self) -> &'static str {
        match self {
            Anchor::Middle => "middle",
            Anchor::Start => "start",
        }
    }
}

/// One arrow, placed.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// Where it starts.
    pub from: Lane,
    /// Where it points (equal to `from` for host work: a self-arrow).
    pub to: Lane,
    /// What it stands for.
    pub kind: ArrowKind,
    /// The label as drawn (shortened with "…" to fit between its lanes).
    pub label: String,
    /// The whole label and what the arrow is, for screen readers and the tooltip:
    /// "Step 4, over MCP, from the host to the MCP server: tools/call get_weather".
    pub description: String,
    /// The step number it belongs to (1 to 6), when it is a step's.
    pub number: Option<u8>,
    /// Whether this row shows the step's number (the first row of a step).
    pub shows_number: bool,
    /// Where clicking it leads; `None` for the learner's message.
    pub target: Option<Target>,
    /// Whether it belongs to the current step.
    pub current: bool,
    /// Whether it is still under way (a listing or a call waiting for its answer).
    pub running: bool,
    /// The top of the arrow's row (its highlight and click area is the whole row,
    /// [`ROW`] high and [`WIDTH`] wide), in `viewBox` units.
    pub top: u32,
    /// The shaft's y, in `viewBox` units.
    pub y: u32,
    /// The shaft, as SVG path data.
    pub path: String,
    /// The arrowhead, as SVG polygon points.
    pub head: String,
    /// Where the label goes, and how it is anchored.
    pub label_at: (u32, u32, Anchor),
}

/// A frame around arrows that belong together: the calls of one model turn
/// (`par`), or one call's task (`task`: its handle, polls and result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// What it frames.
    pub kind: FrameKind,
    /// The frame's tag ("par · 2 calls", "task").
    pub label: String,
    /// How many calls it holds.
    pub calls: usize,
    /// Top-left corner and size, in `viewBox` units.
    pub x: u32,
    /// Top.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// What a [`Frame`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// The calls of one model turn.
    Par,
    /// One call that ran as a task.
    Task,
}

impl FrameKind {
    /// The test hook's suffix ("par", "task").
    pub fn as_str(self) -> &'static str {
        match self {
            FrameKind::Par => "par",
            FrameKind::Task => "task",
        }
    }
}

/// An MCP Apps view, as the picture draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramView {
    /// The view ([`AppView::id`]).
    pub id: u64,
    /// The index in the steps of the step 5 whose result it shows.
    pub step: usize,
    /// The tool whose view it is.
    pub tool: String,
    /// The tools it called through the host that were answered, in order.
    pub calls: Vec<String>,
    /// The host still holds the result: the view has not finished its handshake.
    pub waiting: bool,
}

/// The views the page hosts (`apps`, with where each belongs: `lifelines`), as the
/// picture draws them: one that could not be hosted (no frame, no dialogue), has no
/// step 5, or is tearing down (its loop was reset, and its step's index may already
/// name a new loop's step) draws nothing.
pub fn views_of(apps: &[AppView], lifelines: &[AppLifeline]) -> Vec<DiagramView> {
    lifelines
        .iter()
        .filter_map(|l| {
            let v = apps.iter().find(|v| v.id == l.view)?;
            let drawn = !matches!(v.status, "not hosted" | "tearing down");
            drawn.then(|| DiagramView {
                id: v.id,
                step: l.step,
                tool: v.tool.clone(),
                calls: l.calls.clone(),
                waiting: v.status == "loading",
            })
        })
        .collect()
}

/// What the diagram is drawn from: the page's own state, nothing more.
#[derive(Clone, Copy, Debug)]
pub struct DiagramInput<'a> {
    /// The loop's steps, as the step cards show them.
    pub steps: &'a [Step],
    /// The learner's message of this loop (the first arrow), when the loop started.
    pub prompt: Option<&'a str>,
    /// Whether the model's final answer is shown (the last arrow).
    pub answered: bool,
    /// The model API format, for step 2's label.
    pub provider: Provider,
    /// The step the loop performs next (`Page`'s `next_step`): a model turn
    /// that is the last step so far "picks a tool" when step 4 comes next.
    pub next_step: Option<u8>,
    /// The index in `steps` of the step to highlight.
    pub current: Option<usize>,
    /// The MCP Apps views hosted for this loop's results.
    pub views: &'a [DiagramView],
    /// The user messages after the first, in order: a done loop goes on from step
    /// 3 with each (a view's `ui/message` speaks for the user). The last ones are
    /// drawn, one before each step 3 that follows a step 6.
    pub follow_ups: &'a [String],
}

/// The whole picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    /// The lanes drawn, left to right: [`Lane::LOOP`], or [`Lane::ALL`] when a view
    /// is hosted.
    pub lanes: Vec<Lane>,
    /// The `viewBox` width ([`WIDTH`], or [`WIDTH_WITH_VIEW`] with the view's lane).
    pub width: u32,
    /// Every arrow, top to bottom.
    pub arrows: Vec<Arrow>,
    /// `par` frames around parallel calls.
    pub frames: Vec<Frame>,
    /// The `viewBox` height (the width is [`WIDTH`]).
    pub height: u32,
    /// The current step in words ("Current: step 4, tools/call get_weather, over
    /// MCP"), or what to do when nothing happened yet.
    pub status: String,
}

impl Diagram {
    /// The x of a lane's lifeline, in `viewBox` units (it depends on the lanes
    /// drawn).
    pub fn lane_x(&self, lane: Lane) -> u32 {
        geometry::Layout::of(&self.lanes).x(lane)
    }
}

/// The diagram of `input`'s steps.
pub fn diagram(input: &DiagramInput<'_>) -> Diagram {
    let rows = rows::rows(input);
    let lanes: Vec<Lane> = if rows::shown_views(input).next().is_some() {
        Lane::ALL.to_vec()
    } else {
        Lane::LOOP.to_vec()
    };
    let layout = geometry::Layout::of(&lanes);
    let placed = geometry::place(&rows, layout);
    let status = status(&placed.arrows, input.steps.is_empty());
    Diagram {
        width: layout.width,
        lanes,
        arrows: placed.arrows,
        frames: placed.frames,
        height: placed.height,
        status,
    }
}

/// The current step in words, from the highlighted arrows.
fn status(arrows: &[Arrow], empty: bool) -> String {
    if empty {
        return "No loop yet: Step or Run draws it here, one arrow per message.".to_owned();
    }
    let current: Vec<&Arrow> = arrows.iter().filter(|a| a.current).collect();
    if current.is_empty() {
        return "The loop is drawn above; no step is selected.".to_owned();
    }
    let labels: Vec<&str> = current.iter().map(|a| a.description.as_str()).collect();
    let running = if current.iter().any(|a| a.running) {
        " (under way)"
    } else {
        ""
    };
    format!("Current: {}{running}.", labels.join("; "))
}

//! Rows to coordinates in a fixed `viewBox`: lanes at fixed x (one set for the
//! loop's four lanes, one with a view's lane), one row per arrow, `par` frames
//! around parallel calls, labels shortened to fit between their lanes.

use super::rows::{Item, Row};
use super::{Anchor, Arrow, Frame, FrameKind, Lane};

/// The `viewBox` width of the loop's four lanes.
pub const WIDTH: u32 = 640;
/// The `viewBox` width with a view's lane: wider rather than tighter, so a view's
/// folded calls ("tools/call get_forecast ×2") fit whole between the view and the
/// host and between the host and the server, and the room right of the host stays.
pub const WIDTH_WITH_VIEW: u32 = 740;
/// Where the first row starts (below the lane headings).
pub const LANE_TOP: u32 = 40;
/// The height of one arrow's row.
pub const ROW: u32 = 27;
/// The length of an arrowhead.
pub const HEAD: u32 = 8;
/// Room for a `par` frame's tag above its first row.
const FRAME_TAG: u32 = 20;
/// Room below a frame's last row, and after the frame.
const FRAME_GAP: u32 = 6;
/// How far a frame reaches beyond the lanes it holds.
const FRAME_MARGIN: u32 = 26;
/// How far a self-arrow (host work) reaches to the right.
const LOOP_WIDTH: u32 = 26;
/// What ten characters of a label take, on average, at the page's label size (13
/// units, semi-bold): measured in Chromium on "tools/call get_weather".
const TEN_CHARS: u32 = 75;
/// The same beside a self-arrow, whose labels carry a capitalised name
/// ("reshape → OpenAI Responses").
const TEN_CHARS_NAMES: u32 = 82;

/// Where the lanes stand: which set, and how wide the picture is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    with_view: bool,
    pub width: u32,
}

impl Layout {
    /// The layout of `lanes` (the set with a view's lane when it holds one).
    pub(super) fn of(lanes: &[Lane]) -> Layout {
        let with_view = lanes.contains(&Lane::View);
        Layout {
            with_view,
            width: if with_view { WIDTH_WITH_VIEW } else { WIDTH },
        }
    }

    /// The x of a lane's lifeline. The host gets the middle; the user lane only
    /// carries the message and the answer. With a view, lane boxes (104 wide) sit
    /// 6 apart on the left, where only the chat's and the model's arrows pass.
    pub(super) fn x(self, lane: Lane) -> u32 {
        match (self.with_view, lane) {
            (false, Lane::User) => 70,
            (false, Lane::Model) => 225,
            // Not drawn without a view: where it would be, between model and host.
            (false, Lane::View) => 305,
            (false, Lane::Host) => 385,
            (false, Lane::Server) => 570,
            (true, Lane::User) => 56,
            (true, Lane::Model) => 166,
            (true, Lane::View) => 276,
            (true, Lane::Host) => 480,
            (true, Lane::Server) => 684,
        }
    }
}

/// Arrows, frames and the total height.
pub(super) struct Placed {
    pub arrows: Vec<Arrow>,
    pub frames: Vec<Frame>,
    pub height: u32,
}

/// A frame being drawn: its kind, top, tag, calls, and the leftmost lane x of the
/// rows inside.
type Open = (FrameKind, u32, String, usize, u32);

/// Places `items` top to bottom.
pub(super) fn place(items: &[Item], layout: Layout) -> Placed {
    let mut y = LANE_TOP;
    let mut arrows = Vec::new();
    let mut frames = Vec::new();
    let mut open: Option<Open> = None;
    for item in items {
        match item {
            Item::Row(row) => {
                if let Some(o) = &mut open {
                    o.4 = o.4.min(layout.x(row.from)).min(layout.x(row.to));
                }
                arrows.push(arrow(row, y, layout));
                y += ROW;
            }
            Item::OpenPar { calls, complete } => {
                let label = if *complete {
                    format!("par · {calls} calls")
                } else {
                    "par".to_owned()
                };
                open = Some((FrameKind::Par, y, label, *calls, layout.x(Lane::Host)));
                y += FRAME_TAG;
            }
            Item::OpenTask => {
                open = Some((
                    FrameKind::Task,
                    y,
                    "task".to_owned(),
                    1,
                    layout.x(Lane::Host),
                ));
                y += FRAME_TAG;
            }
            Item::ClosePar => {
                if let Some(o) = open.take() {
                    y += FRAME_GAP;
                    frames.push(frame(o, y, layout));
                    y += FRAME_GAP;
                }
            }
        }
    }
    // A frame still open (the rows stopped inside it) closes at the bottom.
    if let Some(o) = open {
        y += FRAME_GAP;
        frames.push(frame(o, y, layout));
    }
    Placed {
        arrows,
        frames,
        height: y + 10,
    }
}

/// A frame from its top to `bottom` around the host and server lanes, and the
/// view's when its rows reach it.
fn frame((kind, top, label, calls, left): Open, bottom: u32, layout: Layout) -> Frame {
    let x = left.saturating_sub(FRAME_MARGIN);
    Frame {
        kind,
        label,
        calls,
        x,
        y: top + 2,
        width: layout.x(Lane::Server) + FRAME_MARGIN - x,
        height: bottom.saturating_sub(top + 2),
    }
}

/// One row's arrow, in the row starting at `top`.
fn arrow(row: &Row, top: u32, layout: Layout) -> Arrow {
    // The shaft sits low in the row, the label above it.
    let y = top + ROW - 7;
    let (x1, x2) = (layout.x(row.from), layout.x(row.to));
    let (path, head, label_at, room) = if x1 == x2 {
        // Host work: out to the right, down, and back into the same lane.
        let (top, bottom) = (y - 14, y);
        let path = format!(
            "M {x1} {top} H {} V {bottom} H {}",
            x1 + LOOP_WIDTH,
            x1 + HEAD
        );
        let head = format!(
            "{x1},{bottom} {},{} {},{}",
            x1 + HEAD,
            bottom - 5,
            x1 + HEAD,
            bottom + 5
        );
        let at = (x1 + LOOP_WIDTH + 6, y - 3, Anchor::Start);
        let room = layout.width - (x1 + LOOP_WIDTH + 10);
        (path, head, at, room * TEN_CHARS / TEN_CHARS_NAMES)
    } else {
        // The shaft stops where the head's base starts.
        let base = if x2 > x1 { x2 - HEAD } else { x2 + HEAD };
        let path = format!("M {x1} {y} H {base}");
        let head = format!("{x2},{y} {base},{} {base},{}", y - 5, y + 5);
        let at = ((x1 + x2) / 2, y - 7, Anchor::Middle);
        (path, head, at, x1.abs_diff(x2) - 8)
    };
    let label = shorten(&row.label, (room * 10 / TEN_CHARS) as usize);
    // WCAG's "label in name": the accessible name must contain the visible text,
    // and a shortened label ("tools/call toggle-subscri…") is not in the full one.
    let description = if label == row.label {
        row.description.clone()
    } else {
        format!("{}, shown as {label}", row.description)
    };
    Arrow {
        from: row.from,
        to: row.to,
        kind: row.kind,
        label,
        description,
        number: row.number,
        shows_number: row.shows_number,
        target: row.target,
        current: row.current,
        running: row.running,
        top,
        y,
        path,
        head,
        label_at,
    }
}

/// `text` cut to `max` characters, ending in "…" when cut (on a char boundary).
pub(super) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn shorten_cuts_on_characters_and_marks_the_cut() {
        assert_eq!(shorten("tools/list", 20), "tools/list");
        assert_eq!(shorten("tools/call get_weather_icon", 12), "tools/call…");
        assert_eq!(shorten("“Wetter in München?”", 12), "“Wetter in…");
        assert_eq!(shorten("ab", 0), "…");
    }
}

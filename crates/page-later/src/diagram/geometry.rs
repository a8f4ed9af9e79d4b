//! Rows to coordinates in a fixed `viewBox`: lanes at fixed x, one row per arrow,
//! `par` frames around parallel calls, labels shortened to fit between their lanes.

use super::rows::{Item, Row};
use super::{Anchor, Arrow, Frame, Lane};

/// The `viewBox` width.
pub const WIDTH: u32 = 640;
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

/// The x of a lane's lifeline. The host gets the middle; the user lane only carries
/// the message and the answer.
pub(super) fn lane_x(lane: Lane) -> u32 {
    match lane {
        Lane::User => 70,
        Lane::Model => 225,
        Lane::Host => 385,
        Lane::Server => 570,
    }
}

/// Arrows, frames and the total height.
pub(super) struct Placed {
    pub arrows: Vec<Arrow>,
    pub frames: Vec<Frame>,
    pub height: u32,
}

/// Places `items` top to bottom.
pub(super) fn place(items: &[Item]) -> Placed {
    let mut y = LANE_TOP;
    let mut arrows = Vec::new();
    let mut frames = Vec::new();
    let mut open: Option<(u32, usize, bool)> = None;
    for item in items {
        match item {
            Item::Row(row) => {
                arrows.push(arrow(row, y));
                y += ROW;
            }
            Item::OpenPar { calls, complete } => {
                open = Some((y, *calls, *complete));
                y += FRAME_TAG;
            }
            Item::ClosePar => {
                if let Some((top, calls, complete)) = open.take() {
                    y += FRAME_GAP;
                    frames.push(frame(top, y, calls, complete));
                    y += FRAME_GAP;
                }
            }
        }
    }
    // A frame still open (the rows stopped inside it) closes at the bottom.
    if let Some((top, calls, complete)) = open {
        y += FRAME_GAP;
        frames.push(frame(top, y, calls, complete));
    }
    Placed {
        arrows,
        frames,
        height: y + 10,
    }
}

/// The `par` frame from `top` to `bottom` around the host and server lanes.
fn frame(top: u32, bottom: u32, calls: usize, complete: bool) -> Frame {
    let x = lane_x(Lane::Host).saturating_sub(FRAME_MARGIN);
    let label = if complete {
        format!("par · {calls} calls")
    } else {
        "par".to_owned()
    };
    Frame {
        label,
        calls,
        x,
        y: top + 2,
        width: lane_x(Lane::Server) + FRAME_MARGIN - x,
        height: bottom.saturating_sub(top + 2),
    }
}

/// One row's arrow, in the row starting at `top`.
fn arrow(row: &Row, top: u32) -> Arrow {
    // The shaft sits low in the row, the label above it.
    let y = top + ROW - 7;
    let (x1, x2) = (lane_x(row.from), lane_x(row.to));
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
        let room = WIDTH - (x1 + LOOP_WIDTH + 10);
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

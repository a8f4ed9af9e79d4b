//! One input applied: a command, a link's event (recognised as stale when it names
//! an older connection; HTTP answers for a closing link go to its machine), a model
//! reply, or the timer.

use crate::driver::PageDriver;
use crate::input::Input;
use crate::later::Later;
use crate::links::Link;
use crate::log::LogRow;
use crate::page::Page;

impl PageDriver {
    /// Applies one input (the pump runs after it).
    pub(crate) fn apply(&mut self, input: Input) {
        match input {
            Input::Later(kit) => self.later_ready(kit),
            Input::LaterFailed(why) => self.later_failed(&why),
            input => self.page_mut().apply(input),
        }
    }
}

impl Page {
    /// Applies one input that is the first screen's.
    fn apply(&mut self, input: Input) {
        let now = self.now;
        match input {
            Input::Command(c) => self.command_when_ready(c),
            // The driver takes these before this (`PageDriver::apply`).
            Input::Later(_) | Input::LaterFailed(_) => {}
            Input::Frame { conn, .. }
            | Input::LinkOpened { conn }
            | Input::LinkClosed { conn, .. }
            | Input::BridgeEvent { conn, .. }
                if conn != self.conn =>
            {
                self.note(format!(
                    "ignored: something arrived for connection #{conn}, which was replaced by #{}",
                    self.conn
                ));
            }
            Input::Frame { text, .. } => self.client.handle_text(now, &text),
            Input::LinkOpened { .. } => self.link_opened(),
            Input::LinkClosed { why, .. } => self.client.handle_closed(now, &why),
            Input::Http { conn, event } => self.http_step(conn, event),
            Input::BridgeEvent { event, .. } => {
                let seq = self.log.next_seq();
                self.log.push(match event.describe() {
                    None => LogRow::Stderr {
                        seq,
                        line: match event {
                            crate::BridgeEvent::Side(mcpg_bridge_api::SideEvent::Stderr {
                                line,
                            }) => line,
                            _ => String::new(),
                        },
                    },
                    Some(text) => LogRow::Note { seq, text },
                });
            }
            Input::ModelReply { loop_id, reply } => {
                self.queue_later(Later::ModelReply { loop_id, reply });
            }
            Input::SampleReply { ask, reply } => {
                self.queue_later(Later::SampleReply { ask, reply })
            }
            Input::Timer => self.timer(),
        }
    }

    fn timer(&mut self) {
        let now = self.now;
        if let Link::Memory(m) = &mut self.link
            && m.poll_timeout().is_some_and(|t| t <= now)
        {
            m.handle_timeout(now);
        }
        self.http_timeout();
        self.client.handle_timeout(now);
        self.tell_later(Later::Timer);
    }
}

//! `tools/list`: following `nextCursor` page by page.

use serde_json::{Value, json};

use super::list_page::{NextStep, PageContext, next_step, read_page};
use super::{Client, Listing, Pending, What};
use super::{Event, Failure, OpError, OpId};
use crate::diag::{Diagnostic, Severity};
use crate::jsonrpc::Message;
use crate::time::Timestamp;

impl Client {
    /// What the page readers need to know about `listing` and its page `msg`.
    pub(super) fn page_context<'a>(&self, listing: &'a Listing, msg: &Message) -> PageContext<'a> {
        PageContext {
            version: self.check_version(),
            page: listing.pages + 1,
            seen: &listing.names,
            raw: msg.raw_shared(),
        }
    }

    /// Lists every tool, following `nextCursor` to the end. Each page arrives as
    /// [`Event::ToolsPage`]; the end as [`Event::ToolsListed`] or [`Event::ToolsListFailed`].
    pub fn list_tools(&mut self, now: Timestamp) -> OpId {
        let op = self.new_op();
        self.listings.insert(op, Listing::default());
        let timeout = self.cfg.request_timeout;
        self.submit(now, op, What::ListPage, "tools/list", None, timeout);
        op
    }

    /// Applies one page: the pure reader (`list_page`) decides, this records the
    /// tools, emits the events and asks for the next page.
    pub(super) fn on_list_page(
        &mut self,
        now: Timestamp,
        p: Pending,
        msg: &Message,
        result: &Value,
    ) {
        let op = p.op;
        let Some(mut listing) = self.listings.remove(&op) else {
            return;
        };
        let cx = self.page_context(&listing, msg);
        let page = match read_page(result, &cx) {
            Ok(page) => page,
            Err(d) => {
                let error = OpError::Failed(Failure::Malformed(d.message.clone()));
                self.diag(d);
                self.events.push_back(Event::ToolsListFailed {
                    op,
                    pages: listing.pages,
                    error,
                });
                return;
            }
        };
        listing.pages += 1;
        if listing.pages == 1 {
            self.tools.clear();
            self.param_specs.clear();
            self.dropped.clear();
        }
        for d in page.diags {
            self.diag(d);
        }
        self.dropped.extend(page.dropped);
        for t in &page.tools {
            // A later tool of the same name that is valid wins over a dropped one.
            self.dropped.remove(&t.name);
            self.tools.insert(t.name.clone(), t.clone());
        }
        self.param_specs.extend(page.specs);
        listing.names.extend(page.names);
        listing.items += page.tools.len();
        let step = next_step(
            "tools/list",
            page.next_cursor.as_deref(),
            &listing.cursors,
            listing.pages,
            self.cfg.max_list_pages,
        );
        self.events.push_back(Event::ToolsPage {
            op,
            page: listing.pages,
            tools: page.tools,
            next_cursor: page.next_cursor,
            message: msg.clone(),
        });
        match step {
            NextStep::Done => self.events.push_back(Event::ToolsListed {
                op,
                pages: listing.pages,
                tools: listing.items,
            }),
            NextStep::Stop(rule, text) => {
                self.diag(Diagnostic::new(rule, Severity::Error, text.clone()));
                let error = OpError::Failed(Failure::Malformed(text));
                self.events.push_back(Event::ToolsListFailed {
                    op,
                    pages: listing.pages,
                    error,
                });
            }
            NextStep::Fetch(c) => {
                listing.cursors.insert(c.clone());
                self.listings.insert(op, listing);
                self.send_request(
                    now,
                    op,
                    What::ListPage,
                    "tools/list",
                    Some(json!({ "cursor": c })),
                    p.timeout,
                );
            }
        }
    }
}

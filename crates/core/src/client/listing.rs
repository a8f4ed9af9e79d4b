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

    /// A page whose result could not be read at all: raises its diagnostic and gives
    /// the error that ends the listing.
    pub(super) fn unreadable_page(&mut self, d: Diagnostic) -> OpError {
        let error = OpError::Failed(Failure::Malformed(d.message.clone()));
        self.diag(d);
        error
    }

    /// Goes on from a page the caller has reported: asks for the next page under
    /// `what` and `method` (keeping the listing), or says how the listing ended (a
    /// stop's diagnostic raised). Every kind of listing shares this; only the events
    /// the caller makes of [`PageEnd`] differ.
    pub(super) fn follow_page(
        &mut self,
        now: Timestamp,
        p: &Pending,
        mut listing: Listing,
        step: NextStep,
        what: What,
        method: &str,
    ) -> PageEnd {
        let pages = listing.pages;
        match step {
            NextStep::Done => PageEnd::Done {
                pages,
                count: listing.items,
            },
            NextStep::Stop(rule, text) => {
                self.diag(Diagnostic::new(rule, Severity::Error, text.clone()));
                let error = OpError::Failed(Failure::Malformed(text));
                PageEnd::Failed { pages, error }
            }
            NextStep::Fetch(c) => {
                listing.cursors.insert(c.clone());
                self.listings.insert(p.op, listing);
                let params = Some(json!({ "cursor": c }));
                self.send_request(now, p.op, what, method, params, p.timeout);
                PageEnd::More
            }
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
                let error = self.unreadable_page(d);
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
        match self.follow_page(now, &p, listing, step, What::ListPage, "tools/list") {
            PageEnd::Done { pages, count } => self.events.push_back(Event::ToolsListed {
                op,
                pages,
                tools: count,
            }),
            PageEnd::Failed { pages, error } => {
                self.events
                    .push_back(Event::ToolsListFailed { op, pages, error });
            }
            PageEnd::More => {}
        }
    }
}

/// How a listing stands after one page, for the caller to report in its own events.
pub(super) enum PageEnd {
    /// The last page came: `pages` pages, `count` items in all.
    Done {
        /// Pages fetched.
        pages: u32,
        /// Items in all pages.
        count: usize,
    },
    /// The listing stopped (a repeated cursor, too many pages).
    Failed {
        /// Pages fetched before it stopped.
        pages: u32,
        /// Why.
        error: OpError,
    },
    /// The next page was asked for.
    More,
}

//! `resources/list`, `resources/templates/list` and `prompts/list`: following
//! `nextCursor` page by page with the same guards as `tools/list`.

use serde_json::Value;

use super::answers::ListKind;
use super::catalog_page::read_catalog_page;
use super::list_page::next_step;
use super::listing::PageEnd;
use super::{Client, Event, Listing, OpId, Pending, What};
use crate::jsonrpc::Message;
use crate::time::Timestamp;

impl Client {
    /// Lists every resource, following `nextCursor` to the end. Each page arrives as
    /// [`Event::ListPage`]; the end as [`Event::Listed`] or [`Event::ListFailed`].
    pub fn list_resources(&mut self, now: Timestamp) -> OpId {
        self.list(now, ListKind::Resources)
    }

    /// Lists every resource template, like [`Client::list_resources`].
    pub fn list_resource_templates(&mut self, now: Timestamp) -> OpId {
        self.list(now, ListKind::Templates)
    }

    /// Lists every prompt, like [`Client::list_resources`].
    pub fn list_prompts(&mut self, now: Timestamp) -> OpId {
        self.list(now, ListKind::Prompts)
    }

    fn list(&mut self, now: Timestamp, kind: ListKind) -> OpId {
        let op = self.new_op();
        self.listings.insert(op, Listing::default());
        let timeout = self.cfg.request_timeout;
        self.submit(now, op, What::List(kind), kind.method(), None, timeout);
        op
    }

    /// Applies one page: the pure reader decides, this emits the events and asks
    /// for the next page.
    pub(super) fn on_catalog_page(
        &mut self,
        now: Timestamp,
        p: Pending,
        kind: ListKind,
        msg: &Message,
        result: &Value,
    ) {
        let op = p.op;
        let Some(mut listing) = self.listings.remove(&op) else {
            return;
        };
        let cx = self.page_context(&listing, msg);
        let page = match read_catalog_page(kind, result, &cx) {
            Ok(page) => page,
            Err(d) => {
                let error = self.unreadable_page(d);
                let pages = listing.pages;
                self.events.push_back(Event::ListFailed {
                    op,
                    kind,
                    pages,
                    error,
                });
                return;
            }
        };
        listing.pages += 1;
        for d in page.diags {
            self.diag(d);
        }
        listing.names.extend(page.keys);
        listing.items += page.items.len();
        let step = next_step(
            kind.method(),
            page.next_cursor.as_deref(),
            &listing.cursors,
            listing.pages,
            self.cfg.max_list_pages,
        );
        self.events.push_back(Event::ListPage {
            op,
            kind,
            page: listing.pages,
            items: page.items,
            next_cursor: page.next_cursor,
            message: msg.clone(),
        });
        match self.follow_page(now, &p, listing, step, What::List(kind), kind.method()) {
            PageEnd::Done { pages, count } => self.events.push_back(Event::Listed {
                op,
                kind,
                pages,
                count,
            }),
            PageEnd::Failed { pages, error } => {
                self.events.push_back(Event::ListFailed {
                    op,
                    kind,
                    pages,
                    error,
                });
            }
            PageEnd::More => {}
        }
    }
}

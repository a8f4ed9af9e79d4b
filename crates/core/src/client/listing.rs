//! `tools/list`: following `nextCursor` page by page.

use serde_json::{Value, json};

use super::param_headers;
use super::{Client, Listing, Pending, What};
use super::{Event, Failure, OpError, OpId};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::Message;
use crate::model::Tool;
use crate::time::Timestamp;
use crate::validate;
use crate::version::{Generation, ProtocolVersion};

impl Client {
    /// Lists every tool, following `nextCursor` to the end. Each page arrives as
    /// [`Event::ToolsPage`]; the end as [`Event::ToolsListed`] or [`Event::ToolsListFailed`].
    pub fn list_tools(&mut self, now: Timestamp) -> OpId {
        let op = self.new_op();
        self.listings.insert(op, Listing::default());
        let timeout = self.cfg.request_timeout;
        self.submit(now, op, What::ListPage, "tools/list", None, timeout);
        op
    }

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
        let version = self
            .stamp_version()
            .unwrap_or(ProtocolVersion::LATEST_WITH_INITIALIZE);
        let Some(obj) = result.as_object() else {
            let d = Diagnostic::new(
                Rule::ResultShape,
                Severity::Error,
                "tools/list result is not an object",
            )
            .with_raw(msg.raw_shared());
            self.diag(d);
            let error = OpError::Failed(Failure::Malformed(
                "tools/list result is not an object".into(),
            ));
            self.events.push_back(Event::ToolsListFailed {
                op,
                pages: listing.pages,
                error,
            });
            return;
        };
        listing.pages += 1;
        if listing.pages == 1 {
            self.tools.clear();
            self.param_specs.clear();
            self.dropped.clear();
        }
        // `x-mcp-header` exists from 2026-07-28 on; older revisions never read it.
        let stateless = version.generation() == Generation::Stateless;
        let mut diags = Vec::new();
        let mut tools = Vec::new();
        let mut specs = Vec::new();
        match obj.get("tools") {
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    match Tool::from_json(item) {
                        Ok(t) => {
                            if stateless {
                                match param_headers::annotations(&t.input_schema) {
                                    Ok(found) if found.is_empty() => {}
                                    Ok(found) => specs.push((t.name.clone(), found)),
                                    Err(why) => {
                                        diags.push(Diagnostic::new(
                                            Rule::ParamHeader,
                                            Severity::Error,
                                            format!(
                                                "left out tool {:?}: {why} (clients must exclude tools with invalid x-mcp-header annotations)",
                                                t.name
                                            ),
                                        ));
                                        self.dropped.insert(t.name.clone(), why);
                                        continue;
                                    }
                                }
                            }
                            validate::check_tool(&t, version, &mut diags);
                            validate::check_unique(&t, &mut listing.names, &mut diags);
                            tools.push(t);
                        }
                        Err(e) => diags.push(Diagnostic::new(
                            Rule::ToolShape,
                            Severity::Error,
                            format!(
                                "tools[{i}] on page {} could not be read and was skipped: {e}",
                                listing.pages
                            ),
                        )),
                    }
                }
            }
            other => diags.push(Diagnostic::new(
                Rule::ResultShape,
                Severity::Error,
                format!(
                    "tools/list result has {} instead of a \"tools\" array",
                    other.map_or("nothing", validate::kind_of)
                ),
            )),
        }
        for d in diags {
            self.diag(d.with_raw(msg.raw_shared()));
        }
        let mut next = match obj.get("nextCursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(other) => {
                self.diag(Diagnostic::new(
                    Rule::ResultShape,
                    Severity::Error,
                    format!(
                        "nextCursor is {}, not a string; treating this page as the last",
                        validate::kind_of(other)
                    ),
                ));
                None
            }
        };
        if next.as_deref() == Some("") {
            self.diag(Diagnostic::new(Rule::RepeatingCursor, Severity::Warning, "nextCursor is an empty string; treating this page as the last (omit nextCursor to end a list)"));
            next = None;
        }
        for t in &tools {
            // A later tool of the same name that is valid wins over a dropped one.
            self.dropped.remove(&t.name);
            self.tools.insert(t.name.clone(), t.clone());
        }
        self.param_specs.extend(specs);
        listing.tools += tools.len();
        self.events.push_back(Event::ToolsPage {
            op,
            page: listing.pages,
            tools,
            next_cursor: next.clone(),
            message: msg.clone(),
        });
        match next {
            None => self.events.push_back(Event::ToolsListed {
                op,
                pages: listing.pages,
                tools: listing.tools,
            }),
            Some(c) if !listing.cursors.insert(c.clone()) => {
                let text = format!(
                    "tools/list returned cursor {:?} a second time (page {}); stopping instead of looping forever",
                    validate::truncate(&c, 60),
                    listing.pages
                );
                self.diag(Diagnostic::new(
                    Rule::RepeatingCursor,
                    Severity::Error,
                    text.clone(),
                ));
                let error = OpError::Failed(Failure::Malformed(text));
                self.events.push_back(Event::ToolsListFailed {
                    op,
                    pages: listing.pages,
                    error,
                });
            }
            Some(_) if listing.pages >= self.cfg.max_list_pages => {
                let text = format!(
                    "tools/list still had more after {} pages; stopping (limit {})",
                    listing.pages, self.cfg.max_list_pages
                );
                self.diag(Diagnostic::new(
                    Rule::TooManyPages,
                    Severity::Error,
                    text.clone(),
                ));
                let error = OpError::Failed(Failure::Malformed(text));
                self.events.push_back(Event::ToolsListFailed {
                    op,
                    pages: listing.pages,
                    error,
                });
            }
            Some(c) => {
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

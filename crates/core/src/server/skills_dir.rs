//! `resources/directory/read` of the Skills extension (SEP-2640), answered from
//! the skill entries ([`Server::set_skills`]): a skill's directories are its root
//! (its `SKILL.md` URI without `/SKILL.md`) and every folder its listed files sit
//! in, so the answer can never disagree with the manifests a host verifies against.

use serde_json::{Value, json};

use super::Server;
use super::dispatch::{invalid, string_param};
use super::paging;
use crate::jsonrpc::RpcError;

/// The `mimeType` of a directory resource.
const DIRECTORY_MIME: &str = "inode/directory";

impl Server {
    /// `resources/directory/read`: the direct children of `params.uri`, a page at a
    /// time; `-32602` for a URI that is no directory of a skill this server
    /// serves (a file's included), as the extension says.
    pub(super) fn read_directory(&self, params: Option<&Value>) -> Result<Value, RpcError> {
        let dir = string_param(params, "uri", "resources/directory/read")?;
        let children = self
            .directory_children(dir)
            .ok_or_else(|| invalid(format!("{dir} is not a directory resource")))?;
        let page = paging::page(params, children.len(), self.cfg.page_size)?;
        Ok(paging::result(
            "resources",
            Value::Array(children[page.start..page.end].to_vec()),
            page.next,
        ))
    }

    /// The children of `dir` (files, then folders, each once, in manifest order),
    /// or `None` when `dir` is no skill's root nor a folder of its files.
    fn directory_children(&self, dir: &str) -> Option<Vec<Value>> {
        let mut found = false;
        let (mut files, mut folders): (Vec<Value>, Vec<Value>) = (Vec::new(), Vec::new());
        let mut seen: Vec<String> = Vec::new();
        for skill in &self.skills {
            let Some(root) = skill
                .get("uri")
                .and_then(Value::as_str)
                .and_then(|u| u.strip_suffix("/SKILL.md"))
            else {
                continue;
            };
            // Only the skill's own tree: `dir` must be its root or below it.
            let inside_skill = dir == root
                || dir
                    .strip_prefix(root)
                    .is_some_and(|rest| rest.starts_with('/'));
            if !inside_skill {
                continue;
            }
            let listed = skill.get("resources").and_then(Value::as_array);
            for uri in listed
                .into_iter()
                .flatten()
                .filter_map(|f| f.get("uri")?.as_str())
            {
                let Some(rest) = uri.strip_prefix(dir).and_then(|r| r.strip_prefix('/')) else {
                    continue;
                };
                let Some(segment) = rest.split('/').next().filter(|s| !s.is_empty()) else {
                    continue;
                };
                found = true;
                let child = format!("{dir}/{segment}");
                if seen.contains(&child) {
                    continue;
                }
                seen.push(child.clone());
                if rest.len() > segment.len() {
                    folders
                        .push(json!({"uri": child, "name": segment, "mimeType": DIRECTORY_MIME}));
                } else {
                    files.push(self.file_child(&child, segment));
                }
            }
        }
        found.then(|| {
            files.extend(folders);
            files
        })
    }

    /// A file's `Resource`: the catalogue's when it lists the URI, else its name
    /// and the `mimeType` its extension says (none when unknown).
    fn file_child(&self, uri: &str, segment: &str) -> Value {
        if let Some(r) = self
            .resources
            .iter()
            .find(|r| r.get("uri").and_then(Value::as_str) == Some(uri))
        {
            return r.clone();
        }
        let mime = match segment.rsplit_once('.').map(|(_, ext)| ext) {
            Some("md") => Some("text/markdown"),
            Some("txt") => Some("text/plain"),
            Some("json") => Some("application/json"),
            _ => None,
        };
        let mut child = json!({"uri": uri, "name": segment});
        if let (Some(m), Value::Object(o)) = (mime, &mut child) {
            o.insert("mimeType".into(), Value::from(m));
        }
        child
    }
}

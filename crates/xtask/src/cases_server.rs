//! The Streamable HTTP cases server (`mcpg-http-cases`) around `mcpg-http`'s
//! browser tests: built, started on a free port, its URL handed to the wasm build
//! (`MCPG_HTTP_CASES_URL`, read with `option_env!`), killed afterwards.

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Child, Stdio};

use crate::util::{self, Result, command};

/// A running cases server; killed and reaped when dropped.
pub struct CasesServer {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl CasesServer {
    /// Builds and starts the server; returns once it printed its URL.
    pub fn start(root: &Path) -> Result<Self> {
        util::run(command(util::cargo(), root).args(["build", "-q", "-p", "mcpg-http-cases"]))?;
        let bin = util::target_dir(root).join("debug").join("mcpg-http-cases");
        let mut child = command(&bin, root)
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let first = child.stdout.take().and_then(|out| {
            BufReader::new(out)
                .lines()
                .next()
                .and_then(std::result::Result::ok)
        });
        let mut server = CasesServer {
            child,
            url: String::new(),
        };
        match first {
            Some(url) if url.starts_with("http://") => {
                println!("cases server at {url}");
                server.url = url;
                Ok(server)
            }
            other => Err(format!(
                "the cases server printed {other:?} instead of its URL"
            )),
        }
    }
}

impl Drop for CasesServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

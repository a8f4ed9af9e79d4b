//! A session file, a playground link or its bare `#s1.…` fragment, read as the
//! page reads it (and refused with the page's words): `mcpg replay`, `mcpg diff`
//! and `mcpg mock` all start here.

use mcpg_demo::DemoServer;
use mcpg_recording::{Connection as Recorded, Recording, decode_file, rehydrate_with};

use crate::exit::{Failure, USAGE};

/// Loads a session from a file path, a link or a bare fragment.
pub(crate) fn load(source: &str) -> Result<Recording, Failure> {
    let text = match std::fs::read_to_string(source) {
        Ok(t) => t,
        Err(_) if source.contains("s1.") => source.to_owned(),
        Err(e) => {
            return Err(Failure::usage(format!(
                "{source}: not a readable file ({e}) nor a session link"
            )));
        }
    };
    let mut s = decode_file(&text).map_err(|e| Failure::new(USAGE, format!("{source}: {e}")))?;
    if s.connection == Recorded::Embedded && s.wire.iter().any(|w| w.text.is_none()) {
        // Links leave out what the embedded demo said; say it again to get it back.
        let mut server = DemoServer::new();
        rehydrate_with(&mut s, |at, sent| server.exchange(at, sent))
            .map_err(|e| Failure::new(USAGE, format!("{source}: {e}")))?;
    }
    Ok(s)
}

/// Whether the session at `source` declared the 2026-07-28 Tasks extension; a
/// source that cannot be read says yes (the default), and the command that reads it reports why.
pub fn declares_tasks_extension(source: &str) -> bool {
    load(source).map_or(true, |s| {
        s.declared_capabilities()
            .and_then(|c| c.get("extensions").cloned())
            .is_some_and(|e| e.get(mcpg_core::client::TASKS_EXTENSION).is_some())
    })
}

//! The real `mcpg serve`: started with a temp config, its URL line read, stopped
//! with SIGTERM and reaped when dropped.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use super::PATIENCE;

/// A running bridge.
pub struct Bridge {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub authority: String,
    pub token: String,
    /// The exact line it printed.
    pub line: String,
    /// Lines printed after the first (there should be none).
    pub extra: Arc<Mutex<Vec<String>>>,
    reader: Option<std::thread::JoinHandle<()>>,
    _config: Option<tempfile::NamedTempFile>,
}

/// The `mcpg` binary under test.
pub fn mcpg() -> &'static str {
    env!("CARGO_BIN_EXE_mcpg")
}

impl Bridge {
    /// `mcpg serve` with `config` (TOML) or, when `None`, the built-in config.
    pub fn start(config: Option<&str>) -> Bridge {
        Bridge::start_with(config, &[])
    }

    /// [`Bridge::start`] with more arguments for `mcpg serve`.
    pub fn start_with(config: Option<&str>, args: &[&str]) -> Bridge {
        let file = config.map(|text| {
            let f = tempfile::NamedTempFile::new().unwrap();
            std::fs::write(f.path(), text).unwrap();
            f
        });
        let dist = std::env::temp_dir().join("mcpg-bridge-test-no-dist");
        let mut cmd = Command::new(mcpg());
        cmd.args(["serve", "--port", "0", "--dist"]).arg(&dist);
        if let Some(f) = &file {
            cmd.arg("--config").arg(f.path());
        }
        cmd.args(args);
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        let extra = Arc::new(Mutex::new(Vec::new()));
        let more = extra.clone();
        let reader = std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let first = lines.next();
            let _ = tx.send(first);
            // Anything more on stdout would break the "exactly one line" promise.
            for extra in lines.map_while(Result::ok) {
                more.lock().unwrap().push(extra);
            }
        });
        let line = match rx.recv_timeout(PATIENCE) {
            Ok(Some(Ok(line))) => line,
            other => {
                let _ = child.kill();
                panic!("mcpg serve printed no URL line: {other:?}");
            }
        };
        let rest = line
            .strip_prefix("MCP Playground: open http://")
            .unwrap_or_else(|| panic!("unexpected line {line:?}"));
        let (authority, token) = rest.split_once("/?token=").unwrap();
        Bridge {
            child,
            authority: authority.to_owned(),
            token: token.to_owned(),
            line,
            extra,
            reader: Some(reader),
            _config: file,
        }
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn http(&self, path: &str) -> String {
        format!("http://{}{path}", self.authority)
    }

    /// `ws://127.0.0.1:PORT/ws?server=…&channel=…&token=…`.
    pub fn ws_url(&self, server: &str, channel: &str) -> String {
        format!(
            "ws://{}/ws?server={server}&channel={channel}&token={}",
            self.authority, self.token
        )
    }

    /// After the bridge exited: every line it printed after the first.
    pub fn lines_after_the_first(&mut self) -> Vec<String> {
        if let Some(r) = self.reader.take() {
            r.join().unwrap();
        }
        self.extra.lock().unwrap().clone()
    }

    /// Sends SIGTERM and waits (bounded) for the exit code.
    pub fn terminate(&mut self) -> Option<i32> {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        for _ in 0..600 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("mcpg serve did not stop after SIGTERM");
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .status();
            for _ in 0..200 {
                if !matches!(self.child.try_wait(), Ok(None)) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

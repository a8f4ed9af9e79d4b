//! The side channel (`/api/events`) read as Server-Sent Events.

use serde_json::Value;

use super::PATIENCE;

/// A side-channel subscription.
pub struct Side {
    resp: reqwest::Response,
    buf: String,
    /// Every event so far.
    pub seen: Vec<Value>,
}

impl Side {
    /// Subscribes to `channel` of the bridge at `base` (`http://host:port`).
    pub async fn open(base: &str, token: &str, channel: &str) -> Side {
        let url = format!("{base}/api/events?channel={channel}&token={token}");
        let resp = reqwest::get(url).await.unwrap();
        assert_eq!(resp.status(), 200);
        Side {
            resp,
            buf: String::new(),
            seen: Vec::new(),
        }
    }

    /// Reads until an event satisfies `pred`; panics after [`PATIENCE`].
    pub async fn until(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            if let Some(v) = self.seen.iter().find(|v| pred(v)) {
                return v.clone();
            }
            let chunk = tokio::time::timeout_at(deadline, self.resp.chunk())
                .await
                .unwrap_or_else(|_| panic!("no {what} event; saw {:?}", self.seen))
                .unwrap()
                .expect("event stream ended");
            self.buf.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                for data in block.lines().filter_map(|l| l.strip_prefix("data:")) {
                    self.seen.push(serde_json::from_str(data.trim()).unwrap());
                }
            }
        }
    }

    /// Waits for an event of type `ty`.
    pub async fn of_type(&mut self, ty: &str) -> Value {
        self.until(ty, |v| v["type"] == ty).await
    }
}

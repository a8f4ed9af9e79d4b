//! `GET /api/servers`: what the page may connect to, by name. Commands never leave
//! the bridge; remote URLs may be shown (the user configured them and they are not
//! secrets the way a command line with its environment can be).

use axum::Json;
use axum::extract::State;
use mcpg_bridge_api::{RemoteEntry, ServerEntry, ServerList};
use serde_json::Value;

use crate::state::AppState;

/// The server and remote names.
pub(crate) async fn list(State(st): State<AppState>) -> Json<Value> {
    let cfg = st.config();
    let list = ServerList {
        servers: cfg
            .servers
            .iter()
            .map(|s| ServerEntry {
                name: s.name.clone(),
            })
            .collect(),
        remotes: cfg
            .remotes
            .iter()
            .map(|r| RemoteEntry {
                name: r.name.clone(),
                url: r.url.clone(),
            })
            .collect(),
    };
    Json(list.to_json())
}

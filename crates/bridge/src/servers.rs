//! `GET /api/servers`: what the page may connect to, by name. Commands never leave
//! the bridge; remote URLs may be shown (the user configured them and they are not
//! secrets the way a command line with its environment can be).

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use crate::state::AppState;

/// The server and remote names.
pub(crate) async fn list(State(st): State<AppState>) -> Json<Value> {
    let cfg = st.config();
    let servers: Vec<Value> = cfg
        .servers
        .iter()
        .map(|s| json!({ "name": s.name }))
        .collect();
    let remotes: Vec<Value> = cfg
        .remotes
        .iter()
        .map(|r| json!({ "name": r.name, "url": r.url }))
        .collect();
    Json(json!({ "servers": servers, "remotes": remotes }))
}

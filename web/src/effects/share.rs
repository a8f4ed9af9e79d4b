//! Sharing a session: recording the page into a [`mcpg_session::Session`], the link
//! (`#s1.` fragment, which never reaches a server), export and import as a file, and
//! replaying a shared session with no network until the learner asks to run it live.
//!
//! A link or file is untrusted: a bad one gives one notice and nothing else happens
//! (no connection, no request). Nothing secret is recorded: no bridge token, no key.

use mcpg_demo::DemoServer;
use mcpg_host::provider::Provider;
use mcpg_host::script::Script;
use mcpg_session::{
    Connection, Direction, Imported, LinkError, MAX_INFLATED_BYTES, MAX_LINK_CHARS, ModelChoice,
    Session, WireRecord, decode_json, encode_file, link_body, link_from_deflated, link_payload,
    read_imported, rehydrate_with,
};
use serde_json::{Value, json};
use wasm_bindgen::JsCast as _;
use wasm_bindgen_futures::JsFuture;

use leptos::prelude::*;

use super::replay::ReplayLink;
use super::session::{open_with, with_session};
use crate::model_state::{ModelChoice as Choice, slot};
use crate::state::{AppState, LogRow, Notice, Source};

/// The session's connection for a page source. A URL keeps no user name, password
/// or secret-looking query parameter.
fn connection(source: &Source) -> Connection {
    match source {
        Source::Demo => Connection::Embedded,
        Source::Bridge(n) => Connection::Bridge { server: n.clone() },
        Source::Relay(n) => Connection::Relay { remote: n.clone() },
        Source::Url(u) => Connection::Url { url: public_url(u) },
    }
}

/// The page source a session's connection names.
pub fn source_of(c: &Connection) -> Source {
    match c {
        Connection::Embedded => Source::Demo,
        Connection::Bridge { server } => Source::Bridge(server.clone()),
        Connection::Relay { remote } => Source::Relay(remote.clone()),
        Connection::Url { url } => Source::Url(url.clone()),
    }
}

/// `url` without credentials or secret-looking query parameters.
fn public_url(url: &str) -> String {
    let (url, _fragment) = url.split_once('#').unwrap_or((url, ""));
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let base = match base.split_once("://") {
        Some((scheme, rest)) => {
            let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
            let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
            let slash = if rest.contains('/') { "/" } else { "" };
            [scheme, "://", host, slash, path].concat()
        }
        None => base.to_owned(),
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| {
            let k = p.split('=').next().unwrap_or("").to_ascii_lowercase();
            !p.is_empty()
                && !["key", "token", "secret", "password", "auth", "sig"]
                    .iter()
                    .any(|s| k.contains(s))
        })
        .collect();
    if kept.is_empty() {
        base
    } else {
        [base.as_str(), "?", &kept.join("&")].concat()
    }
}

/// Who answered for the model, with a real model's non-secret settings (base URL
/// without credentials, model name). The API keys are never read here.
fn model_choice(st: AppState) -> ModelChoice {
    let provider = st.provider.get_untracked();
    let mut m = ModelChoice {
        kind: match st.model.get_untracked() {
            Choice::Mock => "mock".into(),
            Choice::Play => "player".into(),
            Choice::Real => provider.id().into(),
        },
        format: Some(provider.id().into()),
        ..ModelChoice::default()
    };
    if st.model.get_untracked() == Choice::Real
        && let Some(l) = st.llm.with_untracked(|l| l.get(slot(provider)).cloned())
    {
        m.settings
            .insert("base_url".into(), public_url(&l.base).into());
        m.settings.insert("model".into(), l.model.into());
    }
    m
}

/// Puts a session's model name back. Never a key (a link has none) and never the
/// base URL: a hostile link could otherwise point the learner's key at its own server
/// the next time they use a real model.
fn restore_model(st: AppState, m: &ModelChoice, provider: Provider) {
    let name = m.settings.get("model").and_then(Value::as_str);
    if m.kind == provider.id()
        && let Some(name) = name
    {
        st.llm.update(|l| {
            if let Some(s) = l.get_mut(slot(provider)) {
                name.clone_into(&mut s.model);
            }
        });
    }
}

/// The page as a session document: connection, model choice, messages, script,
/// every wire frame, the steps of the current loop.
pub fn record(st: AppState) -> Session {
    let mut s = Session::new(connection(&st.source.get_untracked()));
    s.model = model_choice(st);
    let (prompts, script) = with_session(None, |x| x.recording()).unwrap_or_default();
    s.messages = if prompts.is_empty() {
        vec![st.prompt.get_untracked()]
    } else {
        prompts
    };
    s.script = if script.is_empty() {
        st.script.get_untracked()
    } else {
        script
    };
    s.wire = st.log.with_untracked(|log| {
        log.iter()
            .filter_map(|row| match row {
                LogRow::Wire {
                    sent, at_ms, raw, ..
                } => Some(WireRecord {
                    direction: if *sent {
                        Direction::Sent
                    } else {
                        Direction::Received
                    },
                    at_ms: at_ms.max(0.0) as u64,
                    text: Some(raw.to_string()),
                    hash: None,
                }),
                _ => None,
            })
            .collect()
    });
    s.steps = st.steps.with_untracked(|steps| {
        steps
            .iter()
            .map(|x| json!({"n": x.number, "status": x.status.as_str()}))
            .collect()
    });
    s.cursor = s.steps.len();
    s.redact();
    s
}

/// A fresh embedded demo server, answering as `rehydrate_with` asks.
fn demo_exchange() -> impl FnMut(u64, Option<&str>) -> Vec<String> {
    let mut server = DemoServer::new();
    move |at, sent| server.exchange(at, sent)
}

/// The session a link carries: the embedded demo's answers are left out when
/// re-running the demo reproduces them exactly (checked here, before sharing).
pub fn link_session(session: &Session) -> Session {
    if session.connection == Connection::Embedded {
        let mut short = session.clone();
        short.elide_received(|_, _| true);
        let mut check = short.clone();
        if rehydrate_with(&mut check, demo_exchange()).is_ok() && check.wire == session.wire {
            return short;
        }
    }
    session.clone()
}

/// Runs `bytes` through the browser's own `CompressionStream` or
/// `DecompressionStream` (`class`) in raw deflate, reached by name (web-sys has them
/// only behind an unstable flag), so the page carries no deflate code of its own.
/// Reading stops past `limit` bytes (`Ok(None)`: a compression bomb is never
/// unpacked whole); `Err(())` when the browser refuses (e.g. damaged input).
async fn deflate_stream(class: &str, bytes: &[u8], limit: usize) -> Result<Option<Vec<u8>>, ()> {
    let ctor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &class.into())
        .map_err(drop)?
        .dyn_into()
        .map_err(drop)?;
    let cs = js_sys::Reflect::construct(&ctor, &js_sys::Array::of1(&"deflate-raw".into()))
        .map_err(drop)?;
    let side = |name: &str| js_sys::Reflect::get(&cs, &name.into()).map_err(drop);
    let pair = web_sys::ReadableWritablePair::new(
        &side("readable")?.unchecked_into(),
        &side("writable")?.unchecked_into(),
    );
    let input = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&input).map_err(drop)?;
    let reader: web_sys::ReadableStreamDefaultReader = blob
        .stream()
        .pipe_through(&pair)
        .get_reader()
        .unchecked_into();
    let mut out = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(drop)?;
        let field = |k: &str| js_sys::Reflect::get(&chunk, &k.into()).map_err(drop);
        if field("done")?.as_bool().unwrap_or(true) {
            return Ok(Some(out));
        }
        out.extend(js_sys::Uint8Array::new(&field("value")?).to_vec());
        if out.len() > limit {
            let _ = reader.cancel();
            return Ok(None);
        }
    }
}

/// Decodes a link fragment as `mcpg_session::decode_link` does, with the browser's
/// `atob` and `DecompressionStream`.
async fn decode_link_in_browser(fragment: &str) -> Result<Session, LinkError> {
    let body = link_body(fragment)?;
    let b64 = body.replace('-', "+").replace('_', "/");
    let binary = web_sys::window()
        .and_then(|w| w.atob(&b64).ok())
        .ok_or(LinkError::Truncated)?;
    // `atob` gives one char per byte (0–255).
    let packed: Vec<u8> = binary.chars().map(|c| c as u32 as u8).collect();
    match deflate_stream("DecompressionStream", &packed, MAX_INFLATED_BYTES).await {
        Ok(Some(json)) => decode_json(&json),
        Ok(None) => Err(LinkError::Bomb(MAX_INFLATED_BYTES)),
        Err(()) => Err(LinkError::Truncated),
    }
}

/// Decodes a session file, or a pasted link, as `mcpg_session::decode_file` does.
async fn decode_file_in_browser(text: &str) -> Result<Session, LinkError> {
    match read_imported(text)? {
        Imported::File(s) => Ok(*s),
        Imported::Link(fragment) => decode_link_in_browser(fragment).await,
    }
}

/// What Share produced: the full link, or why there is none.
pub async fn share(st: AppState) -> Result<String, String> {
    let payload = link_payload(&link_session(&record(st)));
    let packed = deflate_stream("CompressionStream", &payload, usize::MAX)
        .await
        .ok()
        .flatten()
        .ok_or("this browser cannot compress (no CompressionStream); use Export instead")?;
    let fragment = link_from_deflated(&packed);
    if fragment.len() > MAX_LINK_CHARS {
        return Err(format!(
            "This session is too large for a link ({} characters; links stop at {MAX_LINK_CHARS}). Use Export to share it as a file.",
            fragment.len()
        ));
    }
    let loc = web_sys::window()
        .map(|w| w.location())
        .ok_or("the page has no location")?;
    // Origin and path only: the query may hold the bridge's token.
    let base = [
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
    ]
    .concat();
    Ok([base.as_str(), "#", &fragment].concat())
}

/// Downloads the session as a `.json` file (through a Blob URL and `<a download>`).
pub fn export(st: AppState) -> Result<(), String> {
    let text = encode_file(&record(st));
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let fail = |_| "the browser refused to make the file".to_owned();
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the page has no document")?;
    let a: web_sys::HtmlAnchorElement = doc
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "the browser refused to make the file".to_owned())?;
    a.set_href(&url);
    a.set_download("mcp-session.json");
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

fn notice(st: AppState, text: String) {
    st.notice.set(Some(Notice {
        text,
        relay: None,
        blocked_url: None,
    }));
}

/// Opens the session in the page's URL fragment, if there is one. Returns whether
/// the fragment was meant as a session (then nothing else should open): a bad one
/// only shows a notice.
pub fn open_from_hash(st: AppState) -> bool {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let f = hash.strip_prefix('#').unwrap_or(&hash);
    let f = f.strip_prefix("s=").unwrap_or(f);
    // `#s<digits>.` is a session link of some version; anything else (e.g. `#loop`,
    // the skip link) is an ordinary anchor.
    let Some(version) = f
        .strip_prefix('s')
        .and_then(|r| r.split_once('.'))
        .map(|(v, _)| v)
        .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
    else {
        return false;
    };
    let newer = (version != "1").then(|| {
        LinkError::Invalid(format!(
            "it uses link format s{version}, which a newer playground makes; please update"
        ))
    });
    let f = f.to_owned();
    wasm_bindgen_futures::spawn_local(async move {
        let result = match newer {
            Some(e) => Err(e),
            None => decode_link_in_browser(&f).await,
        };
        match result {
            Ok(s) => start_replay(st, s, "link"),
            Err(e) => notice(
                st,
                format!(
                    "This session link cannot be opened: {e}. Nothing was loaded or connected."
                ),
            ),
        }
    });
    true
}

/// Imports a session from a file's (or a pasted link's) text.
pub async fn import_text(st: AppState, text: &str) {
    match decode_file_in_browser(text).await {
        Ok(s) => start_replay(st, s, "file"),
        Err(e) => notice(
            st,
            format!("This session file cannot be opened: {e}. Nothing was loaded or connected."),
        ),
    }
}

/// Reads a picked or dropped file, then imports it.
pub fn import_file(st: AppState, file: web_sys::File) {
    if file.size() > MAX_INFLATED_BYTES as f64 {
        notice(
            st,
            format!(
                "This session file cannot be opened: it is larger than {MAX_INFLATED_BYTES} bytes. Nothing was loaded or connected."
            ),
        );
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        match JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|v| v.as_string())
        {
            Some(text) => import_text(st, &text).await,
            None => notice(
                st,
                "This session file cannot be opened: the browser could not read it as text."
                    .to_owned(),
            ),
        }
    });
}

/// Replays `session` with no network: the recording answers for the server (the
/// embedded demo's elided answers are regenerated in the page first) and its script
/// for the model. `from` says "link" or "file", for messages.
fn start_replay(st: AppState, mut session: Session, from: &str) {
    let fail = |why: String| {
        notice(
            st,
            format!(
                "This session {from} cannot be replayed: {why}. Nothing was loaded or connected."
            ),
        );
    };
    if session.connection == Connection::Embedded
        && let Err(e) = rehydrate_with(&mut session, demo_exchange())
    {
        return fail(e.to_string());
    }
    if let Some(i) = session.wire.iter().position(|w| w.text.is_none()) {
        return fail(format!(
            "message {i} was left out and only the embedded demo server can regenerate it"
        ));
    }
    if let Err(e) = Script::from_values(&session.script) {
        return fail(format!("its model script is invalid ({e})"));
    }
    if let Some(p) = session.model.format.as_deref().and_then(Provider::from_id) {
        st.provider.set(p);
        restore_model(st, &session.model, p);
    }
    if let Some(m) = session.messages.first() {
        st.prompt.set(m.clone());
    }
    st.script.set(session.script.clone());
    let link = ReplayLink::new(&session);
    let source = source_of(&session.connection);
    open_with(st, source, Some(link));
    st.replay.set(Some(session));
}

/// "Run it live" (after the learner confirmed): the same kind of server, the same
/// first message, the same model script; the bridge's token comes from this page's
/// own URL, never from the link.
pub fn run_live(st: AppState) {
    let Some(session) = st.replay.get_untracked() else {
        return;
    };
    let source = source_of(&session.connection);
    if matches!(source, Source::Bridge(_) | Source::Relay(_)) {
        super::load_bridge(st);
    }
    super::connect(st, source);
    if let Some(m) = session.messages.first() {
        st.prompt.set(m.clone());
    }
}

/// Sets the model script (already validated); new loops play it before the mock.
pub fn set_script(st: AppState, turns: Vec<Value>) {
    st.script.set(turns);
    with_session(None, super::session::Session::reload_script);
}

/// Page-wide listeners: a session link pasted into the address bar of an open page
/// (`hashchange`), and a session file dropped anywhere on the page.
pub fn listen(st: AppState) {
    let _ = window_event_listener(leptos::ev::hashchange, move |_| {
        open_from_hash(st);
    });
    let _ = window_event_listener(leptos::ev::dragover, |e| e.prevent_default());
    let _ = window_event_listener(leptos::ev::drop, move |e| {
        e.prevent_default();
        let file = e
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0));
        if let Some(f) = file {
            import_file(st, f);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_lose_credentials_and_secret_parameters() {
        assert_eq!(
            public_url("https://user:pw@example.com/mcp?api_key=1&x=2&Token=3#frag"),
            "https://example.com/mcp?x=2"
        );
        assert_eq!(public_url("http://127.0.0.1:3000"), "http://127.0.0.1:3000");
        assert_eq!(
            public_url("https://example.com/a/b?auth=z"),
            "https://example.com/a/b"
        );
    }

    #[test]
    fn sources_and_connections_map_both_ways() {
        for s in [
            Source::Demo,
            Source::Bridge("everything".into()),
            Source::Relay("remote".into()),
            Source::Url("https://example.com/mcp".into()),
        ] {
            assert_eq!(source_of(&connection(&s)), s);
        }
    }
}

//! Sharing a session: recording the page into a [`mcpg_recording::Recording`], the link
//! (`#s1.` fragment, which never reaches a server), export and import as a file, and
//! replaying a shared session with no network until the learner asks to run it live.
//!
//! A link or file is untrusted: a bad one gives one notice and nothing else happens
//! (no connection, no request). Nothing secret is recorded: no bridge token, no key.

use std::future::Future;
use std::pin::Pin;

use mcpg_page::{Command, Source, link_session};
use mcpg_recording::{
    Imported, LinkError, MAX_INFLATED_BYTES, MAX_LINK_CHARS, Recording, decode_json, encode_file,
    link_body, link_from_deflated, link_payload, read_imported,
};
use wasm_bindgen::JsCast as _;
use wasm_bindgen_futures::JsFuture;

use leptos::prelude::*;
use leptos::wasm_split::{SplitLoaderError, wasm_split};

use super::inbox::{command, read};
use crate::state::AppState;

/// The page as a recording (the driver records it; no key, no token).
pub(crate) fn record() -> Recording {
    read(|d| d.record()).unwrap_or_else(|| Recording::new(mcpg_recording::Connection::Embedded))
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

/// Decodes a link fragment as `mcpg_recording::decode_link` does, with the browser's
/// `atob` and `DecompressionStream`.
async fn decode_link_in_browser(fragment: &str) -> Result<Recording, LinkError> {
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

/// Decodes a session file, or a pasted link, as `mcpg_recording::decode_file` does.
pub(crate) async fn decode_file_in_browser(text: &str) -> Result<Recording, LinkError> {
    match read_imported(text)? {
        Imported::File(s) => Ok(*s),
        Imported::Link(fragment) => decode_link_in_browser(fragment).await,
    }
}

/// A split-off piece of work: the future a split function hands back once its wasm
/// chunk is fetched.
type Task<T> = Pin<Box<dyn Future<Output = T>>>;

/// Said when a chunk could not be fetched. The split functions here are `fallible`:
/// without it a failed fetch panics, and a panic aborts the whole page.
const UNLOADED: &str = "this part of the page could not be loaded (the network may have dropped); everything else keeps working, reload once you are online again";

/// What Share produced: the full link, or why there is none. Its code is split into
/// its own wasm chunk, fetched on first use, like every entry point here: the first
/// screen never shares.
pub async fn share() -> Result<String, String> {
    match share_task().await {
        Ok(task) => task.await,
        Err(_) => Err(UNLOADED.to_owned()),
    }
}

#[wasm_split(mcpg_share, wasm_split_path = ::leptos::wasm_split, fallible)]
fn share_task() -> Result<Task<Result<String, String>>, SplitLoaderError> {
    Ok(Box::pin(share_now()))
}

async fn share_now() -> Result<String, String> {
    let payload = link_payload(&link_session(&record()));
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
    // Origin and path only: the query may hold the bridge's token.
    Ok([super::here::page_url().as_str(), "#", &fragment].concat())
}

/// Downloads the session as a `.json` file (split off: see [`share`]).
pub async fn export() -> Result<(), String> {
    export_task()
        .await
        .unwrap_or_else(|_| Err(UNLOADED.to_owned()))
}

#[wasm_split(mcpg_export, wasm_split_path = ::leptos::wasm_split, fallible)]
fn export_task() -> Result<Result<(), String>, SplitLoaderError> {
    Ok(super::download::download(
        "mcp-session.json",
        &encode_file(&record()),
    ))
}

fn notice(text: String) {
    command(Command::ShowNotice(text));
}

/// Opens the session in the page's URL fragment, if there is one. Returns whether
/// the fragment was meant as a session (then nothing else should open): a bad one
/// only shows a notice.
pub fn open_from_hash() -> bool {
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
    // The version is checked in the link's chunk too: the first screen carries
    // none of a link's reading.
    let (version, f) = (version.to_owned(), f.to_owned());
    wasm_bindgen_futures::spawn_local(open_link(version, f));
    true
}

/// Decodes and replays a `#s<version>.` link (split off: see [`share`]).
async fn open_link(version: String, fragment: String) {
    match open_link_task(version, fragment).await {
        Ok(task) => task.await,
        Err(_) => notice(format!("This session link cannot be opened: {UNLOADED}.")),
    }
}

#[wasm_split(mcpg_open_link, wasm_split_path = ::leptos::wasm_split, fallible)]
fn open_link_task(version: String, fragment: String) -> Result<Task<()>, SplitLoaderError> {
    Ok(Box::pin(open_link_now(version, fragment)))
}

async fn open_link_now(version: String, fragment: String) {
    if version != "1" {
        return link_failed(LinkError::Invalid(format!(
            "it uses link format s{version}, which a newer playground makes; please update"
        )));
    }
    match decode_link_in_browser(&fragment).await {
        Ok(s) => start_replay(s, "link"),
        Err(e) => link_failed(e),
    }
}

fn link_failed(e: LinkError) {
    notice(format!(
        "This session link cannot be opened: {e}. Nothing was loaded or connected."
    ));
}

/// Imports a session from a file's (or a pasted link's) text (split off: see
/// [`share`]).
pub async fn import_text(text: String) {
    match import_text_task(text).await {
        Ok(task) => task.await,
        Err(_) => notice(format!("This session file cannot be opened: {UNLOADED}.")),
    }
}

#[wasm_split(mcpg_import_text, wasm_split_path = ::leptos::wasm_split, fallible)]
fn import_text_task(text: String) -> Result<Task<()>, SplitLoaderError> {
    Ok(Box::pin(import_text_now(text)))
}

async fn import_text_now(text: String) {
    match decode_file_in_browser(&text).await {
        Ok(s) => start_replay(s, "file"),
        Err(e) => notice(format!(
            "This session file cannot be opened: {e}. Nothing was loaded or connected."
        )),
    }
}

/// Reads a picked or dropped file, then imports it (split off: see [`share`]; the
/// first screen has none of a file's reading).
pub fn import_file(file: web_sys::File) {
    wasm_bindgen_futures::spawn_local(async move {
        match import_file_task(file).await {
            Ok(task) => task.await,
            Err(_) => notice(format!("This session file cannot be opened: {UNLOADED}.")),
        }
    });
}

#[wasm_split(mcpg_import_file, wasm_split_path = ::leptos::wasm_split, fallible)]
fn import_file_task(file: web_sys::File) -> Result<Task<()>, SplitLoaderError> {
    Ok(Box::pin(import_file_now(file)))
}

async fn import_file_now(file: web_sys::File) {
    if file.size() > MAX_INFLATED_BYTES as f64 {
        return notice(format!(
            "This session file cannot be opened: it is larger than {MAX_INFLATED_BYTES} bytes. Nothing was loaded or connected."
        ));
    }
    match JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|v| v.as_string())
    {
        Some(text) => import_text(text).await,
        None => notice(
            "This session file cannot be opened: the browser could not read it as text.".to_owned(),
        ),
    }
}

/// Replays `session` with no network (the driver checks it first: a bad one is
/// only a notice). `from` says "link" or "file", for messages.
fn start_replay(session: Recording, from: &str) {
    command(Command::OpenShared {
        session: Box::new(session),
        from: from.to_owned(),
    });
}

/// "Run it live" (after the learner confirmed): the same kind of server and the same
/// first message; the bridge's token comes from this page's own URL, never the link.
pub fn run_live(st: AppState) {
    let source = st
        .replay
        .with_untracked(|r| r.as_ref().map(|r| r.source.clone()));
    if matches!(source, Some(Source::Bridge(_) | Source::Relay(_))) {
        super::bridge::load_bridge(st);
    }
    command(Command::RunLive);
}

/// Page-wide listeners: a session link pasted into the address bar of an open page
/// (`hashchange`), and a session file dropped anywhere on the page.
pub fn listen() {
    let _ = window_event_listener(leptos::ev::hashchange, move |_| {
        open_from_hash();
    });
    let _ = window_event_listener(leptos::ev::dragover, |e| e.prevent_default());
    let _ = window_event_listener(leptos::ev::drop, move |e| {
        e.prevent_default();
        let file = e
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0));
        if let Some(f) = file {
            import_file(f);
        }
    });
}

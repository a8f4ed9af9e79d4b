//! The hand-written JSON of this crate against a serde-derived twin of the same
//! types (what the bridge used to derive): the same JSON out, the same values in.

use mcpg_bridge_api::{RemoteEntry, ServerEntry, ServerList, SideEvent, WireError};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Twin {
    Spawned {
        server: String,
        pid: u32,
    },
    Stderr {
        line: String,
    },
    Exit {
        code: Option<i32>,
        signal: Option<i32>,
    },
    Error {
        message: String,
    },
    Dropped {
        count: u64,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TwinList {
    servers: Vec<TwinServer>,
    remotes: Vec<TwinRemote>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TwinServer {
    name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct TwinRemote {
    name: String,
    url: String,
}

fn ours(t: &Twin) -> SideEvent {
    match t.clone() {
        Twin::Spawned { server, pid } => SideEvent::Spawned { server, pid },
        Twin::Stderr { line } => SideEvent::Stderr { line },
        Twin::Exit { code, signal } => SideEvent::Exit { code, signal },
        Twin::Error { message } => SideEvent::Error { message },
        Twin::Dropped { count } => SideEvent::Dropped { count },
    }
}

fn twin() -> impl Strategy<Value = Twin> {
    let text = ".{0,40}";
    prop_oneof![
        (text, any::<u32>()).prop_map(|(server, pid)| Twin::Spawned { server, pid }),
        text.prop_map(|line| Twin::Stderr { line }),
        (any::<Option<i32>>(), any::<Option<i32>>())
            .prop_map(|(code, signal)| Twin::Exit { code, signal }),
        text.prop_map(|message| Twin::Error { message }),
        (0..=i64::MAX as u64).prop_map(|count| Twin::Dropped { count }),
    ]
}

fn twin_list() -> impl Strategy<Value = TwinList> {
    (
        proptest::collection::vec(".{0,20}".prop_map(|name| TwinServer { name }), 0..5),
        proptest::collection::vec(
            (".{0,20}", ".{0,40}").prop_map(|(name, url)| TwinRemote { name, url }),
            0..5,
        ),
    )
        .prop_map(|(servers, remotes)| TwinList { servers, remotes })
}

proptest! {
    #[test]
    fn side_events_match_the_derived_twin(t in twin()) {
        let derived = serde_json::to_value(&t).unwrap();
        prop_assert_eq!(ours(&t).to_json(), derived.clone());
        let text = serde_json::to_string(&t).unwrap();
        prop_assert_eq!(SideEvent::parse(&text).unwrap(), ours(&t));
        let back: Twin = serde_json::from_str(&ours(&t).to_text()).unwrap();
        prop_assert_eq!(back, t);
    }

    #[test]
    fn server_lists_match_the_derived_twin(t in twin_list()) {
        let list = ServerList {
            servers: t.servers.iter().map(|s| ServerEntry { name: s.name.clone() }).collect(),
            remotes: t
                .remotes
                .iter()
                .map(|r| RemoteEntry { name: r.name.clone(), url: r.url.clone() })
                .collect(),
        };
        prop_assert_eq!(list.to_json(), serde_json::to_value(&t).unwrap());
        prop_assert_eq!(ServerList::parse(&serde_json::to_string(&t).unwrap()).unwrap(), list);
    }
}

#[test]
fn bad_events_are_typed_errors() {
    assert!(matches!(
        SideEvent::parse("nope"),
        Err(WireError::NotJson(_))
    ));
    assert_eq!(SideEvent::parse("[1]"), Err(WireError::NotObject));
    assert_eq!(
        SideEvent::parse(r#"{"type":"launched"}"#),
        Err(WireError::UnknownType("launched".into()))
    );
    assert_eq!(
        SideEvent::parse(r#"{"type":"spawned","server":"x","pid":-1}"#),
        Err(WireError::Member {
            member: "pid",
            expected: "an integer in range"
        })
    );
    assert_eq!(
        SideEvent::parse(r#"{"type":"stderr"}"#),
        Err(WireError::Member {
            member: "line",
            expected: "a string"
        })
    );
    assert!(ServerList::parse(r#"{"servers":{}}"#).is_err());
    assert_eq!(ServerList::parse("{}"), Ok(ServerList::default()));
}

#[test]
fn events_read_in_words() {
    let e = |t: &str| SideEvent::parse(t).unwrap().to_string();
    assert_eq!(
        e(r#"{"type":"spawned","server":"demo","pid":42}"#),
        "the bridge started demo (pid 42)"
    );
    assert_eq!(
        e(r#"{"type":"exit","code":1,"signal":null}"#),
        "the server process exited with code 1"
    );
    assert_eq!(
        e(r#"{"type":"exit","signal":9}"#),
        "the server process was ended by signal 9"
    );
    assert_eq!(
        e(r#"{"type":"dropped","count":6}"#),
        "6 side-channel events were lost (too many at once)"
    );
    assert_eq!(
        e(r#"{"type":"output_dropped","bytes":4096,"lines":3}"#),
        "the bridge dropped 4096 bytes (3 lines) of the server's output: \
         the page was not reading it and the bridge's queue was full"
    );
}

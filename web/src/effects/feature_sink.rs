//! Where the Resources, Prompts and Logs panels' changes go. The code that writes
//! them into their signals (`FeatureState::apply`, nine signal types) comes with the
//! later chunk (`components/later_parts.rs`), fetched right after the first tool
//! list, and hands itself over with [`set`]. A change that comes before it (a
//! server's log message at connect) waits here: only the newest of each kind, since
//! each carries its panel's whole state, so nothing is lost and nothing grows.

use std::cell::RefCell;
use std::mem::discriminant;

use leptos::prelude::*;
use mcpg_page::FeatureChange;

use crate::feature_state::FeatureState;
use crate::state::{AppState, Tab};

/// Writes one change into the panels' signals; `false` when the change asks the
/// page to show the Resources panel instead.
pub type FeatureApply = fn(&FeatureState, FeatureChange) -> bool;

/// The writer, or what waits for it.
enum Sink {
    Waiting(Vec<FeatureChange>),
    Ready(FeatureApply),
}

thread_local! {
    static SINK: RefCell<Sink> = const { RefCell::new(Sink::Waiting(Vec::new())) };
}

/// Hands `change` to the writer, or keeps it (replacing an older one of its kind)
/// until the writer is in.
pub fn apply(st: AppState, change: FeatureChange) {
    let ready = SINK.with(|s| match &mut *s.borrow_mut() {
        Sink::Ready(f) => Some((*f, change)),
        Sink::Waiting(waiting) => {
            keep_newest(waiting, change);
            None
        }
    });
    if let Some((write, change)) = ready {
        run(st, write, change);
    }
}

/// Installs the writer and gives it what waited, in order.
pub fn set(st: AppState, write: FeatureApply) {
    let waiting =
        SINK.with(
            |s| match std::mem::replace(&mut *s.borrow_mut(), Sink::Ready(write)) {
                Sink::Waiting(waiting) => waiting,
                Sink::Ready(_) => Vec::new(),
            },
        );
    for change in waiting {
        run(st, write, change);
    }
}

fn run(st: AppState, write: FeatureApply, change: FeatureChange) {
    if !write(&st.features, change) {
        st.tab.set(Tab::Resources);
    }
}

/// Keeps `change` in `waiting`, in place of an older change of its kind.
fn keep_newest(waiting: &mut Vec<FeatureChange>, change: FeatureChange) {
    waiting.retain(|old| discriminant(old) != discriminant(&change));
    waiting.push(change);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_of_each_kind_waits() {
        let mut waiting = Vec::new();
        keep_newest(&mut waiting, FeatureChange::Logs(Vec::new()));
        keep_newest(&mut waiting, FeatureChange::ShowResources);
        keep_newest(&mut waiting, FeatureChange::Subscriptions(Vec::new()));
        keep_newest(&mut waiting, FeatureChange::ShowResources);
        let kinds: Vec<_> = waiting.iter().map(discriminant).collect();
        assert_eq!(
            kinds,
            vec![
                discriminant(&FeatureChange::Logs(Vec::new())),
                discriminant(&FeatureChange::Subscriptions(Vec::new())),
                discriminant(&FeatureChange::ShowResources),
            ]
        );
    }
}

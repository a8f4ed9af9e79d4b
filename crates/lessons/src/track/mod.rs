//! The track, in order. To add a lesson: write a `pub const` [`Lesson`] in one of
//! these files (or a new one), add it to [`LESSONS`], and run this crate's tests:
//! they play its loop against the embedded demo server and check every pointer.

mod apps;
mod asks;
mod auth;
mod basics;
mod beyond;
mod features;
mod tasks;
mod transports;

use crate::Lesson;

/// Every lesson, in the order the page offers them.
pub static LESSONS: &[&Lesson] = &[
    &basics::SIX_STEPS,
    &features::PLAY_MODEL,
    &basics::GENERATIONS,
    &basics::PAGINATION,
    &basics::IS_ERROR,
    &basics::RESHAPE,
    &basics::PARALLEL,
    &features::STRUCTURED,
    &features::OUTPUT_SCHEMA,
    &features::PROGRESS,
    &features::LIST_CHANGED,
    &features::UNTRUSTED,
    &beyond::RESOURCES,
    &beyond::PROMPTS,
    &beyond::SKILLS,
    &beyond::COMPLETIONS,
    &beyond::LOGS,
    &transports::HTTP_SSE,
    &auth::OAUTH,
    &apps::APPS,
    &apps::APP_ONLY,
    &asks::SAMPLING,
    &asks::ELICIT_FORM,
    &asks::ELICIT_URL,
    &asks::ROOTS,
    &tasks::TASKS,
    &asks::MRTR,
];

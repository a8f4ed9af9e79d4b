//! The driver's async calls for resources, prompts, completions and logging,
//! each a thin wrapper over the core operation of the same name.

use mcpg_core::client::{Client, ListKind};
use mcpg_core::model::{
    CompletionReference, JsonObject, LoggingLevel, Prompt, Resource, ResourceTemplate,
};
use tokio::sync::mpsc;

use super::catalog::{self, AnswerReport, Listing, Pages, Update};
use super::run::Cmd;
use super::run::catalog::{CatalogCmd, Start};
use super::{Driver, DriverError};

impl Driver {
    async fn list_kind(&self, kind: ListKind) -> Result<Pages, DriverError> {
        self.ask(|reply| Cmd::Catalog(CatalogCmd::List { kind, reply }))
            .await
    }

    async fn answer(&self, during: &str, start: Start) -> Result<AnswerReport, DriverError> {
        let during = during.to_owned();
        self.ask(|reply| {
            Cmd::Catalog(CatalogCmd::Ask {
                during,
                start,
                reply,
            })
        })
        .await
    }

    /// Lists every resource (`resources/list`), following `nextCursor` to the end.
    pub async fn list_resources(&self) -> Result<Listing<Resource>, DriverError> {
        let pages = self.list_kind(ListKind::Resources).await?;
        Ok(pages.typed(catalog::resources))
    }

    /// Lists every resource template (`resources/templates/list`), all pages.
    pub async fn list_resource_templates(&self) -> Result<Listing<ResourceTemplate>, DriverError> {
        let pages = self.list_kind(ListKind::Templates).await?;
        Ok(pages.typed(catalog::templates))
    }

    /// Lists every prompt (`prompts/list`), all pages.
    pub async fn list_prompts(&self) -> Result<Listing<Prompt>, DriverError> {
        let pages = self.list_kind(ListKind::Prompts).await?;
        Ok(pages.typed(catalog::prompts))
    }

    /// Reads a resource (`resources/read`): `Answer::Read`.
    pub async fn read_resource(&self, uri: &str) -> Result<AnswerReport, DriverError> {
        let uri = uri.to_owned();
        let start: Start = Box::new(move |c: &mut Client, now| Some(c.read_resource(now, &uri)));
        self.answer("resources/read", start).await
    }

    /// Gets a prompt filled in with `arguments` (`prompts/get`): `Answer::Prompt`.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: JsonObject,
    ) -> Result<AnswerReport, DriverError> {
        let name = name.to_owned();
        let start: Start =
            Box::new(move |c: &mut Client, now| Some(c.get_prompt(now, &name, arguments)));
        self.answer("prompts/get", start).await
    }

    /// Asks for completions of the argument `name` whose value so far is `value`
    /// (`completion/complete`), with the other arguments already chosen in
    /// `context`: `Answer::Completion`.
    pub async fn complete(
        &self,
        reference: CompletionReference,
        name: &str,
        value: &str,
        context: JsonObject,
    ) -> Result<AnswerReport, DriverError> {
        let (name, value) = (name.to_owned(), value.to_owned());
        let start: Start = Box::new(move |c: &mut Client, now| {
            Some(c.complete(now, reference, (&name, &value), context))
        });
        self.answer("completion/complete", start).await
    }

    /// Subscribes to updates of `uri` (`resources/subscribe`, or under 2026-07-28
    /// the `subscriptions/listen` stream): `Answer::Done`. Updates arrive on
    /// [`Driver::updates`].
    pub async fn subscribe_resource(&self, uri: &str) -> Result<AnswerReport, DriverError> {
        let uri = uri.to_owned();
        let start: Start =
            Box::new(move |c: &mut Client, now| Some(c.subscribe_resource(now, &uri)));
        self.answer("resources/subscribe", start).await
    }

    /// Ends a subscription, like [`Driver::subscribe_resource`].
    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<AnswerReport, DriverError> {
        let uri = uri.to_owned();
        let start: Start =
            Box::new(move |c: &mut Client, now| Some(c.unsubscribe_resource(now, &uri)));
        self.answer("resources/unsubscribe", start).await
    }

    /// Sets the level of the server's log messages: `logging/setLevel` up to
    /// 2025-11-25; under 2026-07-28 the level rides on every later request and
    /// this answers `Answer::Done` at once, with no response.
    pub async fn set_log_level(&self, level: LoggingLevel) -> Result<AnswerReport, DriverError> {
        let start: Start = Box::new(move |c: &mut Client, now| c.set_log_level(now, level));
        self.answer("logging/setLevel", start).await
    }

    /// Every later resource update, list change and log message, in arrival
    /// order. The stream ends when the connection's loop stops.
    pub fn updates(&self) -> Result<mpsc::UnboundedReceiver<Update>, DriverError> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.cmds
            .send(Cmd::Catalog(CatalogCmd::Watch(tx)))
            .map_err(|_| DriverError::Closed)?;
        Ok(rx)
    }
}

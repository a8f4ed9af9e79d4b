//! A Streamable HTTP server that wants authorization (issue 15). The link's machine
//! holds what the server refused (`HttpConfig::hold_unauthorized`) and says so once
//! (`HttpEvent::Unauthorized`); the driver shows it ([`AuthNeeded`]) and waits for
//! the learner. The OAuth flow itself runs in the shell (the page's chunk drives
//! `mcpg_auth::AuthFlow` with `fetch` and a popup) and keeps the token there, like
//! an API key: the driver only hears "resume" or "give up", never a token.

use crate::auth::{AuthCommand, AuthNeeded};
use crate::links::{HttpTarget, Link};
use crate::page::Page;
use crate::view::{Source, ViewChange};

impl Page {
    /// The current HTTP link's machine holds requests until authorization.
    pub(crate) fn unauthorized(&mut self, status: u16, www_authenticate: Option<String>) {
        let target = match &self.source {
            Source::Relay(n) => HttpTarget::Relay(n.clone()),
            Source::Url(u) => HttpTarget::Url(u.clone()),
            // Only HTTP links hold; a replay or the demo never gets here.
            Source::Demo | Source::Bridge(_) => return,
        };
        if let Link::Http(link) = &mut self.link
            && let Some(why) = link.gave_up.clone()
        {
            link.machine.give_up(self.now, why);
            return;
        }
        self.note(format!(
            "HTTP {status}: the server wants authorization; its requests wait for a sign-in"
        ));
        self.emit(ViewChange::Auth(Some(AuthNeeded {
            target,
            status,
            www_authenticate,
        })));
    }

    pub(crate) fn auth_command(&mut self, c: AuthCommand) {
        let now = self.now;
        let Link::Http(link) = &mut self.link else {
            self.note("ignored: authorization for a connection that is not HTTP".to_owned());
            return;
        };
        match c {
            AuthCommand::Resume => link.machine.resume(now),
            AuthCommand::GiveUp(why) => {
                link.gave_up = Some(why.clone());
                link.machine.give_up(now, why);
            }
        }
        self.emit(ViewChange::Auth(None));
    }
}

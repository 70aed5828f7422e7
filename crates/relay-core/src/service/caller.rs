//! Who calls: the local user (the CLI, MCP over stdio, a loopback server while no token is
//! live), or a remote client with a token's grant. Every check of what a caller may touch
//! lives here, so each door asks the same questions and gets the same refusals.

use relay_store::Store;
use relay_store::packages::StoredPackage;
use relay_wire::Session;
use relay_wire::error::{Error, Result};

use super::rules::{self, Access};
use crate::ops::packages::pull;
use crate::ops::trust::tokens::Grant;

/// Who calls an operation.
#[derive(Debug, Clone)]
pub enum Caller {
    /// The user of this machine, who may do anything the store allows.
    Local,
    /// A remote client: its token's grant (one actor, some or every project, read-only or
    /// not). A remote caller never names a file of this machine.
    Token(Grant),
}

impl Caller {
    /// The caller a door's token makes: a token's grant, else the local user.
    pub fn of(grant: Option<&Grant>) -> Caller {
        grant.map_or(Caller::Local, |g| Caller::Token(g.clone()))
    }

    /// The token's grant, for a remote caller.
    pub fn grant(&self) -> Option<&Grant> {
        match self {
            Caller::Local => None,
            Caller::Token(g) => Some(g),
        }
    }

    /// Whether the caller is remote: it acts as its token's actor and names no local file.
    pub fn is_remote(&self) -> bool {
        matches!(self, Caller::Token(_))
    }

    /// Refuses an operation the caller may not run at all (a write with a read-only token),
    /// before any of its request is read; answers what the operation needs.
    pub fn authorize(&self, operation: &str) -> Result<Access> {
        let rule = rules::of(operation)?;
        if let (Caller::Token(g), Access::Write) = (self, rule.access)
            && g.read_only
        {
            return Err(Error::Unauthorized(format!(
                "token {} is read-only (scope: read) and `{operation}` writes: use a token \
                 made without --read-only",
                g.token_id
            )));
        }
        Ok(rule.access)
    }

    /// Refuses `project` when `operation` may not touch it for this caller: a project outside
    /// the token's scope, read or written.
    pub fn authorize_project(&self, operation: &str, project: &str) -> Result<()> {
        match self.authorize(operation)? {
            Access::Public => Ok(()),
            Access::Read => self.may_read(project),
            Access::Write => self.may_write(project),
        }
    }

    /// The package `id` names, if `operation` may touch its project for this caller. A token
    /// scoped to some projects gives whole ids (a short one is looked up across the store,
    /// and an ambiguous one would list packages it may not read).
    pub fn authorize_package(
        &self,
        operation: &str,
        store: &Store,
        id: &str,
    ) -> Result<StoredPackage> {
        self.authorize(operation)?;
        let found = match self.grant() {
            Some(g) if g.projects.is_some() => pull::exact(store.view(), id)?,
            _ => pull::specific(store.view(), id)?,
        };
        self.authorize_project(operation, found.package.project_id())?;
        Ok(found)
    }

    /// The id of the record `id` names, as `operation` may touch it: a remote caller's is
    /// looked up and its project checked, and the whole id answered; the local user's is
    /// answered as given (the operation resolves a short one itself, in one read).
    pub fn authorize_record(&self, operation: &str, store: &Store, id: &str) -> Result<String> {
        match self.is_remote() {
            true => Ok(self
                .authorize_package(operation, store, id)?
                .package
                .id()
                .to_string()),
            false => self.authorize(operation).map(|_| id.to_string()),
        }
    }

    /// Refuses a request before its members are checked: an operation the caller may not
    /// run, a project it may not touch (the `selected` one, for a request that reaches
    /// it), or the whole store for a token that does not see every project.
    pub fn authorize_request(
        &self,
        operation: &str,
        members: &serde_json::Map<String, serde_json::Value>,
        selected: impl FnOnce() -> Option<String>,
    ) -> Result<()> {
        self.authorize(operation)?;
        if self.grant().is_none() {
            return Ok(());
        }
        match rules::reach(operation, members) {
            rules::Reach::Selected => match selected() {
                Some(project) => self.authorize_project(operation, &project),
                None => Ok(()),
            },
            rules::Reach::Store => self.authorize_store(operation),
            _ => Ok(()),
        }
    }

    /// Refuses `operation` on the whole store to a token that does not see every project.
    pub fn authorize_store(&self, operation: &str) -> Result<()> {
        self.authorize(operation)?;
        match self.grant() {
            Some(grant) if grant.projects.is_some() => Err(Error::Unauthorized(format!(
                "token {} is scoped to {} and `{operation}` reads the whole store: it needs a \
                 token for every project",
                grant.token_id,
                grant.projects.as_deref().unwrap_or_default().join(", "),
            ))),
            _ => Ok(()),
        }
    }

    /// The open session `key` names (an id, a start of one, or a callsign) among the
    /// projects the caller may read, if `operation` may touch it: its project, and for a
    /// token, its own actor's session only.
    pub fn authorize_session(&self, operation: &str, store: &Store, key: &str) -> Result<Session> {
        let session = crate::ops::sessions::resolve(store, &self.projects(store)?, key)?;
        self.authorize_project(
            operation,
            session.str_field("project_id").unwrap_or_default(),
        )?;
        let actor = session.str_field("actor_id").unwrap_or_default();
        self.may_name(Some(actor), session.str_field("actor_type"))?;
        Ok(session)
    }

    /// Refuses to retract `id` (a package or a fact) when its project is not the caller's
    /// to write to.
    pub fn authorize_retraction(&self, store: &Store, id: &str, hint: Option<&str>) -> Result<()> {
        self.authorize("retract")?;
        if self.is_remote() {
            let (_, project, _) = crate::ops::packages::retract::locate(store, id, hint)?;
            self.authorize_project("retract", &project)?;
        }
        Ok(())
    }

    /// Refuses a project the caller may not read.
    pub fn may_read(&self, project: &str) -> Result<()> {
        self.grant().map_or(Ok(()), |g| g.may_read(project))
    }

    /// Refuses a project the caller may not write to.
    pub fn may_write(&self, project: &str) -> Result<()> {
        self.grant().map_or(Ok(()), |g| g.may_write(project))
    }

    /// Refuses a record naming an actor the caller may not write as: a token writes as its
    /// own actor only. An id left out is the caller's own.
    pub fn may_name(&self, actor_id: Option<&str>, actor_type: Option<&str>) -> Result<()> {
        match self.grant() {
            None => Ok(()),
            Some(g) => g.may_name(actor_id.unwrap_or(&g.actor.id), actor_type),
        }
    }

    /// `projects` less those the caller may not read.
    pub fn visible(&self, projects: Vec<String>) -> Vec<String> {
        match self.grant() {
            None => projects,
            Some(g) => g.visible(projects),
        }
    }

    /// Every project of the store the caller may read: "every project", for this caller.
    pub fn projects(&self, store: &Store) -> Result<Vec<String>> {
        let all = super::scope::every_project(store)?;
        Ok(self.visible(all))
    }

    /// Only for a token: the projects it may see, to narrow a store-wide answer.
    pub fn scope(&self, store: &Store) -> Result<Option<Vec<String>>> {
        match self {
            Caller::Local => Ok(None),
            Caller::Token(_) => self.projects(store).map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Actor;
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};

    fn token(projects: Option<&[&str]>, read_only: bool) -> Caller {
        Caller::Token(Grant {
            token_id: "tok_1".into(),
            actor: Actor {
                id: "remote".into(),
                actor_type: "agent".into(),
            },
            projects: projects.map(|p| p.iter().map(|s| s.to_string()).collect()),
            read_only,
        })
    }

    /// Each kind of caller against each kind of operation: the table the doors share.
    #[test]
    fn each_kind_of_caller_may_do_what_the_table_says() {
        let local = Caller::Local;
        let writer = token(None, false);
        let reader = token(None, true);
        let scoped = token(Some(&["web"]), false);
        // Which of deposit, session_end, pull and conformance each may run on `demo`.
        for (caller, allowed) in [
            (&local, [true, true, true, true]),
            (&writer, [true, true, true, true]),
            (&reader, [false, false, true, true]),
            (&scoped, [false, false, false, true]),
        ] {
            let ops = ["deposit", "session_end", "pull", "conformance"];
            for (op, allowed) in ops.into_iter().zip(allowed) {
                let got = caller.authorize_project(op, "demo");
                assert_eq!(got.is_ok(), allowed, "{caller:?} {op}: {got:?}");
            }
        }
        for (caller, op, project, allowed) in [
            (&writer, "pull", "web", true),
            (&scoped, "deposit", "web", true),
            (&local, "no_such_operation", "demo", false),
        ] {
            let got = caller.authorize_project(op, project);
            assert_eq!(got.is_ok(), allowed, "{caller:?} {op} {project}: {got:?}");
            if let Err(e) = got {
                assert_eq!(e.code(), "unauthorized", "{e}");
            }
        }
        assert!(reader.authorize("deposit").is_err());
        assert!(scoped.authorize("deposit").is_ok());
        assert!(!local.is_remote() && scoped.is_remote());
    }

    #[test]
    fn a_scoped_token_reaches_a_package_only_in_its_projects() {
        let (_dir, store) = store_with(&["demo", "web"]);
        let titled = |t: &str| serde_json::json!({"title": t}).as_object().unwrap().clone();
        let demo = deposit(&store, titled("In demo"), &context("demo")).unwrap();
        let web = deposit(&store, titled("In web"), &context("web")).unwrap();
        let (demo, web) = (demo.package.id().to_string(), web.package.id().to_string());
        let scoped = token(Some(&["web"]), false);
        let found = scoped
            .authorize_package("review_flag", &store, &web)
            .unwrap();
        assert_eq!(found.package.project_id(), "web");
        let e = (scoped.authorize_package("amp_get", &store, &demo)).unwrap_err();
        assert_eq!(e.code(), "unauthorized", "{e}");
        // A token scoped to some projects gives whole ids.
        let e = (scoped.authorize_package("amp_get", &store, &web[..12])).unwrap_err();
        assert_eq!(e.code(), "package_not_found", "{e}");
        let reader = token(None, true);
        let e = (reader.authorize_package("review_flag", &store, &web)).unwrap_err();
        assert_eq!(e.code(), "unauthorized", "{e}");
        assert!(
            Caller::Local
                .authorize_package("amp_get", &store, &demo[..12])
                .is_ok()
        );
        assert_eq!(
            scoped.visible(vec!["demo".into(), "web".into()]),
            vec!["web".to_string()]
        );
    }
}

//! pull (§8.2): one package by id, or the latest packages of one or more projects, filtered;
//! and the packages that name one as their parent.

use crate::search::filter::{Filter, Viewer};
use relay_store::packages::StoredPackage;
use relay_store::{Store, View, WarningKind};
use relay_wire::error::{Error, Result};

/// The versions of one package, wherever it is stored: package ids are unique in the whole
/// store (§6.1), so no project needs naming. A store that holds the id in several projects
/// (clones merged, or an older relay) answers from the project whose id sorts first,
/// byte-wise, whichever project is selected, and warns that the id is not unique.
fn versions_of(store: &Store, package_id: &str) -> Result<Vec<StoredPackage>> {
    let mut holders = store.package_everywhere(package_id)?.into_iter();
    let Some((project, versions)) = holders.next() else {
        return Err(Error::PackageNotFound(package_id.to_string()));
    };
    for (other, their) in holders {
        let at = &their[0].location;
        let line = match at.line {
            0 => store.line_of_package(&at.path, package_id),
            n => n,
        };
        store.diagnostics().warn(
            &at.path,
            line,
            WarningKind::DuplicatePackageId,
            format!(
                "package `{package_id}` is stored in project `{project}` and again in project \
                 `{other}`, but package ids are unique in a store; this answer is the one in \
                 `{project}` (the project whose id sorts first); `relay verify` lists such ids"
            ),
        );
    }
    Ok(versions)
}

/// One package as `view` reads it, wherever it is stored (see [`versions_of`]): its current
/// version now, or the version current at the view's time (`package_not_found` when it did
/// not exist yet then). `package_id` may be a short id, the start of one package's id
/// ([`crate::ops::short_ids`]); an id that is stored is always taken as it is.
pub fn specific(view: View<'_>, package_id: &str) -> Result<StoredPackage> {
    by_id_or_start(view, package_id, |id| exact(view, id))
}

/// Reads the package `given` names with `read` (any lookup by id that answers
/// `package_not_found` when there is none): by its id, else by the one package id it is the
/// start of ([`package_id`]).
fn by_id_or_start<T>(view: View<'_>, given: &str, read: impl Fn(&str) -> Result<T>) -> Result<T> {
    match read(given) {
        Err(Error::PackageNotFound(missing)) if missing == given => {
            match package_id(view, given, None)? {
                Some(full) => read(&full),
                None => Err(Error::PackageNotFound(missing)),
            }
        }
        other => other,
    }
}

/// The one package id `given` is the start of ([`crate::ops::short_ids::unique`]), across
/// every project or in `in_project`. An ambiguous start lists the candidates by id, title and
/// time; a retracted or expired one is listed by id and time only, its title kept hidden as
/// reads keep it.
pub fn package_id(view: View<'_>, given: &str, in_project: Option<&str>) -> Result<Option<String>> {
    use crate::ops::short_ids::{IdKind, unique};
    let store = view.store();
    unique(
        IdKind::Package,
        given,
        // The packages the view holds (one created after an `--as-of` time is not there yet),
        // in `in_project` when one is given.
        |prefix| {
            let ids = store.package_ids_starting_with(prefix)?;
            let found = ids.iter().filter_map(|id| exact(view, id).ok());
            Ok(found
                .filter(|p| in_project.is_none_or(|want| p.package.project_id() == want))
                .collect())
        },
        |p: &StoredPackage| p.package.id(),
        |p| {
            let pkg = &p.package;
            let hidden = crate::search::filter::Hidden::load(
                view,
                &[pkg.project_id().to_string()],
                crate::search::filter::Reveal::default(),
            )?;
            let summary = match hidden.package(pkg) {
                Some(_) => "(hidden: retracted or expired)".to_string(),
                None => pkg.title().to_string(),
            };
            Ok(relay_wire::error::IdCandidate {
                id: pkg.id().to_string(),
                summary,
                created_at: relay_wire::time::format(pkg.created_at()),
            })
        },
    )
}

/// [`specific`] for the whole id only: what looks up an id that a record or a caller's new
/// record names, where a prefix must not stand for another package.
pub fn exact(view: View<'_>, package_id: &str) -> Result<StoredPackage> {
    let Some(t) = view.as_of() else {
        return versions_of(view.store(), package_id)?
            .into_iter()
            .max_by(relay_store::packages::version_order)
            .ok_or_else(|| Error::PackageNotFound(package_id.to_string()));
    };
    crate::ops::packages::snapshot::version_at(exact_history(view.store(), package_id)?, t)
        .ok_or_else(|| Error::Hidden {
            code: relay_wire::error::Code::PackageNotFound,
            message: format!(
                "package `{package_id}` did not exist yet at {} (the --as-of time)",
                relay_wire::time::format(t)
            ),
        })
}

/// The current version of one package as reads of `view` show it (now, or as the store stood
/// at its time): a retracted or expired package is `package_not_found`, with why and the flag
/// that shows it, unless `reveal` shows it.
pub fn visible(
    view: View<'_>,
    package_id: &str,
    reveal: crate::search::filter::Reveal,
) -> Result<StoredPackage> {
    let found = specific(view, package_id)?;
    let hidden = crate::search::filter::Hidden::load(
        view,
        &[found.package.project_id().to_string()],
        reveal,
    )?;
    if let Some(why) = hidden.package(&found.package) {
        return Err(Error::Hidden {
            code: relay_wire::error::Code::PackageNotFound,
            message: why.explain(&format!("package `{}`", found.package.id())),
        });
    }
    Ok(found)
}

/// The retraction of a package, if it has one (`pull ID --history` shows it after the
/// versions).
pub fn retraction_of(
    store: &Store,
    package_id: &str,
) -> Result<Option<relay_store::retractions::Retraction>> {
    let found = specific(store.view(), package_id)?;
    Ok(store
        .retractions(found.package.project_id())?
        .package(found.package.id())
        .cloned())
}

/// Every version of one package, oldest first (by version, then hash), wherever it is stored
/// (see [`versions_of`]); `package_id` may be a short id, as for [`specific`].
pub fn history(store: &Store, package_id: &str) -> Result<Vec<StoredPackage>> {
    by_id_or_start(store.view(), package_id, |id| exact_history(store, id))
}

/// [`history`] for the whole id only.
fn exact_history(store: &Store, package_id: &str) -> Result<Vec<StoredPackage>> {
    let mut versions = versions_of(store, package_id)?;
    versions.sort_by(|a, b| {
        a.version
            .cmp(&b.version)
            .then_with(|| relay_store::packages::version_order(a, b))
    });
    // Only exact duplicate lines (a union merge keeps both copies) count once.
    versions.dedup_by(|a, b| {
        a.hash == b.hash && a.version == b.version && a.transition == b.transition
    });
    Ok(versions)
}

/// The `limit` newest packages (current versions) across `projects` that match `filter`:
/// newest `created_at` first, ties broken by `package_id` ascending.
pub fn latest(
    store: &Store,
    projects: &[String],
    filter: &Filter,
    limit: usize,
) -> Result<Vec<StoredPackage>> {
    let filter = &filter.prepare(store, projects)?;
    let mut all = Vec::new();
    for project in projects {
        if let Some(t) = filter.as_of {
            all.extend(
                (crate::ops::packages::snapshot::packages(
                    View::of(store, Some(t)),
                    project,
                    None,
                )?
                .into_iter())
                .filter(|p| filter.matches(p)),
            );
        } else if store.config().search_index() {
            all.extend(newest_first(store, project, filter, limit)?);
        } else {
            all.extend(
                store
                    .current_packages(project)?
                    .into_values()
                    .filter(|p| filter.matches(p)),
            );
        }
    }
    all.sort_by_cached_key(|p| {
        (
            std::cmp::Reverse(p.package.created_at()),
            p.package.id().to_string(),
        )
    });
    all.truncate(limit);
    Ok(all)
}

/// Up to `limit` packages of one project that match `filter`, newest first, read through the
/// logs' indexes: month by month from the newest, only the lines that can make the cut are
/// read. A package's versions share the log of its `created_at` month, so once a month has
/// filled the list, older months cannot change it.
pub fn newest_first(
    store: &Store,
    project: &str,
    filter: &Filter,
    limit: usize,
) -> Result<Vec<StoredPackage>> {
    let mut out = Vec::new();
    if limit == 0 {
        return Ok(out);
    }
    let filter = &filter.prepare(store, &[project.to_string()])?;
    let needles = filter.line_needles();
    // A month may have two logs (the tracked one and the clone's queue): read as one.
    for month in (store.package_months(project, filter.since, filter.until)?)
        .into_iter()
        .rev()
    {
        let logs = month.logs;
        // The month's newest packages first; the whole month only if the listing needs more.
        let want = limit.saturating_mul(NEWEST_MARGIN).max(NEWEST_AT_LEAST);
        let mut month = crate::ops::packages::months::Month::load_newest(store, &logs, want)?;
        let mut seen = 0;
        loop {
            let taken = newest_of_month(store, &month, seen, filter, &needles, limit, &mut out)?;
            if out.len() == limit {
                return Ok(out);
            }
            if month.complete() {
                break;
            }
            seen += taken;
            month = crate::ops::packages::months::Month::load(store, &logs)?;
        }
    }
    Ok(out)
}

/// How many packages per one asked for `pull --latest` reads of a month first: drafts,
/// hidden packages and filters pass over some.
const NEWEST_MARGIN: usize = 4;
/// And at least this many.
const NEWEST_AT_LEAST: usize = 64;

/// Adds to `out`, up to `limit`, the packages of `month`'s runs after the first `skip` that
/// `filter` shows; returns how many runs it went through.
fn newest_of_month(
    store: &Store,
    month: &crate::ops::packages::months::Month,
    skip: usize,
    filter: &Filter,
    needles: &[String],
    limit: usize,
    out: &mut Vec<StoredPackage>,
) -> Result<usize> {
    let prefilters = match needles.is_empty() {
        true => None,
        false => Some(
            (month.catalogs.iter())
                .map(|c| c.prefilter(needles))
                .collect::<Result<Vec<_>>>()?,
        ),
    };
    let mut taken = 0;
    for run in month.runs().skip(skip) {
        taken += 1;
        let found = if run.more.is_empty() {
            let (catalog, entry) = month.entry(run.first);
            let (c, at) = run.first;
            if !filter.may_match(catalog, entry)
                || prefilters.as_ref().is_some_and(|p| !p[c].may_match(at))
            {
                continue;
            }
            catalog.read(store, entry)?
        } else {
            month.read(store, &run)?
        };
        if let Some(p) = found
            && filter.matches(&p)
        {
            out.push(p);
            if out.len() == limit {
                return Ok(taken);
            }
        }
    }
    Ok(taken)
}

/// The packages of `projects` whose `parent_package_id` is `parent_id`, at their current
/// versions, oldest first (ties by id); drafts as listings show them to `viewer(project)`.
/// No index records parents, so every package log of those projects is read, but only the
/// lines that hold the id's bytes are parsed: the cost is a byte search of the logs.
pub fn children(
    store: &Store,
    projects: &[String],
    parent_id: &str,
    viewer: impl Fn(&str) -> Viewer,
) -> Result<Vec<StoredPackage>> {
    let needle = relay_store::packages::json_fragment(parent_id);
    let mut out = Vec::new();
    for project in projects {
        let mut found: std::collections::HashMap<String, StoredPackage> = Default::default();
        store.scan_packages(project, Some(needle.as_bytes()), |p| {
            if p.package.str_field("parent_package_id") == Some(parent_id) {
                relay_store::packages::keep_current(&mut found, p);
            }
            Ok(())
        })?;
        let filter = Filter {
            viewer: viewer(project),
            ..Filter::default()
        }
        .prepare(store, std::slice::from_ref(project))?;
        out.extend(found.into_values().filter(|p| filter.matches(p)));
    }
    out.sort_by_cached_key(|p| (p.package.created_at(), p.package.id().to_string()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::packages::deposit::deposit;
    use crate::ops::packages::deposit::test_support::{context, store_with};
    use relay_store::index::MonthCatalog;
    use serde_json::json;

    #[test]
    fn a_start_is_read_among_the_packages_of_the_view_and_the_project_asked() {
        let (_dir, store) = store_with(&["demo", "other"]);
        let input = |id: &str, at: &str| {
            json!({"package_id": id, "title": id, "created_at": at})
                .as_object()
                .unwrap()
                .clone()
        };
        deposit(
            &store,
            input("pkg_abcd01", "2026-01-01T00:00:00Z"),
            &context("demo"),
        )
        .unwrap();
        deposit(
            &store,
            input("pkg_abcd02", "2026-03-01T00:00:00Z"),
            &context("other"),
        )
        .unwrap();
        let now = store.view();
        let err = package_id(now, "pkg_abcd", None).unwrap_err();
        assert_eq!(err.code(), "ambiguous_id");
        let demo = package_id(now, "pkg_abcd", Some("demo")).unwrap();
        assert_eq!(demo.as_deref(), Some("pkg_abcd01"));
        // As the store stood in February, only the first had been made.
        let february = relay_wire::time::parse("2026-02-01T00:00:00Z").unwrap();
        let then = relay_store::View::of(&store, Some(february));
        assert_eq!(
            package_id(then, "pkg_abcd", None).unwrap().as_deref(),
            Some("pkg_abcd01")
        );
    }

    #[test]
    fn the_newest_of_a_month_read_first_are_the_start_of_the_whole_month() {
        // 400 packages of one month, created in a shuffled order with ties; the 300 newest
        // are another's drafts, so a listing for jo reads past the newest and needs the rest.
        let (_dir, store) = store_with(&["demo"]);
        let created = |i: usize| {
            format!(
                "2026-01-01T{:02}:{:02}:00Z",
                (i * 7919 % 400) / 60 % 24,
                (i * 7919 % 400) % 60 / 2 * 2
            )
        };
        let mut made: Vec<(String, String, bool)> = Vec::new();
        let rank = |i: usize| i * 7919 % 400;
        for i in 0..400 {
            let id = format!("pkg_n{i:03}");
            let mut input = serde_json::Map::new();
            input.insert("package_id".into(), json!(id));
            input.insert("title".into(), json!(id));
            input.insert("created_at".into(), json!(created(i)));
            let draft = rank(i) >= 100;
            if draft {
                input.insert("status".into(), json!("draft"));
                input.insert("created_by".into(), json!({"id": "ana", "type": "human"}));
            } else if i % 50 == 0 {
                input.insert("status".into(), json!("awaiting_review"));
                input.insert("review_type".into(), json!("human"));
            }
            deposit(&store, input, &context("demo")).unwrap();
            made.push((created(i), id, draft));
        }
        for i in (0..400).filter(|i| i % 50 == 0 && rank(*i) < 100) {
            crate::ops::packages::deposit::test_support::approve(&store, &format!("pkg_n{i:03}"));
        }
        // The partial catalog is the start of the whole one.
        let log = store.package_logs("demo").unwrap().pop().unwrap();
        let whole = MonthCatalog::load(&store, &log).unwrap();
        let newest = MonthCatalog::load_newest(&store, &log, 64).unwrap();
        assert!(whole.complete && !newest.complete);
        let listed = |c: &MonthCatalog| -> Vec<(i64, String, Vec<u64>)> {
            (c.entries.iter())
                .map(|e| {
                    (
                        e.created_micros,
                        c.id(e).to_string(),
                        c.versions(e).to_vec(),
                    )
                })
                .collect()
        };
        let (whole, newest) = (listed(&whole), listed(&newest));
        assert!(newest.len() >= 64 && newest.len() < whole.len());
        assert_eq!(newest[..], whole[..newest.len()]);
        // Listings agree with the packages sorted by hand, whoever asks, however many.
        made.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let projects = ["demo".to_string()];
        for (viewer, limit) in [
            ("jo", 1),
            ("jo", 5),
            ("jo", 20),
            ("jo", 150),
            ("ana", 5),
            ("ana", 120),
        ] {
            let filter = Filter {
                viewer: Viewer::known(Some(viewer.to_string())),
                ..Default::default()
            };
            let got: Vec<String> = latest(&store, &projects, &filter, limit)
                .unwrap()
                .iter()
                .map(|p| p.package.id().to_string())
                .collect();
            let want: Vec<String> = (made.iter())
                .filter(|(_, _, draft)| !draft || viewer == "ana")
                .take(limit)
                .map(|(_, id, _)| id.clone())
                .collect();
            assert_eq!(got, want, "{viewer} {limit}");
        }
    }

    #[test]
    fn children_are_the_packages_naming_the_parent_in_any_given_project_drafts_to_their_author() {
        let (_dir, store) = store_with(&["demo", "other", "hidden"]);
        let child = json!({"parent_package_id": "pkg_parent"});
        let dated = |t: &str| json!({"parent_package_id": "pkg_parent", "created_at": t});
        let in_review = json!({"parent_package_id": "pkg_parent", "status": "awaiting_review",
            "review_type": "human", "created_at": "2026-01-01T00:00:00Z"});
        let draft = json!({"parent_package_id": "pkg_parent", "status": "draft"});
        for (project, id, extra) in [
            ("demo", "pkg_parent", json!({})),
            ("demo", "pkg_b", dated("2026-02-01T00:00:00Z")),
            ("demo", "pkg_a", in_review),
            ("demo", "pkg_draft", draft),
            // Mentions the parent, but is no child of it.
            ("demo", "pkg_m", json!({"description": "See pkg_parent"})),
            ("other", "pkg_c", dated("2026-03-01T00:00:00Z")),
            ("hidden", "pkg_h", child),
        ] {
            let mut input = extra.as_object().unwrap().clone();
            input.insert("package_id".into(), json!(id));
            input.insert("title".into(), json!(id));
            deposit(&store, input, &context(project)).unwrap();
        }
        // A review moves pkg_a on: its current version is the one listed.
        crate::ops::packages::deposit::test_support::approve(&store, "pkg_a");
        let projects = ["demo".to_string(), "other".to_string()];
        let ids = |viewer: Option<&str>| -> Vec<(String, String)> {
            let who = viewer.map(str::to_string);
            children(&store, &projects, "pkg_parent", |_| {
                Viewer::known(who.clone())
            })
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p.package.id().to_string(),
                    p.package.status().as_str().to_string(),
                )
            })
            .collect()
        };
        let pair = |id: &str, status: &str| (id.to_string(), status.to_string());
        assert_eq!(
            ids(Some("someone")),
            [
                pair("pkg_a", "complete"),
                pair("pkg_b", "complete"),
                pair("pkg_c", "complete")
            ]
        );
        assert_eq!(ids(Some("jo")).len(), 4, "the draft, to its author");
        assert!(ids(Some("jo")).contains(&pair("pkg_draft", "draft")));
        assert!(
            children(&store, &projects, "pkg_b", |_| Viewer::anyone())
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn listings_by_tag_and_author_skip_lines_without_them_and_agree_with_a_scan() {
        let (_dir, store) = store_with(&["demo"]);
        for (id, tags, by) in [
            ("pkg_1", json!(["infra"]), "jo"),
            ("pkg_2", json!(["ui"]), "jo"),
            // A tag whose JSON needs an escape: the line is parsed, not prefiltered away.
            ("pkg_3", json!(["say \"hi\""]), "ana"),
            ("pkg_4", json!(["infra", "ui"]), "ana"),
        ] {
            let mut input = serde_json::Map::new();
            input.insert("package_id".into(), json!(id));
            input.insert("title".into(), json!(id));
            input.insert("tags".into(), tags);
            input.insert("created_by".into(), json!({"id": by, "type": "human"}));
            deposit(&store, input, &context("demo")).unwrap();
        }
        let projects = ["demo".to_string()];
        let ids = |tags: &[&str], actor: Option<&str>| -> Vec<String> {
            let filter = Filter {
                tags: tags.iter().map(|t| t.to_string()).collect(),
                actor: actor.map(str::to_string),
                ..Default::default()
            };
            let mut out: Vec<String> = latest(&store, &projects, &filter, 10)
                .unwrap()
                .iter()
                .map(|p| p.package.id().to_string())
                .collect();
            out.sort();
            out
        };
        assert_eq!(ids(&["infra"], None), ["pkg_1", "pkg_4"]);
        assert_eq!(ids(&["infra", "ui"], None), ["pkg_4"]);
        assert_eq!(ids(&["say \"hi\""], None), ["pkg_3"]);
        assert_eq!(ids(&[], Some("ana")), ["pkg_3", "pkg_4"]);
        assert_eq!(ids(&["ui"], Some("jo")), ["pkg_2"]);
        assert!(ids(&["nothing"], None).is_empty());
        // The line prefilter alone: it passes a line with every needle or an escape.
        let log = store.package_logs("demo").unwrap().pop().unwrap();
        let month = MonthCatalog::load(&store, &log).unwrap();
        let pre = month.prefilter(&["\"infra\"".to_string()]).unwrap();
        let passed: Vec<&str> = (month.entries.iter().enumerate())
            .filter(|(at, _)| pre.may_match(*at))
            .map(|(_, e)| month.id(e))
            .collect();
        let mut passed = passed;
        passed.sort();
        assert_eq!(passed, ["pkg_1", "pkg_3", "pkg_4"]);
    }
}

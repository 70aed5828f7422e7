// relay console: the project switcher submits on change, and the first page of the timeline
// follows new records: each event of the server's stream for the project makes the script
// fetch this same page again (same address, so the same filters, and drafts only to their
// author) and make the shown list that one, so the page shows exactly what a reload would.
// Elements already shown as they should be stay (a reader's focus and place with them); the
// rest come from relay's own escaped HTML, never from stored text set as markup by the
// script, and no script in the fetched page runs.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const select of document.querySelectorAll("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form.submit());
  }
  // On a phone the filters fold behind their button, unless one is in use (the page opens
  // them, and without script, everywhere).
  const filtering = ["type", "status", "created_by", "tag", "since"].some((k) =>
    new URLSearchParams(window.location.search).get(k)
  );
  const phone = window.matchMedia("(max-width: 600px)");
  if (!filtering && phone.matches) {
    for (const fold of document.querySelectorAll("details.fold")) fold.open = false;
  }
  // Wider again (a phone turned): the button is gone, so the filters open.
  phone.addEventListener("change", () => {
    if (!phone.matches) for (const fold of document.querySelectorAll("details.fold")) fold.open = true;
  });
  const main = document.getElementById("timeline");
  if (!main || !("live" in main.dataset) || !window.EventSource) return;
  // What tells an element from its siblings: a package row by its id, a day by its date.
  const keyOf = (el) => {
    if (el.dataset.id) return `package ${el.dataset.id}`;
    const day = el.tagName === "SECTION" && el.querySelector("time");
    if (day) return `day ${day.getAttribute("datetime")}`;
    return `${el.tagName} ${el.className}`;
  };
  const sameAttributes = (a, b) =>
    a.attributes.length === b.attributes.length &&
    Array.from(a.attributes).every((at) => b.getAttribute(at.name) === at.value);
  // Makes the children of `shown` those of `fresh`, keeping each shown element that is
  // already right.
  const morph = (shown, fresh) => {
    const old = new Map();
    for (const child of shown.children) old.set(keyOf(child), child);
    const next = Array.from(fresh.children).map((f) => {
      const o = old.get(keyOf(f));
      if (!o || o.tagName !== f.tagName) return document.adoptNode(f);
      if (o.isEqualNode(f)) return o;
      if (o.children.length > 0 && f.children.length > 0 && sameAttributes(o, f)) {
        morph(o, f);
        return o;
      }
      return document.adoptNode(f);
    });
    shown.replaceChildren(...next);
  };
  const project = main.dataset.project;
  const source = new EventSource(`/v1/projects/${encodeURIComponent(project)}/events`);
  // One fetch at a time; events that arrive meanwhile make one more.
  let busy = false;
  let again = false;
  const refresh = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        const answer = await fetch(window.location.href, {
          headers: { Accept: "text/html" },
          cache: "no-store",
        });
        if (!answer.ok) break;
        const page = new DOMParser().parseFromString(await answer.text(), "text/html");
        const fresh = page.getElementById("live");
        const shown = document.getElementById("live");
        if (!fresh || !shown) break;
        morph(shown, fresh);
      } while (again);
    } catch (_) {
      // The next event tries again.
    } finally {
      busy = false;
    }
  };
  // Whatever can change the list: a deposit, a review, a retraction or an expiry, a log
  // rewritten under the stream.
  for (const kind of ["package", "transition", "retraction", "expiry", "resync"]) {
    source.addEventListener(kind, refresh);
  }
});
